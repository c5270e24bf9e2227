// Splits one score into its dimensions' products and, with RoPE, into each
// rotated pair's term (attn/why/score_split.hpp). The pairs are found with
// the same rope_pair_of and rope_theta the rotation used, so the terms add up
// to the trace's score to rounding.
#include "attn/why/score_split.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/compute/rope.hpp"
#include "attn/compute/score_scale.hpp"

namespace attn {

double RopePairTerm::at_distance(double distance) const {
  return q_norm * k_norm * std::cos(q_phase - k_phase + distance * theta);
}

double RopeSplit::content() const {
  double sum = unrotated;
  for (const RopePairTerm& p : pairs) sum += p.content;
  return sum;
}

double RopeSplit::position() const {
  double sum = 0;
  for (const RopePairTerm& p : pairs) sum += p.position();
  return sum;
}

namespace {

const Stage& stage_at(const Trace& t, const StageRef& ref) {
  const Stage* s = t.find(ref);
  if (!s) throw std::logic_error("split_score: the trace lacks stage " + std::string(name_of(ref.id)));
  return *s;
}

// The stage a rotated one turned: (q, h) behind (q_rope, h).
const Stage& unrotated_of(const Trace& t, const Stage& rotated) {
  if (rotated.inputs.empty()) throw std::logic_error("split_score: a rotated stage without its input");
  return stage_at(t, rotated.inputs.front());
}

RopeSplit split_rope(const Trace& t, const Scenario& s, const Stage& q_rot, const Stage& k_rot, int i, int j) {
  const Stage& q = unrotated_of(t, q_rot);
  const Stage& k = unrotated_of(t, k_rot);
  const int d_k = static_cast<int>(q.value.cols());
  const int r = rope_dims(s.rope, d_k);
  RopeSplit out;
  out.distance = i - j;
  for (int p = 0; p < r / 2; ++p) {
    const int first = s.rope.pairing == RopePairing::Half ? p : 2 * p;
    const RopePair dims = *rope_pair_of(s.rope, d_k, first);
    RopePairTerm term;
    term.pair = p;
    term.dim_a = dims.a;
    term.dim_b = dims.b;
    term.theta = rope_theta(s.rope, r, p);
    const double qa = q.value(i, dims.a), qb = q.value(i, dims.b);
    const double ka = k.value(j, dims.a), kb = k.value(j, dims.b);
    term.q_norm = std::hypot(qa, qb);
    term.k_norm = std::hypot(ka, kb);
    term.q_phase = std::atan2(qb, qa);
    term.k_phase = std::atan2(kb, ka);
    // The content term is the plain dot of the unturned pairs (exact), and
    // the turned term the dot of the pairs as the trace turned them; the
    // polar form above says the same to rounding and gives at_distance.
    term.content = qa * ka + qb * kb;
    term.term = q_rot.value(i, dims.a) * k_rot.value(j, dims.a) + q_rot.value(i, dims.b) * k_rot.value(j, dims.b);
    out.pairs.push_back(term);
  }
  for (int d = r; d < d_k; ++d) out.unrotated += q_rot.value(i, d) * k_rot.value(j, d);
  return out;
}

}  // namespace

ScoreSplit split_score(const Trace& trace, const Scenario& scenario, int head, int query, int key) {
  if (trace.score != ScoreFn::Dot)
    throw std::invalid_argument("additive (Bahdanau) scores are v · tanh(q W + k U), not a sum over dimensions: "
                                "only dot-product scores split");
  const Stage* scores = trace.find(StageKind::scores, head);
  if (!scores) throw std::out_of_range("head " + std::to_string(head) + " does not exist");
  if (query < 0 || query >= scores->value.rows() || key < 0 || key >= scores->value.cols())
    throw std::out_of_range("cell [" + std::to_string(query) + "," + std::to_string(key) + "] is outside the " +
                            std::to_string(scores->value.rows()) + "×" + std::to_string(scores->value.cols()) +
                            " scores");
  const Stage& q = stage_at(trace, scores->inputs.at(0));
  const Stage& k = stage_at(trace, scores->inputs.at(1));
  ScoreSplit out;
  out.head = head;
  out.query = query;
  out.key = key;
  out.key_head = k.head;
  out.score = scores->value(query, key);
  const int d_k = static_cast<int>(q.value.cols());
  out.scale = 1.0 / score_divisor(scenario, d_k);
  for (int d = 0; d < d_k; ++d) {
    const double a = q.value(query, d), b = k.value(key, d);
    out.by_dimension.push_back({d, a, b, a * b});
  }
  std::stable_sort(out.by_dimension.begin(), out.by_dimension.end(),
                   [](const DimensionTerm& a, const DimensionTerm& b) { return std::abs(a.term) > std::abs(b.term); });
  if (q.id == StageKind::q_rope) out.by_rope = split_rope(trace, scenario, q, k, query, key);
  return out;
}

}  // namespace attn
