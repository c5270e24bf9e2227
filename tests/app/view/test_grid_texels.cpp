// The large-grid path's texels must show what the per-cell path shows: for
// every cell, the masked look or the LUT entry of coordinate(), whatever the
// colour options, mask mode and thread count. (lut_texels has its own
// vectorisable loop for linear scales; this is what keeps it honest.)
#include <doctest/doctest.h>

#include <random>
#include <sstream>

#include "model/colour/grid_texels.hpp"

namespace {

attn::Scenario texel_scene(int variant) {
  std::mt19937 rng(11 + variant);
  std::normal_distribution<double> n;
  attn::Scenario s;
  s.x.resize(70, 12);  // 70×70 scores: past kTextureThreshold
  for (Eigen::Index i = 0; i < s.x.size(); ++i) s.x.data()[i] = n(rng);
  for (int h = 0; h < 2; ++h) {
    attn::HeadWeights w{attn::Mat(12, 6), attn::Mat(12, 6), attn::Mat(12, 6)};
    for (attn::Mat* m : {&w.w_q, &w.w_k, &w.w_v})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = n(rng) * (h == 0 ? 0.4 : 2.5);  // mild and peaked
    s.heads.push_back(w);
  }
  if (variant == 0) s.mask = attn::MaskKind::Causal;
  if (variant == 1) {  // padding, applied after the softmax: blocked weights are zeroed, the logits keep their colours
    s.key_padding.assign(70, false);
    for (int k = 60; k < 70; ++k) s.key_padding[static_cast<size_t>(k)] = true;
    s.mask_mode = attn::MaskMode::AfterSoftmax;
  }
  if (variant == 2) {  // a bias on the logits, no mask
    s.positional = attn::Positional::Alibi;
  }
  return s;
}

// "" when every cell's texel is the per-cell path's; else the first difference.
std::string differs_from_cells(const attn::Stage& st, const model::ColourScale& scale, const std::vector<std::uint16_t>& t) {
  const int rows = static_cast<int>(st.value.rows()), cols = static_cast<int>(st.value.cols());
  if (t.size() != static_cast<size_t>(rows) * static_cast<size_t>(cols)) return "wrong size";
  int differing = 0;
  std::ostringstream first;
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) {
      const double v = st.value(r, c);
      const std::uint16_t want = model::masked_look(st, r, c, v) ? 0 : model::lut_texel(model::coordinate(scale, r, v));
      const std::uint16_t got = t[static_cast<size_t>(c) * rows + r];
      if (got != want && differing++ == 0)
        first << "cell (" << r << ", " << c << ") value " << v << ": texel " << got << ", per-cell path " << want;
    }
  if (differing == 0) return "";
  return std::to_string(differing) + " cells differ, the first " + first.str();
}

}  // namespace

TEST_CASE("grid texels: every cell's texel is the per-cell path's colour, for every colour option") {
  int checked = 0, masked = 0;
  for (int variant = 0; variant < 3; ++variant) {
    const attn::Trace trace = attn::compute_trace(texel_scene(variant));
    const model::RowRanges ranges = model::trace_row_ranges(trace);
    for (model::Contrast contrast : {model::Contrast::Global, model::Contrast::Grid, model::Contrast::Row})
      for (bool log : {false, true})
        for (bool shared : {false, true})
          for (model::ColourmapId map : {model::ColourmapId::SingleHue, model::ColourmapId::RedBlue}) {
            model::ColourOptions o;
            o.contrast = contrast;
            o.log_weights = log;
            o.shared_range = shared;
            o.probability_map = map;  // a diverging map puts probabilities on [0.5, 1]
            o.signed_map = map == model::ColourmapId::RedBlue ? model::ColourmapId::BlueWhiteOrange : model::ColourmapId::RedBlue;
            const std::vector<model::ColourScale> scales = model::colour_scales(trace, o, &ranges);
            for (size_t i = 0; i < trace.stages.size(); ++i) {
              const attn::Stage& st = trace.stages[i];
              INFO("scene ", variant, ", stage ", st.id, " head ", st.head, ", contrast ", model::contrast_name(contrast),
                   log ? ", log" : "", shared ? ", shared" : "", ", map ", static_cast<int>(map));
              const std::vector<std::uint16_t> one = model::lut_texels(st, scales[i], 1);
              CHECK(differs_from_cells(st, scales[i], one) == "");
              if (model::uses_texture(st.value.rows(), st.value.cols())) {
                CHECK(model::lut_texels(st, scales[i], 2) == one);  // two threads, the same texels
                for (std::uint16_t t : one) masked += t == 0;
              }
              ++checked;
            }
          }
  }
  CHECK(checked > 500);
  CHECK(masked > 0);  // the causal and padded grids have masked cells
}
