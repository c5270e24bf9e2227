// Structural scenario edits of shapes (d_model, d_k, d_v, heads, W_O,
// projections, cross-attention), randomising, and the mapping from a stage
// cell to the input it shows. Resizes copy the overlapping block and fill the
// rest from seeded_value(), so an edit never loses the numbers a student typed.
#include "model/document/scenario_edit.hpp"

#include <algorithm>
#include <cmath>

#include "scenario_edit_detail.hpp"

namespace model::edit {
namespace {

std::uint64_t mix(std::uint64_t z) {  // splitmix64 finaliser
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

namespace detail {

using attn::Mat;
using attn::Scenario;

Mat resized(const Mat& m, int rows, int cols, std::uint64_t seed, std::uint64_t tag, double scale) {
  Mat out(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r)
      out(r, c) = (r < m.rows() && c < m.cols()) ? m(r, c)
                                                 : std::round(seeded_value(seed, tag, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c)) * scale * 100) / 100;
  return out;
}

Mat seeded(int rows, int cols, std::uint64_t seed, std::uint64_t tag, double scale) {
  return resized(Mat(0, 0), rows, cols, seed, tag, scale);
}

namespace {

// W_K or W_V resized, unless the head has none: with shared key/value heads
// only a group's first head carries them, and the others stay empty.
Mat resized_kv(const Mat& m, int rows, int cols, std::uint64_t tag, double scale) {
  return m.size() == 0 ? m : resized(m, rows, cols, kFillSeed, tag, scale);
}

}  // namespace

double fan_in_scale(int fan_in) { return 1.0 / std::sqrt(std::max(1, fan_in)); }

int d_ctx(const Scenario& s) { return s.context ? static_cast<int>(s.context->cols()) : d_model(s); }

void reshape_w_o(Scenario& s, int old_heads, int old_dv, int new_heads, int new_dv) {
  if (!s.w_o) return;
  const Mat& old = *s.w_o;
  const int cols = static_cast<int>(old.cols());
  Mat out = seeded(new_heads * new_dv, cols, kFillSeed, kWo, fan_in_scale(new_heads * new_dv));
  for (int h = 0; h < std::min(old_heads, new_heads); ++h)
    for (int r = 0; r < std::min(old_dv, new_dv); ++r)
      if (h * old_dv + r < old.rows()) out.row(h * new_dv + r) = old.row(h * old_dv + r);
  s.w_o = out;
}

}  // namespace detail

using attn::Mat;
using attn::Scenario;
using namespace detail;

int n_tokens(const Scenario& s, Sequence which) {
  if (which == Sequence::Context) return s.context ? static_cast<int>(s.context->rows()) : 0;
  return static_cast<int>(s.x.rows());
}
int d_model(const Scenario& s) { return static_cast<int>(s.x.cols()); }
int d_k(const Scenario& s) { return s.heads.empty() ? d_model(s) : static_cast<int>(s.heads[0].w_q.cols()); }
int d_v(const Scenario& s) { return s.heads.empty() ? d_ctx(s) : static_cast<int>(s.heads[0].w_v.cols()); }
int n_heads(const Scenario& s) { return s.heads.empty() ? 1 : static_cast<int>(s.heads.size()); }
int n_kv_heads(const Scenario& s) { return attn::dims_of(s).n_kv_heads; }
int d_out(const Scenario& s) { return s.w_o ? static_cast<int>(s.w_o->cols()) : n_heads(s) * d_v(s); }

double seeded_value(std::uint64_t seed, std::uint64_t tag, std::uint64_t i, std::uint64_t j) {
  const std::uint64_t h = mix(mix(mix(mix(seed) ^ tag) ^ i) ^ (j * 0x100000001B3ull));
  const double unit = static_cast<double>(h >> 11) / 9007199254740992.0;  // [0, 1)
  return std::round((unit * 2 - 1) * 100) / 100;
}

void set_d_model(Scenario& s, int d) {
  if (d < 1) return;
  const int old_dv = d_v(s);
  s.x = resized(s.x, static_cast<int>(s.x.rows()), d, kFillSeed, kX);
  for (attn::HeadWeights& h : s.heads) {
    h.w_q = resized(h.w_q, d, static_cast<int>(h.w_q.cols()), kFillSeed, kWq, fan_in_scale(d));
    if (!s.context) {
      h.w_k = resized_kv(h.w_k, d, static_cast<int>(h.w_k.cols()), kWk, fan_in_scale(d));
      h.w_v = resized_kv(h.w_v, d, static_cast<int>(h.w_v.cols()), kWv, fan_in_scale(d));
    }
  }
  if (s.heads.empty() && !s.context) reshape_w_o(s, 1, old_dv, 1, d);  // d_v follows d_model without projections
}

void set_d_context(Scenario& s, int d) {
  if (d < 1 || !s.context) return;
  s.context = resized(*s.context, static_cast<int>(s.context->rows()), d, kFillSeed, kContext);
  for (attn::HeadWeights& h : s.heads) {
    h.w_k = resized_kv(h.w_k, d, static_cast<int>(h.w_k.cols()), kWk, fan_in_scale(d));
    h.w_v = resized_kv(h.w_v, d, static_cast<int>(h.w_v.cols()), kWv, fan_in_scale(d));
  }
}

void set_d_k(Scenario& s, int d) {
  if (d < 1 || s.heads.empty()) return;
  for (attn::HeadWeights& h : s.heads) {
    h.w_q = resized(h.w_q, static_cast<int>(h.w_q.rows()), d, kFillSeed, kWq, fan_in_scale(static_cast<int>(h.w_q.rows())));
    h.w_k = resized_kv(h.w_k, static_cast<int>(h.w_k.rows()), d, kWk, fan_in_scale(static_cast<int>(h.w_k.rows())));
  }
  for (attn::AdditiveParams& a : s.additive) {
    a.w = resized(a.w, d, static_cast<int>(a.w.cols()), kFillSeed, kAddW);
    a.u = resized(a.u, d, static_cast<int>(a.u.cols()), kFillSeed, kAddU);
  }
}

void set_d_v(Scenario& s, int d) {
  if (d < 1 || s.heads.empty()) return;
  const int old = d_v(s);
  for (attn::HeadWeights& h : s.heads)
    h.w_v = resized_kv(h.w_v, static_cast<int>(h.w_v.rows()), d, kWv, fan_in_scale(static_cast<int>(h.w_v.rows())));
  reshape_w_o(s, n_heads(s), old, n_heads(s), d);
}

void set_n_heads(Scenario& s, int count) {
  if (count < 1 || s.heads.empty()) return;
  const int old = static_cast<int>(s.heads.size()), dk = d_k(s), dv = d_v(s), dm = d_model(s), dc = d_ctx(s);
  for (int h = old; h < count; ++h) {  // new heads own W_K and W_V until fit_kv_heads shares them
    const std::uint64_t seed = kFillSeed + static_cast<std::uint64_t>(h) * 1000;
    s.heads.push_back({seeded(dm, dk, seed, kWq, fan_in_scale(dm)), seeded(dc, dk, seed, kWk, fan_in_scale(dc)),
                       seeded(dc, dv, seed, kWv, fan_in_scale(dc))});
  }
  s.heads.resize(static_cast<size_t>(count));
  // Shared key/value heads keep their group size when it divides the new
  // count; otherwise every head gets its own again.
  if (s.n_kv_heads > 0) {
    const int group = old / s.n_kv_heads;
    fit_kv_heads(s, count % group == 0 ? count / group : count);
  }
  if (!s.additive.empty()) {
    const attn::AdditiveParams first = s.additive.front();
    s.additive.resize(static_cast<size_t>(count), first);
  }
  reshape_w_o(s, old, dv, count, dv);
}

void fit_kv_heads(Scenario& s, int kv) {
  const int heads = static_cast<int>(s.heads.size());
  if (heads == 0) return;
  kv = std::clamp(kv, 1, heads);
  while (heads % kv != 0) --kv;  // the nearest count below that divides the heads
  s.n_kv_heads = kv == heads ? 0 : kv;
  const int group = heads / kv, dk = d_k(s), dv = d_v(s), dc = d_ctx(s);
  for (int h = 0; h < heads; ++h) {
    attn::HeadWeights& w = s.heads[static_cast<size_t>(h)];
    if (h % group != 0) {
      w.w_k = Mat(), w.w_v = Mat();
      continue;
    }
    const std::uint64_t seed = kFillSeed + static_cast<std::uint64_t>(h) * 1000;
    if (w.w_k.size() == 0) w.w_k = seeded(dc, dk, seed, kWk, fan_in_scale(dc));
    if (w.w_v.size() == 0) w.w_v = seeded(dc, dv, seed, kWv, fan_in_scale(dc));
  }
}

void set_d_out(Scenario& s, int d) {
  if (d < 1) return;
  const int rows = n_heads(s) * d_v(s);
  s.w_o = s.w_o ? resized(*s.w_o, rows, d, kFillSeed, kWo, fan_in_scale(rows)) : seeded(rows, d, kFillSeed, kWo, fan_in_scale(rows));
  if (s.output_bias.size() > 0) {  // b_O follows W_O's columns: kept where they stay, 0 where new
    const attn::Vec old = s.output_bias;
    s.output_bias = attn::Vec::Zero(d);
    s.output_bias.head(std::min<Eigen::Index>(d, old.size())) = old.head(std::min<Eigen::Index>(d, old.size()));
  }
}

void set_projected(Scenario& s, bool on) {
  if (on == !s.heads.empty()) return;
  const int old_dv = d_v(s);
  if (!on) {
    s.heads.clear();
    s.additive.clear();
    s.n_kv_heads = 0;
    if (s.w_o) reshape_w_o(s, 1, old_dv, 1, d_ctx(s));
    return;
  }
  const int dm = d_model(s), dc = d_ctx(s), dk = std::min(dm, 3), dv = std::min(dc, 3);
  s.heads.push_back({seeded(dm, dk, kFillSeed, kWq, fan_in_scale(dm)), seeded(dc, dk, kFillSeed, kWk, fan_in_scale(dc)),
                     seeded(dc, dv, kFillSeed, kWv, fan_in_scale(dc))});
  if (!s.additive.empty()) s.additive.resize(1);
  reshape_w_o(s, 1, old_dv, 1, dv);
}

void set_w_o(Scenario& s, bool on) {
  if (!on) {
    s.w_o.reset();
    s.output_bias.resize(0);  // the bias belongs to W_O
  } else if (!s.w_o) {
    set_d_out(s, n_heads(s) * d_v(s));
  }
}

void set_cross(Scenario& s, bool on, int n) {
  if (on == s.is_cross()) return;
  if (on) {
    s.context = seeded(std::max(1, n), d_model(s), kFillSeed, kContext, 1.0);
  } else {
    s.context.reset();
    s.context_tokens.clear();
    for (attn::HeadWeights& h : s.heads) {
      h.w_k = resized_kv(h.w_k, d_model(s), static_cast<int>(h.w_k.cols()), kWk, fan_in_scale(d_model(s)));
      h.w_v = resized_kv(h.w_v, d_model(s), static_cast<int>(h.w_v.cols()), kWv, fan_in_scale(d_model(s)));
    }
  }
  const int n_k = on ? n_tokens(s, Sequence::Context) : n_tokens(s, Sequence::Queries);
  if (s.custom_mask.size() != 0) s.custom_mask = attn::BoolMat::Constant(s.x.rows(), n_k, false);
  if (!s.key_padding.empty()) s.key_padding.assign(static_cast<size_t>(n_k), false);
}

void randomise(Scenario& s, std::uint64_t seed) {
  s.x = seeded(static_cast<int>(s.x.rows()), d_model(s), seed, kX, 1.0);
  if (s.context) s.context = seeded(static_cast<int>(s.context->rows()), d_ctx(s), seed, kContext, 1.0);
  for (size_t h = 0; h < s.heads.size(); ++h) {
    attn::HeadWeights& w = s.heads[h];
    const std::uint64_t hs = seed * 1315423911ull + h;
    w.w_q = seeded(static_cast<int>(w.w_q.rows()), static_cast<int>(w.w_q.cols()), hs, kWq, fan_in_scale(static_cast<int>(w.w_q.rows())));
    if (w.w_k.size() != 0)  // a head that shares its group's keys and values has none to fill
      w.w_k = seeded(static_cast<int>(w.w_k.rows()), static_cast<int>(w.w_k.cols()), hs, kWk, fan_in_scale(static_cast<int>(w.w_k.rows())));
    if (w.w_v.size() != 0)
      w.w_v = seeded(static_cast<int>(w.w_v.rows()), static_cast<int>(w.w_v.cols()), hs, kWv, fan_in_scale(static_cast<int>(w.w_v.rows())));
  }
  if (s.w_o) s.w_o = seeded(static_cast<int>(s.w_o->rows()), static_cast<int>(s.w_o->cols()), seed, kWo, fan_in_scale(static_cast<int>(s.w_o->rows())));
}

double* editable_value(Scenario& s, const attn::StageRef& stage, int r, int c) {
  Mat* m = nullptr;
  const bool sinusoidal = s.positional == attn::Positional::Sinusoidal;
  using K = attn::StageKind;
  if (stage.id == (sinusoidal ? K::x_raw : K::x)) m = &s.x;
  else if (s.context && stage.id == (sinusoidal ? K::context_raw : K::context)) m = &*s.context;
  else if (stage.id == attn::StageKind::w_o && s.w_o) m = &*s.w_o;
  else if (stage.head >= 0 && stage.head < static_cast<int>(s.heads.size())) {
    attn::HeadWeights& h = s.heads[static_cast<size_t>(stage.head)];
    if (stage.id == attn::StageKind::w_q) m = &h.w_q;
    else if (stage.id == attn::StageKind::w_k) m = &h.w_k;
    else if (stage.id == attn::StageKind::w_v) m = &h.w_v;
  }
  if (!m || r < 0 || c < 0 || r >= m->rows() || c >= m->cols()) return nullptr;
  return &(*m)(r, c);
}

}  // namespace model::edit
