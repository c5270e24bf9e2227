// Small deterministic scenarios shared by the model-layer tests.
#pragma once

#include <random>
#include <string>

#include "attn/compute/trace.hpp"

namespace test_scenes {

// 3 tokens, d_model 4, one projected head (d_k 2, d_v 3), causal mask.
inline attn::Scenario small_projected() {
  attn::Scenario s;
  s.x.resize(3, 4);
  s.x << 0.1, 0.5, -0.3, 0.8, 0.9, -0.2, 0.4, 0.0, -0.6, 0.3, 0.7, 0.2;
  attn::HeadWeights h;
  h.w_q.resize(4, 2);
  h.w_q << 0.2, -0.5, 0.7, 0.1, -0.3, 0.4, 0.6, 0.9;
  h.w_k.resize(4, 2);
  h.w_k << -0.1, 0.3, 0.5, -0.7, 0.8, 0.2, 0.4, -0.6;
  h.w_v.resize(4, 3);
  h.w_v << 0.3, 0.1, -0.2, 0.5, 0.6, 0.4, -0.7, 0.2, 0.9, 0.1, -0.4, 0.3;
  s.heads.push_back(h);
  s.mask = attn::MaskKind::Causal;
  return s;
}

// The largest difference between a trace and a fresh full one, and where.
inline std::string differs_from_fresh(const attn::Trace& t, const attn::Scenario& s) {
  const attn::Trace fresh = attn::compute_trace(s);
  if (t.stages.size() != fresh.stages.size()) return "stage count differs";
  for (size_t k = 0; k < t.stages.size(); ++k) {
    const attn::Mat a = t.stages[k].value.dense(), b = fresh.stages[k].value.dense();
    if (a.rows() != b.rows() || a.cols() != b.cols()) return attn::to_string(fresh.stages[k].id) + ": shape differs";
    const double worst = a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0;
    if (worst > 1e-12 || a.hasNaN() != b.hasNaN())
      return attn::to_string(fresh.stages[k].id) + " head " + std::to_string(fresh.stages[k].head) + " differs by " + std::to_string(worst);
  }
  return "";
}

// Random causal self-attention; the default is a few milliseconds of work,
// so edits overlap the worker.
inline attn::Scenario big_scene(int tokens = 96, int d_model = 32, int heads = 4, int d_k = 16, unsigned seed = 3) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n;
  attn::Scenario s;
  s.x.resize(tokens, d_model);
  for (Eigen::Index i = 0; i < s.x.size(); ++i) s.x.data()[i] = n(rng);
  for (int h = 0; h < heads; ++h) {
    attn::HeadWeights w{attn::Mat(d_model, d_k), attn::Mat(d_model, d_k), attn::Mat(d_model, d_k)};
    for (attn::Mat* m : {&w.w_q, &w.w_k, &w.w_v})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = n(rng) * 0.3;
    s.heads.push_back(w);
  }
  s.mask = attn::MaskKind::Causal;
  return s;
}

}  // namespace test_scenes
