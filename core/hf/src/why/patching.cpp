// Activation patching (attn/hf/why/patching.hpp). The clean run keeps every
// head's output and every layer's input; the corrupted run keeps its inputs,
// so each patched run resumes at the patched layer. Only the two tokens'
// rows of the output head are read for the metric, not the whole vocabulary.
#include "attn/hf/why/patching.hpp"

#include <atomic>
#include <mutex>

#include "attn/execution/parallel.hpp"
#include "attn/execution/progress.hpp"
#include "attn/hf/model_error.hpp"
#include "forward/layer_weights.hpp"
#include "forward/tensor_load.hpp"
#include "why/stream_sources.hpp"

namespace attn::hf {

namespace {

// logit(answer) − logit(wrong) after `position`, from the final state (a
// pass run with final_row kept that row alone).
template <class S>
double metric_of(const ForwardResult<S>& r, const MatX<double>& rows, int position) {
  const Eigen::RowVectorXd h = r.final.row(r.final.rows() == 1 ? 0 : position).template cast<double>();
  return h.dot(rows.row(0)) - h.dot(rows.row(1));
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
  out.clean = metric_of(clean_run, rows, position);
  out.corrupted = metric_of(corrupted_run, rows, position);
  const int columns = site == PatchSite::HeadOutput ? c.n_heads : n;
  out.patched.assign(static_cast<std::size_t>(c.n_layers), std::vector<double>(static_cast<std::size_t>(columns), 0.0));
  out.recovered = out.patched;
  const double gap = out.clean - out.corrupted;
  // The patched runs are independent: they run side by side, each on one
  // thread (a forward at a few hundred tokens is too small to split well
  // over the cores), and a cancel skips the runs not yet started.
  ForwardOptions resume;
  resume.keep_attentions = false;
  resume.max_threads = 1;
  resume.final_row = position;  // the metric reads one row: the last layer computes no other
  const int total = c.n_layers * columns;
  std::atomic<int> done{0};
  std::atomic<bool> cancelled{false};
  std::mutex report;
  const int threads = max_threads > 0 ? max_threads : usable_cores();
  parallel_for(total, threads, 1e12, [&](int item) {
    if (cancelled) return;
    const int l = item / columns, col = item % columns;
    double value = 0;
    if (site == PatchSite::HeadOutput) {
      ForwardOptions o = resume;
      const auto& head_out = clean_run.layers[static_cast<std::size_t>(l)].head_outputs[static_cast<std::size_t>(col)];
      o.patches.push_back({{l, col}, std::make_shared<const Eigen::MatrixXd>(head_out.template cast<double>())});
      value = metric_of(resume_forward<S>(ck, corrupted_run, l, o), rows, position);
    } else {
      // The corrupted stream entering layer l, with the clean row at `col`.
      // (Copy-constructed: GCC 12 warns, wrongly, of a null argument in a
      // vector<int> assigned here.)
      ForwardResult<S> start{corrupted_run.ids, corrupted_run.embeddings, {}, {}, false, 0};
      start.layers.resize(static_cast<std::size_t>(l) + 1);
      MatX<S>& in = start.layers[static_cast<std::size_t>(l)].input;
      in = corrupted_run.layers[static_cast<std::size_t>(l)].input;
      in.row(col) = clean_run.layers[static_cast<std::size_t>(l)].input.row(col);
      value = metric_of(resume_forward<S>(ck, start, l, resume), rows, position);
    }
    out.patched[static_cast<std::size_t>(l)][static_cast<std::size_t>(col)] = value;
    out.recovered[static_cast<std::size_t>(l)][static_cast<std::size_t>(col)] = gap != 0 ? (value - out.corrupted) / gap : 0;
    const int finished = ++done;
    if (progress) {
      const std::lock_guard<std::mutex> lock(report);
      if (!progress(finished, total)) cancelled = true;
    }
  });
  if (cancelled) throw Cancelled();
  return out;
}

template PatchingResult patch_activations<float>(const Checkpoint&, const std::vector<int>&, const std::vector<int>&,
                                                 const PatchMetric&, PatchSite, const std::function<bool(int, int)>&, int);
template PatchingResult patch_activations<double>(const Checkpoint&, const std::vector<int>&, const std::vector<int>&,
                                                  const PatchMetric&, PatchSite, const std::function<bool(int, int)>&, int);

}  // namespace attn::hf
