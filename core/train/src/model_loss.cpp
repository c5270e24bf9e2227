// Batch loss, gradient and accuracy. The batch is cut into contiguous runs
// of sequences, one per part, run on the core's shared threads
// (attn::parallel_for); each part sums its own share and the shares are
// added in part order, so the result only depends on the number of parts
// through rounding, never on which thread ran which part.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/execution/parallel.hpp"
#include "attn/train/model.hpp"
#include "model_pass.hpp"

namespace attn::train {
namespace {

void check_batch(const Model& model, const Batch& batch) {
  const ModelConfig& c = model.config;
  if (batch.size() < 1) throw std::invalid_argument("batch: has no sequences");
  if (batch.tokens.cols() != c.seq_len)
    throw std::invalid_argument("batch: sequences have " + std::to_string(batch.tokens.cols()) +
                                " tokens, the model expects " + std::to_string(c.seq_len));
  if (batch.target.rows() != batch.tokens.rows() || batch.target.cols() != batch.tokens.cols() ||
      batch.scored.rows() != batch.tokens.rows() || batch.scored.cols() != batch.tokens.cols())
    throw std::invalid_argument("batch: tokens, target and scored differ in shape");
  if (batch.tokens.minCoeff() < 0 || batch.tokens.maxCoeff() >= c.vocab || batch.target.minCoeff() < 0 ||
      batch.target.maxCoeff() >= c.vocab)
    throw std::invalid_argument("batch: a token is outside the vocabulary 0.." + std::to_string(c.vocab - 1));
}

int resolve_threads(int requested, int sequences) {
  int n = requested > 0 ? requested : attn::usable_cores();
  return std::clamp(n, 1, sequences);
}

// Runs work(i, first, count) for each part's run of sequences, on at most
// `parts` threads of the shared pool (the caller's included). A part's cost
// is about its sequences' forward and backward products, so parallel_for
// keeps tiny batches on the caller.
template <class Work>
void split_batch(const ModelConfig& c, int sequences, int parts, Work work) {
  auto range = [&](int i) { return std::make_pair(sequences * i / parts, sequences * (i + 1) / parts); };
  const double work_per_part = static_cast<double>(sequences) / parts * c.seq_len * c.d_model * c.d_model * 8.0 *
                               std::max(1, c.n_layers);
  attn::parallel_for(parts, parts, work_per_part, [&](int i) {
    const auto [first, last] = range(i);
    work(i, first, last - first);
  });
}

struct RowResult {
  double loss_sum = 0;  // cross-entropy summed over scored rows, divided by the batch's scored count
  int correct = 0;
};

// Cross-entropy of the scored rows of a chunk; when dlogits is given, fills
// it with d (loss / scored_total) / d logits (zero on unscored rows).
RowResult score_rows(const Mat& logits, const Batch& batch, int first, int nseq, double scored_total,
                     Mat* dlogits) {
  const int T = static_cast<int>(batch.tokens.cols());
  RowResult r;
  if (dlogits) dlogits->setZero(logits.rows(), logits.cols());
  Eigen::RowVectorXd p;
  for (int s = 0; s < nseq; ++s)
    for (int t = 0; t < T; ++t) {
      if (!batch.scored(first + s, t)) continue;
      const int row = s * T + t, target = batch.target(first + s, t);
      Eigen::Index best = 0;
      const double top = logits.row(row).maxCoeff(&best);
      p = (logits.row(row).array() - top).exp().matrix();
      const double total = p.sum();
      r.loss_sum += (std::log(total) - (logits(row, target) - top)) / scored_total;
      if (best == target) ++r.correct;
      if (dlogits) {
        p /= total;
        p(target) -= 1.0;
        dlogits->row(row) = p / scored_total;
      }
    }
  return r;
}

}  // namespace

double loss_and_gradient(const Model& model, const Batch& batch, Model* grad, int threads) {
  check_batch(model, batch);
  if (grad) *grad = zeros_like(model);
  const double scored = static_cast<double>(batch.scored.count());
  if (scored == 0) return 0;
  const int parts = resolve_threads(threads, batch.size());
  const std::vector<Mat> packed = detail::pack_qkv(model);

  struct Share {
    double loss = 0;
    Model grad;
    std::vector<Mat> dqkv;
  };
  std::vector<Share> shares(parts);
  split_batch(model.config, batch.size(), parts, [&](int i, int first, int count) {
    detail::ChunkActivations act;
    detail::forward_chunk(model, packed, batch.tokens, first, count, act);
    Mat dlogits;
    shares[i].loss = score_rows(act.logits, batch, first, count, scored, grad ? &dlogits : nullptr).loss_sum;
    if (!grad) return;
    shares[i].grad = zeros_like(model);
    for (const Mat& w : packed) shares[i].dqkv.push_back(Mat::Zero(w.rows(), w.cols()));
    detail::backward_chunk(model, packed, batch.tokens, first, act, dlogits, shares[i].grad, shares[i].dqkv);
  });

  double loss = 0;
  std::vector<Mat> dqkv;
  for (Share& share : shares) {
    loss += share.loss;
    if (!grad) continue;
    std::vector<NamedParam> into = parameters(*grad), from = parameters(share.grad);
    for (size_t p = 0; p < into.size(); ++p) into[p].value += from[p].value;
    if (dqkv.empty()) dqkv = std::move(share.dqkv);
    else
      for (size_t l = 0; l < dqkv.size(); ++l) dqkv[l] += share.dqkv[l];
  }
  if (grad) detail::unpack_qkv(dqkv, *grad);
  return loss;
}

BatchScore score_batch(const Model& model, const Batch& batch, int threads) {
  check_batch(model, batch);
  const double scored = static_cast<double>(batch.scored.count());
  if (scored == 0) return {};
  const int parts = resolve_threads(threads, batch.size());
  const std::vector<Mat> packed = detail::pack_qkv(model);
  std::vector<RowResult> shares(parts);
  split_batch(model.config, batch.size(), parts, [&](int i, int first, int count) {
    detail::ChunkActivations act;
    detail::forward_chunk(model, packed, batch.tokens, first, count, act);
    shares[i] = score_rows(act.logits, batch, first, count, scored, nullptr);
  });
  BatchScore out;
  int correct = 0;
  for (const RowResult& r : shares) {
    out.loss += r.loss_sum;
    correct += r.correct;
  }
  out.accuracy = correct / scored;
  return out;
}

}  // namespace attn::train
