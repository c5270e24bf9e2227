#pragma once
// A checkpoint's forward pass on a list of token ids, keeping every layer's
// attention weights: what the overview draws, what a head's scene is cut
// from, and what `attn model attention` writes. Computed in float (fast, what
// the app shows) or double (what the tests compare to PyTorch at 1e-9).
#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"

namespace attn::hf {

template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
// A head's attention weights, (queries, keys), row-major: each query's
// softmax is computed over its contiguous row and kept as it is, with no
// transposing copy (600 MB of them for GPT-2 at 1024 tokens).
template <class S>
using AttentionMap = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class AblationMode {
  Zero,  // the head's output (weights x V) becomes 0
  Mean,  // each position gets the head's mean output over the sequence
};

struct HeadRef {
  int layer = 0, head = 0;
  bool operator==(const HeadRef& o) const { return layer == o.layer && head == o.head; }
  bool operator<(const HeadRef& o) const { return layer != o.layer ? layer < o.layer : head < o.head; }
};

// A head's output (weights x V, (n, head_dim)) replaced by given values:
// activation patching puts a clean run's output into a corrupted run.
struct HeadPatch {
  HeadRef head;
  std::shared_ptr<const Eigen::MatrixXd> output;
};

struct ForwardOptions {
  std::vector<HeadRef> heads_off;
  std::vector<HeadPatch> patches;  // applied after any switch-off
  AblationMode mode = AblationMode::Zero;
  bool keep_attentions = true;  // every layer's [head] (n, n) weights
  bool keep_details = false;    // every layer's input, head outputs, outputs (tests, scenes)
  int max_threads = 0;          // 0: every CPU this process may use
  // Stop once this layer is done (a layer's scene needs nothing after it);
  // `final` is then left empty. -1: run every layer.
  int stop_after_layer = -1;
  // With keep_details and stop_after_layer: only that layer's details (all
  // a layer's scene reads); the layers before it keep none. At 1,001 tokens
  // GPT-2's details are 30 MB a layer.
  bool details_of_last_layer_only = false;
  // Each layer's `input` (the residual stream entering it) without the other
  // details: what resume_forward starts a later pass from. n x d_model
  // numbers a layer (GPT-2 at 1,024 tokens: 3 MB a layer in float32).
  bool keep_inputs = false;
  // Only this position's final state is wanted (a causal, pre-norm model's
  // next-token guess there): the last layer then computes its queries,
  // outputs and MLP for that row alone, keys and values for the rows it may
  // see, and `final` holds that one row. Its attentions, if kept, are that
  // row's. Ignored with details, where a head of the last layer is switched
  // off (a mean needs every row), or where the model is not causal and
  // pre-norm. -1: every row.
  int final_row = -1;
  // After each layer, with the number done; returning false cancels (the
  // result then has cancelled = true and only the layers done).
  std::function<bool(int layers_done)> progress;
};

template <class S>
struct LayerRecord {
  std::vector<AttentionMap<S>> attentions;  // [head] (n, n), masked entries exactly 0
  MatX<S> input;                      // the residual stream entering the layer (details)
  MatX<S> attn_input;                 // after the pre-norm; BERT: the input itself (details)
  std::vector<MatX<S>> head_outputs;  // [head] (n, head_dim), after any switch-off (details)
  MatX<S> attn_output;                // after W_O and its bias (details)
  MatX<S> output;                     // the layer's output (details)
};

template <class S>
struct ForwardResult {
  std::vector<int> ids;
  MatX<S> embeddings;  // (n, d): what enters layer 0
  std::vector<LayerRecord<S>> layers;
  MatX<S> final;  // (n, d) after the final norm (BERT: the last layer's output); (1, d) with final_row
  bool cancelled = false;
  // The first layer this pass computed: 0, or where resume_forward started
  // it (the records before it are empty; the earlier pass holds them).
  int first_layer = 0;
};

// Throws ModelError for ids outside the vocabulary, more tokens than the
// model has positions for, no tokens, or a head to switch off that does not
// exist; and for any tensor the family needs that is missing or malformed.
template <class S>
ForwardResult<S> run_forward(const Checkpoint& ck, const std::vector<int>& ids, const ForwardOptions& options = {});

// Given each layer's record as soon as it is done, before the result keeps
// it: a sink that empties the record (its attentions, say) keeps memory at
// one layer's worth however many layers the model has.
template <class S>
using LayerSink = std::function<void(int layer, LayerRecord<S>& record)>;
template <class S>
ForwardResult<S> run_forward(const Checkpoint& ck, const std::vector<int>& ids, const ForwardOptions& options,
                             const LayerSink<S>& sink);

// The same pass as run_forward on `earlier.ids`, started at `layer` from
// the residual stream `earlier` kept entering it (keep_inputs or details)
// instead of from the embeddings: every layer before it is unchanged by
// `options.heads_off` when none of those heads lies before `layer`, so the
// numbers are bit for bit those of a pass from the start. The layers before
// `layer` are left as empty records; `embeddings` is copied. Throws
// ModelError when `earlier` kept no input at `layer` or a head to switch off
// lies before it.
template <class S>
ForwardResult<S> resume_forward(const Checkpoint& ck, const ForwardResult<S>& earlier, int layer,
                                const ForwardOptions& options, const LayerSink<S>& sink = {});

// Several passes on `ids` resumed together at `layer`, pass b from
// inputs[b] (the stream entering `layer`, n x d_model) with patches[b]
// (at `layer` or later) and the options' switched-off heads: every product
// runs on the passes' rows stacked, so each weight is read and packed once
// for all of them, and attention runs within each pass. Returns each pass's
// final state (with final_row, that row alone), numbers equal to
// resume_forward's up to the order of sums. Nothing per layer is kept:
// keep_* and stop_after_layer are refused, as are patches before `layer`.
template <class S>
std::vector<MatX<S>> resume_forward_batch(const Checkpoint& ck, const std::vector<int>& ids, int layer,
                                          const std::vector<MatX<S>>& inputs,
                                          const std::vector<std::vector<HeadPatch>>& patches,
                                          const ForwardOptions& options);

// The next-token logits at `position` (causal families): the final hidden
// state times the output embedding, read from the mapping row by row.
// The next-token logits at every position, (n, vocab): the output head
// converted a block of rows at a time and multiplied with every position
// at once. Throws ModelError for a family without a next-token head, or
// non-finite logits.
template <class S>
MatX<S> all_logits(const Checkpoint& ck, const ForwardResult<S>& r);
// The same for any hidden states (n, d_model) already through the final norm:
// the logit lens runs each layer's residual stream through it.
template <class S>
MatX<S> logits_of(const Checkpoint& ck, const MatX<S>& hidden);

// Every tensor the forward reads, found with its dtype and shape checked,
// without running it: `attn model info` and opening a model refuse a folder
// with a missing or misshapen tensor at once. Throws ModelError naming it.
void check_tensors(const Checkpoint& ck);

template <class S>
std::vector<S> logits_at(const Checkpoint& ck, const ForwardResult<S>& r, int position);

struct Prediction {
  int id = 0;
  double probability = 0;
};
// The k most probable ids under the softmax of `logits`, most probable first.
template <class S>
std::vector<Prediction> top_predictions(const std::vector<S>& logits, int k);

// The precision a forward pass computes in, as the screen names it.
template <class S>
constexpr const char* precision_name() {
  return sizeof(S) == sizeof(float) ? "float32" : "float64";
}

// How far the float32 pass's attention weights may be from a float64 run's
// (absolute; weights lie in [0, 1]), and its next-token probabilities, on
// the tiny fixtures tests/hf holds to it. Not a promise for every model and
// text: the Model view states the gap it measures (precision_gap.hpp).
constexpr double kFloatWeightsAgreement = 1e-4;

}  // namespace attn::hf
