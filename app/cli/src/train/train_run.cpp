// `attn train --task ...` (see train_options.hpp): builds the training
// config from the options, runs Adam steps, prints held-out accuracy at a
// fixed cadence, then the per-head scores that show which heads became
// previous-token or induction heads, and saves the model when asked.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "cli_error.hpp"
#include "train/train_options.hpp"

namespace attn::cli {

namespace {

train::TrainConfig config_from(const TrainOptions& o) {
  if (o.task.empty())
    throw CliError("--task: which task? (copy, reverse, sort, previous-token, induction or key-value)");
  if (!o.input.empty()) throw CliError("--input: only used with --scenario MODEL (writing a layer as a scenario)");
  train::TrainConfig c;
  try {
    c.task.kind = train::task_from_name(o.task);
  } catch (const std::invalid_argument& e) {
    throw CliError(std::string("--task: ") + e.what());
  }
  c.task.vocab = o.vocab;
  const int default_length = c.task.kind == train::TaskKind::KeyValue ? std::max(1, std::min(12, o.vocab / 2)) : 12;
  c.task.length = o.length > 0 ? o.length : default_length;
  c.task.random_offset = o.random_offset;
  c.model.vocab = train::model_vocab(c.task);
  c.model.seq_len = train::sequence_length(c.task);
  c.model.d_model = o.d_model;
  c.model.n_heads = o.heads;
  c.model.n_layers = o.layers;
  c.model.learned_positions = o.positions == "learned";
  c.model.mlp = o.mlp;
  c.batch = o.batch;
  c.learning_rate = o.lr;
  c.seed = o.seed;
  c.threads = o.threads;
  const std::string problem = train::validate_train_config(c);
  if (!problem.empty()) throw CliError(problem);
  return c;
}

void print_settings(const train::TrainConfig& c, const TrainOptions& o) {
  std::printf("task %s: %s\n", train::task_name(c.task.kind).c_str(), train::task_rule(c.task.kind).c_str());
  std::printf("vocab %d, length %d%s, sequences of %d tokens; d_model %d, %d heads, %d layers, %s positions%s; "
              "batch %d, lr %g, seed %llu\n",
              c.task.vocab, c.task.length, c.task.random_offset ? " (random offset)" : "", c.model.seq_len,
              c.model.d_model, c.model.n_heads, c.model.n_layers, c.model.learned_positions ? "learned" : "sinusoidal",
              c.model.mlp ? ", MLP" : "", c.batch, c.learning_rate, static_cast<unsigned long long>(c.seed));
  if (o.until > 0) std::printf("until held-out accuracy %.4f, at most %d steps\n", o.until, o.steps);
  std::printf("%8s  %10s  %14s  %17s\n", "step", "batch loss", "held-out loss", "held-out accuracy");
}

void print_heads(const std::vector<train::HeadScore>& scores) {
  if (scores.empty()) return;
  const train::HeadScore best = train::best_induction_head(scores);
  std::printf("attention per head, averaged over the held-out scored positions:\n");
  std::printf("%5s  %4s  %14s  %16s\n", "layer", "head", "previous token", "induction target");
  for (const train::HeadScore& s : scores) {
    const bool is_best = s.layer == best.layer && s.head == best.head;
    std::printf("%5d  %4d  %14.4f  %16.4f%s\n", s.layer, s.head, s.previous_token, s.induction,
                is_best ? "  <- best induction head" : "");
  }
}

}  // namespace

int run_training(const TrainOptions& o) {
  const train::TrainConfig config = config_from(o);
  train::Trainer trainer(config);
  print_settings(config, o);
  const int every = o.eval_every > 0 ? o.eval_every : std::max(1, o.steps / 20);
  train::Evaluation eval = trainer.evaluate();
  std::printf("%8d  %10s  %14.4f  %17.4f\n", 0, "-", eval.loss, eval.accuracy);
  std::fflush(stdout);
  bool reached = o.until > 0 && eval.accuracy >= o.until;
  while (!reached && trainer.steps_done() < o.steps) {
    const double loss = trainer.step();
    const int step = trainer.steps_done();
    if (step % every == 0 || step == o.steps) {
      eval = trainer.evaluate();
      std::printf("%8d  %10.4f  %14.4f  %17.4f\n", step, loss, eval.loss, eval.accuracy);
      std::fflush(stdout);  // progress shows as it happens, even through a pipe
      reached = o.until > 0 && eval.accuracy >= o.until;
    }
  }
  if (o.until > 0) {
    std::printf(reached ? "reached held-out accuracy %.4f at step %d\n"
                        : "did not reach held-out accuracy %.4f in %d steps\n",
                o.until, trainer.steps_done());
  }
  std::printf("final held-out accuracy: %.4f (loss %.4f) after %d steps\n", eval.accuracy, eval.loss,
              trainer.steps_done());
  print_heads(trainer.head_scores());
  if (!o.out.empty()) {
    try {
      io::save_model(o.out, io::ModelFile{trainer.config(), trainer.model(), trainer.steps_done()});
    } catch (const io::FormatError& e) {
      throw CliError(e.what());
    }
    std::printf("saved the model to %s\n", o.out.c_str());
  }
  return 0;
}

}  // namespace attn::cli
