// The logit lens (attn/hf/forward/logit_lens.hpp). Every depth's stream goes
// through the family's final norm, and all of them are stacked into one
// matrix, so the output head is converted and multiplied once, a block of
// vocabulary rows at a time on every core, rather than once per depth (at
// GPT-2 small's 50257 x 768 that halves the time). The softmax over the
// vocabulary is taken online, as FlashAttention takes its rows: each block
// keeps each cell's max, its sum of exp(logit - max) and its own top k, and
// the blocks are merged at the end, so no (cells x vocab) matrix is kept.
#include "attn/hf/forward/logit_lens.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/execution/parallel.hpp"
#include "attn/execution/progress.hpp"
#include "attn/hf/model_error.hpp"
#include "forward/attention_input.hpp"
#include "forward/block_math.hpp"
#include "forward/layer_weights.hpp"
#include "forward/tensor_load.hpp"

namespace attn::hf {

using detail::RowX;

// Named, not anonymous: a lambda of the exported template captures these
// types (GCC's -Wsubobject-linkage).
namespace lens_detail {

constexpr int kVocabBlock = 256;  // output-head rows converted and multiplied together
constexpr int kBlocksPerStep = 16;  // blocks between two progress reports

struct Candidate {
  double logit = 0;
  int id = 0;
};

// The softmax's order: higher logit first, then lower id (as top_predictions).
bool before(const Candidate& a, const Candidate& b) { return a.logit != b.logit ? a.logit > b.logit : a.id < b.id; }

// One vocabulary block's view of every cell.
struct BlockSummary {
  std::vector<double> max, sum;  // per cell: the block's largest logit, Σ exp(logit − max)
  std::vector<Candidate> top;    // per cell: its k best, k a cell
};

template <class S>
MatX<S> stacked_streams(const Checkpoint& ck, const ForwardResult<S>& r) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  RowX<S> norm_w, norm_b;
  if (e.final_norm_w.info) norm_w = detail::load_vector<S>(e.final_norm_w);
  if (e.final_norm_b.info) norm_b = detail::load_vector<S>(e.final_norm_b);
  const Eigen::Index n = r.final.rows();
  MatX<S> hidden((c.n_layers + 1) * n, c.d_model);
  for (int row = 0; row <= c.n_layers; ++row) {
    // The stream at this depth through the final norm; the last row already is.
    if (row == c.n_layers) {
      hidden.middleRows(row * n, n) = r.final;
    } else {
      const MatX<S>& stream = row == 0 ? r.embeddings : r.layers[static_cast<std::size_t>(row)].input;
      hidden.middleRows(row * n, n) = e.final_norm_w.info ? detail::family_norm<S>(c, stream, norm_w, norm_b) : stream;
    }
  }
  return hidden;
}

template <class S>
BlockSummary summarise_block(const Checkpoint& ck, const TensorRef& head_tensor, const MatX<S>& hidden,
                             int block, int k) {
  const ModelConfig& c = ck.config();
  const int v0 = block * kVocabBlock, rows = std::min(kVocabBlock, c.vocab - v0);
  Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> head(rows, c.d_model);
  detail::convert_elements(head_tensor, static_cast<std::size_t>(v0) * c.d_model,
                           static_cast<std::size_t>(rows) * c.d_model, head.data());
  // (rows, cells): each cell's logits a contiguous column, which the max,
  // the exponentials and the scan below read in order (its rows, strided
  // by the number of cells, made the scan twice as slow as the product).
  MatX<S> logits = head * hidden.transpose();
  if (c.final_softcap > 0) logits = logits.unaryExpr([&](S l) { return detail::capped_logit(c, l); });
  if (!logits.allFinite())
    throw ModelError("the next-token scores are not finite: the output head's weights hold NaN or infinity");
  const auto cells = static_cast<std::size_t>(hidden.rows());
  BlockSummary s;
  s.max.resize(cells);
  s.sum.resize(cells);
  s.top.resize(cells * static_cast<std::size_t>(k));
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const auto line = logits.col(static_cast<Eigen::Index>(cell));
    const S top = line.maxCoeff();
    s.max[cell] = static_cast<double>(top);
    s.sum[cell] = static_cast<double>((line.array() - top).exp().template cast<double>().sum());
    // The k best by insertion: most logits fall below the k-th best so far
    // and cost one comparison (a partial sort of every row was a third of the time).
    // The ids rise along the block, so a logit equal to the k-th best's
    // comes after it: one float comparison rejects it, as it does anything lower.
    Candidate* best = &s.top[cell * static_cast<std::size_t>(k)];
    std::fill(best, best + k, Candidate{-INFINITY, -1});
    S floor = -std::numeric_limits<S>::infinity();
    for (int j = 0; j < rows; ++j) {
      if (line(j) <= floor) continue;
      const Candidate cand{static_cast<double>(line(j)), v0 + j};
      int at = k - 1;
      while (at > 0 && before(cand, best[at - 1])) {
        best[at] = best[at - 1];
        --at;
      }
      best[at] = cand;
      floor = static_cast<S>(best[k - 1].logit);
    }
  }
  return s;
}

}  // namespace lens_detail

