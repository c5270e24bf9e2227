// "Every output lies in the convex hull of the values": each row of each
// head's weights · V must lie in the hull of the value rows that query may
// attend to (a smaller hull than all values, so a stronger check), over
// every shipped scene and a spread of random scenes. The claim needs rows of
// weights that are non-negative and sum to 1, so two scenes are out of its
// reach and are checked to break it instead: zeroing after softmax without
// renormalising, and softmax over queries (columns sum to 1, rows do not).
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "attn/explore/convex_hull.hpp"
#include "attn/io/scenario_file.hpp"
#include "fixture_files.hpp"
#include "random_scenario.hpp"

namespace {

// Distance allowed between an output and the hull: rounding of a weighted
// sum, relative to the size of the values.
constexpr double kRelTol = 1e-9;

struct Worst {
  double excess = -1;  // distance / tolerance; > 1 is a failure
  std::string where;
  int checked = 0;     // output rows checked
};

// Checks every head of one trace; updates worst with the largest distance.
void check_trace(const attn::Trace& t, const std::string& name, Worst& worst) {
  for (int h = 0; h < t.dims.n_heads; ++h) {
    // The V the head reads: its own, or its group's (grouped-query attention).
    const attn::Stage& v = *t.find(t.find(attn::StageKind::head_output, h)->inputs.at(1));  // (n_k, d_v)
    const attn::Stage& w = *t.find(attn::StageKind::weights, h);   // (n_q, n_k)
    const attn::Mat out = t.find(attn::StageKind::head_output, h)->value.dense();  // (n_q, d_v)
    const double tol = kRelTol * std::max(1.0, v.value.dense().cwiseAbs().maxCoeff());
    for (int i = 0; i < out.rows(); ++i) {
      // A row with every key blocked has no convex combination: its
      // weights are defined as 0 and its output is 0.
      if (std::find(w.fully_masked.begin(), w.fully_masked.end(), i) != w.fully_masked.end()) continue;
      std::vector<int> allowed;
      for (int j = 0; j < v.value.rows(); ++j)
        if (!w.is_blocked(i, j)) allowed.push_back(j);
      attn::Mat pts(static_cast<Eigen::Index>(allowed.size()), v.value.cols());
      for (size_t k = 0; k < allowed.size(); ++k) pts.row(static_cast<Eigen::Index>(k)) = v.value.row(allowed[k]);
      const double d = attn::hull_distance(pts, out.row(i).transpose());
      ++worst.checked;
      if (d / tol > worst.excess) {
        worst.excess = d / tol;
        std::ostringstream os;
        os << name << " head " << h << " row " << i << ": " << d << " from the hull of " << allowed.size()
           << " values (tolerance " << tol << ")";
        worst.where = os.str();
      }
    }
  }
}

bool claim_applies(const attn::Scenario& s) {
  return s.mask_mode == attn::MaskMode::BeforeSoftmax && s.softmax_axis == attn::SoftmaxAxis::Keys;
}

}  // namespace

TEST_CASE("claim: every head output of every shipped scene lies in the hull of its values") {
  Worst worst;
  std::vector<std::string> checked, outside_claim;
  for (const std::string& path : ref::json_files_in(ATTNVIZ_ASSETS_DIR "/scenarios")) {
    const attn::io::ScenarioFile file = attn::io::load_scenario(path);
    const std::string name = ref::stem_of(path);
    if (!claim_applies(file.scenario)) {
      outside_claim.push_back(name);
      continue;
    }
    check_trace(attn::compute_trace(file.scenario), name, worst);
    checked.push_back(name);
  }
  MESSAGE(checked.size() << " scenes, " << worst.checked << " output rows checked; largest distance / tolerance "
                         << worst.excess);
  INFO("worst: " << worst.where);
  CHECK(worst.excess <= 1);
  CHECK(checked.size() >= 26);  // every scene but the two the claim does not cover
  CHECK(outside_claim == std::vector<std::string>{"masking_after_softmax", "softmax_columns"});
  for (const char* name : {"convex_hull_2d", "rgbd_pixels_255", "soft_dictionary", "matrix_form", "why_scale",
                           "convolution_window", "large_1024x8"})
    CHECK_MESSAGE(std::find(checked.begin(), checked.end(), name) != checked.end(), name << " was not checked");
}

TEST_CASE("claim: the two scenes outside the claim do leave the hull (the check can tell)") {
  for (const char* name : {"masking_after_softmax", "softmax_columns"}) {
    const attn::io::ScenarioFile file = attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR "/scenarios/") + name + ".json");
    Worst worst;
    check_trace(attn::compute_trace(file.scenario), name, worst);
    INFO(name << ": furthest output " << worst.where);
    CHECK(worst.excess > 1e6);
  }
}

TEST_CASE("claim: outputs lie in the hull of their values in random scenes of every kind") {
  Worst worst;
  unsigned seed = 9000;
  int scenes = 0;
  for (int n_heads : {0, 1, 3})
    for (attn::MaskKind mask : {attn::MaskKind::None, attn::MaskKind::Causal, attn::MaskKind::Custom})
      for (int variant = 0; variant < 6; ++variant) {
        ref::CaseSpec c;
        c.name = "random";
        c.seed = ++seed;
        c.n_heads = n_heads;
        c.mask = mask;
        c.n_q = 1 + variant;
        c.n_k = 2 + (variant * 3) % 6;
        c.d_model = 2 + variant % 3;
        c.d_ctx = 3;
        c.d_k = 1 + variant % 4;
        c.d_v = 1 + (variant + n_heads) % 5;  // includes d_v > n_k: flat hulls
        c.d_out = variant % 2 ? 3 : 0;
        c.cross = variant >= 3;
        c.full_row = variant == 2;
        c.padding = variant == 4 ? ref::PaddingKind::LastKey : ref::PaddingKind::None;
        c.scale = variant == 1 ? attn::ScaleMode::None : attn::ScaleMode::SqrtDk;
        c.score = variant == 5 ? attn::ScoreFn::Additive : attn::ScoreFn::Dot;
        c.positional = variant == 3 ? attn::Positional::Alibi : variant == 0 ? attn::Positional::Sinusoidal
                                                                             : attn::Positional::None;
        const attn::Scenario s = ref::make_scenario(c);
        check_trace(attn::compute_trace(s), ref::describe(c), worst);
        ++scenes;
      }
  MESSAGE(scenes << " random scenes, " << worst.checked << " output rows; largest distance / tolerance " << worst.excess);
  INFO("worst: " << worst.where);
  CHECK(worst.excess <= 1);
  CHECK(worst.checked > 100);
}
