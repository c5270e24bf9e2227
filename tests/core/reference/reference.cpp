// Assembles the reference trace from the spec: inputs (with optional
// sinusoidal encoding), per-head projections, scores, scaling, ALiBi, the two
// mask modes, softmax on either axis, head outputs, concat and W_O.
#include "reference.hpp"

#include <cmath>
#include <limits>

#include "reference_ops.hpp"

namespace ref {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::vector<double> ones(int n) { return std::vector<double>(static_cast<size_t>(n), 1.0); }

std::vector<double> vector_from_eigen(const attn::Vec& v) {
  std::vector<double> out(static_cast<size_t>(v.size()));
  for (int i = 0; i < v.size(); ++i) out[static_cast<size_t>(i)] = v(i);
  return out;
}

// Adds the x / context stages, with the raw input and encoding when sinusoidal.
RMat input_stages(RefTrace& t, const attn::Mat& raw_in, bool sinus, const std::string& name,
                  const std::string& pe_name) {
  RMat raw = from_eigen(raw_in);
  if (!sinus) {
    t.stages.push_back({name, -1, raw});
    return raw;
  }
  const RMat pe = sinusoidal(rows_of(raw), cols_of(raw));
  const RMat with_pe = add(raw, pe);
  t.stages.push_back({name + "_raw", -1, raw});
  t.stages.push_back({pe_name, -1, pe});
  t.stages.push_back({name, -1, with_pe});
  return with_pe;
}

RMat scores_for_head(const attn::Scenario& s, int h, const RMat& q, const RMat& k) {
  if (s.score == attn::ScoreFn::Dot) return matmul(q, transpose(k));
  if (s.additive.empty()) {
    const int d_k = cols_of(q);
    return additive_scores(q, k, identity(d_k), identity(d_k), ones(d_k));
  }
  const auto& p = s.additive[static_cast<size_t>(h)];
  return additive_scores(q, k, from_eigen(p.w), from_eigen(p.u), vector_from_eigen(p.v));
}

RMat divide_scores(const attn::Scenario& s, const RMat& scores, int d_k) {
  switch (s.scale) {
    case attn::ScaleMode::SqrtDk: return scale(scores, 1.0 / std::sqrt(static_cast<double>(d_k)));
    case attn::ScaleMode::Temperature: return scale(scores, 1.0 / s.temperature);
    case attn::ScaleMode::None: break;
  }
  return scores;
}

// Divided, then capped as Gemma 2 writes it: c · tanh(x / c).
RMat scale_scores(const attn::Scenario& s, const RMat& scores, int d_k) {
  RMat out = divide_scores(s, scores, d_k);
  if (s.softcap > 0)
    for (auto& row : out)
      for (double& v : row) v = s.softcap * std::tanh(v / s.softcap);
  return out;
}

}  // namespace

const RefStage* RefTrace::find(const std::string& id, int head) const {
  for (const auto& st : stages)
    if (st.id == id && st.head == head) return &st;
  return nullptr;
}

RefTrace reference_trace(const attn::Scenario& s) {
  RefTrace t;
  const bool sinus = s.positional == attn::Positional::Sinusoidal;
  const RMat x = input_stages(t, s.x, sinus, "x", "pe");
  const RMat c = s.context ? input_stages(t, *s.context, sinus, "context", "pe_context") : x;

  const int n_q = rows_of(x), n_k = rows_of(c);
  const bool projected = !s.heads.empty();
  const int n_heads = projected ? static_cast<int>(s.heads.size()) : 1;
  const bool after = s.mask_mode == attn::MaskMode::AfterSoftmax;
  t.blocked = blocked_cells(s, n_q, n_k);
  t.fully_masked = fully_blocked_lines(t.blocked, s.softmax_axis);

  RMat concat;
  // Grouped-query attention: query head h uses the keys and values of head
  // h − h mod group (computed there, once); the others have none of their own.
  const int group = s.n_kv_heads > 0 ? n_heads / s.n_kv_heads : 1;
  RMat group_k, group_v;
  for (int h = 0; h < n_heads; ++h) {
    const bool own = h % group == 0;
    RMat q = x, k = c, v = c;
    if (projected) {
      const auto& hw = s.heads[static_cast<size_t>(h)];
      const RMat w_q = from_eigen(hw.w_q);
      t.stages.push_back({"w_q", h, w_q});
      q = matmul(x, w_q);  // (n_q, d_k)
      if (own) {
        const RMat w_k = from_eigen(hw.w_k), w_v = from_eigen(hw.w_v);
        t.stages.push_back({"w_k", h, w_k});
        t.stages.push_back({"w_v", h, w_v});
        k = matmul(c, w_k);  // (n_k, d_k)
        v = matmul(c, w_v);  // (n_k, d_v)
      }
    }
    t.stages.push_back({"q", h, q});
    if (own) {
      t.stages.push_back({"k", h, k});
      t.stages.push_back({"v", h, v});
    }
    if (s.rope.on) {
      q = rotary(q, s.rope);
      t.stages.push_back({"q_rope", h, q});
      if (own) {
        k = rotary(k, s.rope);
        t.stages.push_back({"k_rope", h, k});
      }
    }
    if (own) group_k = k, group_v = v;
    k = group_k, v = group_v;

    const RMat scores = scores_for_head(s, h, q, k);  // (n_q, n_k)
    t.stages.push_back({"scores", h, scores});
    RMat logits = scale_scores(s, scores, cols_of(q));
    t.stages.push_back({"scaled", h, logits});
    if (s.positional == attn::Positional::Alibi) {
      const RMat bias = alibi_bias(n_q, n_k, h, n_heads);
      t.stages.push_back({"alibi", h, bias});
      logits = add(logits, bias);
      t.stages.push_back({"biased", h, logits});
    }

    RMat weights;
    if (after) {
      // The mistake on show: softmax ignores the mask, then blocked cells are
      // zeroed and the row is not renormalised.
      t.stages.push_back({"masked", h, logits});
      const RMat full = softmax(logits, s.softmax_axis);
      t.stages.push_back({"softmax", h, full});
      weights = fill_blocked(full, t.blocked, 0.0);
    } else {
      const RMat masked = fill_blocked(logits, t.blocked, kNegInf);
      t.stages.push_back({"masked", h, masked});
      weights = softmax(masked, s.softmax_axis);
    }
    t.stages.push_back({"weights", h, weights});
    const RMat head_output = matmul(weights, v);  // (n_q, d_v)
    t.stages.push_back({"head_output", h, head_output});
    concat = hconcat(concat, head_output);
  }

  t.stages.push_back({"concat", -1, concat});
  if (s.w_o) {
    const RMat w_o = from_eigen(*s.w_o);
    t.stages.push_back({"w_o", -1, w_o});
    RMat output = matmul(concat, w_o);
    for (std::size_t i = 0; i < output.size(); ++i)  // plus b_O, entry by entry
      for (Eigen::Index c = 0; c < s.output_bias.size(); ++c) output[i][static_cast<std::size_t>(c)] += s.output_bias(c);
    t.stages.push_back({"output", -1, output});
  } else {
    t.stages.push_back({"output", -1, concat});
  }
  return t;
}

}  // namespace ref
