// `attn train`: trains the tiny attention model on a toy task and prints its
// progress and which heads learned what; with --scenario (or --model) it
// instead writes one layer of a saved model, on a given input, as an
// ordinary scenario file that `attn explain` and the app can open.
#include <memory>

#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "stage_choice.hpp"
#include "train/train_options.hpp"

namespace attn::cli {

void add_train_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Train a tiny attention model on a toy task (--task), or write one layer of a saved model on an input as a "
      "scenario file (--scenario MODEL --input \"A B C\" -o SCENE.json).");
  cmd->add_option("--task", o->task, "copy, reverse, sort, previous-token, induction or key-value");
  cmd->add_option("--vocab", o->vocab, "Content symbols (default 16)")->check(CLI::Range(1, 4096));
  cmd->add_option("--length", o->length, "Length of the random part; pairs for key-value (default 12; key-value: at most vocab/2)")
      ->check(CLI::Range(1, 4096));
  cmd->add_flag("--random-offset", o->random_offset, "Induction: a few filler tokens at random before the first copy and between the copies");
  cmd->add_option("--layers", o->layers, "Attention layers (default 2)")->check(CLI::Range(1, 64));
  cmd->add_option("--heads", o->heads, "Heads per layer (default 4)")->check(CLI::Range(1, 64));
  cmd->add_option("--d-model", o->d_model, "Width of the residual stream (default 64)")->check(CLI::Range(1, 4096));
  cmd->add_option("--positions", o->positions, "learned or sinusoidal (default learned)")
      ->check(CLI::IsMember({"learned", "sinusoidal"}));
  cmd->add_flag("--mlp", o->mlp, "Add a ReLU MLP after each attention layer");
  cmd->add_option("--steps", o->steps, "Training steps, or the most steps with --until (default 1000)")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--batch", o->batch, "Sequences per step (default 64)")->check(CLI::Range(1, 65536));
  cmd->add_option("--lr", o->lr, "Adam's learning rate (default 0.003)")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "Seed of the weights and the data (default 1)");
  cmd->add_option("--until", o->until, "Stop once held-out accuracy reaches this share, e.g. 0.99")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--eval-every", o->eval_every, "Steps between held-out evaluations (default: about 20 lines)")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--threads", o->threads, "Threads for each batch (default: all cores)")->check(CLI::Range(0, 256));
  cmd->add_option("-o,--output", o->out, "Training: save the model here (JSON); export: the scenario file to write");
  cmd->add_option("--scenario,--model", o->model, "A saved model: write one layer as a scenario instead of training");
  cmd->add_option("--input", o->input, "Export: the tokens, space-separated, e.g. \"A B C A B\"");
  cmd->add_option("--layer", o->layer, "Export: which layer, counted from 0 (default 0)")->check(kDecimal);
  cmd->callback([o, &action] {
    if (!o->model.empty()) {
      action = [o] { return run_layer_export(*o); };
    } else {
      action = [o] { return run_training(*o); };
    }
  });
}

}  // namespace attn::cli