using namespace lens_detail;

template <class S>
LogitLens logit_lens(const Checkpoint& ck, const ForwardResult<S>& r, int top_k,
                     const std::function<bool(int, int)>& progress) {
  const ModelConfig& c = ck.config();
  const detail::EmbeddingTensors e = detail::embedding_tensors(ck);
  if (!e.lm_head.info) throw ModelError(c.family_name() + " has no next-token head, so it has no logit lens");
  if (static_cast<int>(r.layers.size()) != c.n_layers || r.final.rows() == 0)
    throw ModelError("the logit lens needs a forward pass through every layer");
  for (int l = 1; l < c.n_layers; ++l)
    if (r.layers[static_cast<std::size_t>(l)].input.rows() == 0)
      throw ModelError("the forward pass kept no residual stream entering layer " + std::to_string(l));
  const int k = std::clamp(top_k, 1, c.vocab);
  const MatX<S> hidden = stacked_streams(ck, r);
  const int blocks = (c.vocab + kVocabBlock - 1) / kVocabBlock;
  std::vector<BlockSummary> summaries(static_cast<std::size_t>(blocks));
  for (int first = 0; first < blocks; first += kBlocksPerStep) {
    const int count = std::min(kBlocksPerStep, blocks - first);
    parallel_for(count, count, static_cast<double>(kVocabBlock) * c.d_model * static_cast<double>(hidden.rows()),
                 [&](int i) {
                   summaries[static_cast<std::size_t>(first + i)] = summarise_block(ck, e.lm_head, hidden, first + i, k);
                 });
    ck.check_unchanged();
    if (progress && !progress(first + count, blocks)) throw Cancelled();
  }
  // Each cell: the blocks' sums brought to one max, and the best of their candidates.
  const Eigen::Index n = r.final.rows();
  LogitLens lens;
  std::vector<Candidate> merged;
  for (int row = 0; row <= c.n_layers; ++row) {
    lens.row_names.push_back(row == 0 ? std::string("embeddings") : "after layer " + std::to_string(row - 1));
    std::vector<std::vector<Prediction>> guesses;
    for (Eigen::Index t = 0; t < n; ++t) {
      const auto cell = static_cast<std::size_t>(row * n + t);
      double top = -INFINITY;
      for (const BlockSummary& s : summaries) top = std::max(top, s.max[cell]);
      double sum = 0;
      merged.clear();
      for (const BlockSummary& s : summaries) {
        sum += s.sum[cell] * std::exp(s.max[cell] - top);
        for (int j = 0; j < k; ++j) {
          const Candidate& cand = s.top[cell * static_cast<std::size_t>(k) + static_cast<std::size_t>(j)];
          if (cand.id >= 0) merged.push_back(cand);
        }
      }
      const auto kk = std::min(merged.size(), static_cast<std::size_t>(k));
      std::partial_sort(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(kk), merged.end(), before);
      std::vector<Prediction> cell_top;
      for (std::size_t j = 0; j < kk; ++j) cell_top.push_back({merged[j].id, std::exp(merged[j].logit - top) / sum});
      guesses.push_back(std::move(cell_top));
    }
    lens.top.push_back(std::move(guesses));
  }
  return lens;
}

template LogitLens logit_lens<float>(const Checkpoint&, const ForwardResult<float>&, int,
                                     const std::function<bool(int, int)>&);
template LogitLens logit_lens<double>(const Checkpoint&, const ForwardResult<double>&, int,
                                      const std::function<bool(int, int)>&);

}  // namespace attn::hf
