// A trace kept for the screen without its large scores (see trace.hpp): each
// head's n×n Q·Kᵀ becomes a MatrixOnDemand that runs row_blocked_product on
// the trace's own Q and K when first read. Its 256-row blocks do not depend
// on the number of threads, and the same Eigen product on the same shapes
// rounds the same way, so the made matrix equals the dropped one bit for bit
// (the test compares every stage of such a copy with the original).
#include <memory>

#include "attn/compute/trace.hpp"
#include "execution/head_pool.hpp"

namespace attn {

Trace with_scores_on_demand(const Trace& trace, std::size_t min_bytes, int keep_head) {
  Trace t = trace;  // stages share their matrices: copying is cheap
  if (t.score != ScoreFn::Dot) return t;  // additive scores: small scenes only
  for (int h = 0; h < t.dims.n_heads; ++h) {
    if (h == keep_head) continue;
    const int at = t.index_of({StageKind::scores, h});
    if (at < 0 || t.stages[static_cast<size_t>(at)].inputs.size() != 2) continue;
    // The Q and K the scores read: rotated ones with RoPE, a shared K with GQA.
    const Stage* q = t.find(t.stages[static_cast<size_t>(at)].inputs[0]);
    const Stage* k = t.find(t.stages[static_cast<size_t>(at)].inputs[1]);
    if (!q || !k) continue;
    StageValues& scores = t.stages[static_cast<size_t>(at)].value;
    const std::size_t bytes = static_cast<std::size_t>(scores.size()) * sizeof(double);
    if (scores.derived() || scores.on_demand() || bytes < min_bytes) continue;
    const std::shared_ptr<const Mat> dropped = scores.shared();
    auto made = std::make_shared<const MatrixOnDemand>(
        scores.rows(), scores.cols(),
        [qm = q->value.shared(), km = k->value.shared()] { return detail::row_blocked_product(*qm, km->transpose(), 0); });
    // The scores, and every stage derived from them (scaled, masked, weights).
    for (Stage& s : t.stages) {
      if (s.value.derived() && !s.value.on_demand() && s.value.shared() == dropped)
        s.value = StageValues(made, s.value.derivation());
    }
    scores = StageValues(made);
  }
  return t;
}

}  // namespace attn
