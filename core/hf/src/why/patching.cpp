// Activation patching (attn/hf/why/patching.hpp). The clean run keeps every
// head's output and every layer's input; the corrupted run keeps its inputs,
// so each patched run resumes at the patched layer, with the others of its
// layer in one batch. Only the two tokens' rows of the output head are read
// for the metric, not the whole vocabulary.
#include "attn/hf/why/patching.hpp"

#include <algorithm>

#include "attn/execution/progress.hpp"
#include "attn/hf/model_error.hpp"
#include "forward/block_math.hpp"
#include "forward/layer_weights.hpp"
#include "forward/tensor_load.hpp"
#include "why/stream_sources.hpp"

namespace attn::hf {

namespace {

constexpr int kBatchRows = 2048;  // rows of the stacked runs a batch holds (each pass's tokens)

// logit(answer) − logit(wrong) from a final state's row, each logit as the
// model gives it (Gemma 2's capped); `rows` holds the two tokens' rows of
// the output head.
double logit_difference(const ModelConfig& c, const Eigen::RowVectorXd& h, const MatX<double>& rows) {
  return detail::capped_logit(c, h.dot(rows.row(0))) - detail::capped_logit(c, h.dot(rows.row(1)));
}

template <class S>
double metric_of(const ModelConfig& c, const ForwardResult<S>& r, const MatX<double>& rows, int position) {
  return logit_difference(c, r.final.row(position).template cast<double>(), rows);
}

}  // namespace

template <class S>
PatchingResult patch_activations(const Checkpoint& ck, const std::vector<int>& clean, const std::vector<int>& corrupted,
                                 const PatchMetric& metric, PatchSite site,
                                 const std::function<bool(int, int)>& progress, int max_threads) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head, so no logit difference to patch");
  if (clean.size() != corrupted.size())
    throw ModelError("the clean prompt has " + std::to_string(clean.size()) + " tokens and the corrupted one " +
                     std::to_string(corrupted.size()) + ": patching needs prompts of the same length");
  const int n = static_cast<int>(clean.size());
  const int position = metric.position < 0 ? n - 1 : metric.position;
  detail::check_index("position", position, n);
  for (int token : {metric.answer, metric.wrong})
    if (token < -1 || token >= c.vocab)
      throw ModelError("token " + std::to_string(token) + " is outside the vocabulary 0.." + std::to_string(c.vocab - 1));

  ForwardOptions keep;
  keep.keep_attentions = false;
  keep.keep_details = site == PatchSite::HeadOutput;  // the heads' outputs
  keep.keep_inputs = true;
  keep.max_threads = max_threads;
  const ForwardResult<S> clean_run = run_forward<S>(ck, clean, keep);
  ForwardOptions inputs = keep;
  inputs.keep_details = false;
  const ForwardResult<S> corrupted_run = run_forward<S>(ck, corrupted, inputs);

  PatchingResult out;
  // A token left to the runs: the clean run's top guess, the corrupted run's.
  const auto top_guess = [&](const ForwardResult<S>& r) {
    return top_predictions(logits_at(ck, r, position), 1).front().id;
  };
  out.answer = metric.answer >= 0 ? metric.answer : top_guess(clean_run);
  out.wrong = metric.wrong >= 0 ? metric.wrong : top_guess(corrupted_run);
  if (out.answer == out.wrong)
    throw ModelError("the right and the wrong token are both token " + std::to_string(out.answer) +
                     ", so their logit difference is 0: choose two tokens");
  const MatX<double> rows = detail::load_rows<double>(e.lm_head, c.d_model, {out.answer, out.wrong});
  out.clean = metric_of(c, clean_run, rows, position);
  out.corrupted = metric_of(c, corrupted_run, rows, position);
  const int columns = site == PatchSite::HeadOutput ? c.n_heads : n;
  out.patched.assign(static_cast<std::size_t>(c.n_layers), std::vector<double>(static_cast<std::size_t>(columns), 0.0));
  out.recovered = out.patched;
  const double gap = out.clean - out.corrupted;
  // The patched runs of one layer go together, a batch at a time: their
  // rows stacked, every weight is read and packed once for the batch, and
  // the products are large enough to split over the cores (one run a core
  // took 10.8 s for GPT-2 small's 144 heads). A cancel stops between batches.
  ForwardOptions resume;
  resume.keep_attentions = false;
  resume.max_threads = max_threads;
  resume.final_row = position;  // the metric reads one row: the last layer computes no other
  const int total = c.n_layers * columns;
  const int per_batch = std::max(1, kBatchRows / n);
  int done = 0;
  for (int l = 0; l < c.n_layers; ++l) {
    const LayerRecord<S>& clean_layer = clean_run.layers[static_cast<std::size_t>(l)];
    const MatX<S>& corrupted_in = corrupted_run.layers[static_cast<std::size_t>(l)].input;
    for (int first = 0; first < columns; first += per_batch) {
      const int count = std::min(per_batch, columns - first);
      std::vector<MatX<S>> inputs;
      std::vector<std::vector<HeadPatch>> patches(static_cast<std::size_t>(count));
      for (int b = 0; b < count; ++b) {
        const int col = first + b;
        inputs.push_back(corrupted_in);
        if (site == PatchSite::HeadOutput)
          patches[static_cast<std::size_t>(b)].push_back(
              {{l, col},
               std::make_shared<const Eigen::MatrixXd>(clean_layer.head_outputs[static_cast<std::size_t>(col)].template cast<double>())});
        else  // the corrupted stream entering layer l, with the clean row at `col`
          inputs.back().row(col) = clean_layer.input.row(col);
      }
      const std::vector<MatX<S>> finals = resume_forward_batch<S>(ck, corrupted, l, inputs, patches, resume);
      for (int b = 0; b < count; ++b) {
        const double value = logit_difference(c, finals[static_cast<std::size_t>(b)].row(0).template cast<double>(), rows);
        const std::size_t at = static_cast<std::size_t>(first + b);
        out.patched[static_cast<std::size_t>(l)][at] = value;
        out.recovered[static_cast<std::size_t>(l)][at] = gap != 0 ? (value - out.corrupted) / gap : 0;
      }
      done += count;
      if (progress && !progress(done, total)) throw Cancelled();
    }
  }
  return out;
}

template PatchingResult patch_activations<float>(const Checkpoint&, const std::vector<int>&, const std::vector<int>&,
                                                 const PatchMetric&, PatchSite, const std::function<bool(int, int)>&, int);
template PatchingResult patch_activations<double>(const Checkpoint&, const std::vector<int>&, const std::vector<int>&,
                                                  const PatchMetric&, PatchSite, const std::function<bool(int, int)>&, int);

}  // namespace attn::hf
