// Captions for the animation: status names the step and stage, a cell step
// shows its products with real numbers, the finished state invites to play.
#include <doctest/doctest.h>

#include "scenes.hpp"
#include "model/animation/step_caption.hpp"

TEST_CASE("subscript digits") {
  CHECK(model::subscript(0) == "₀");
  CHECK(model::subscript(12) == "₁₂");
}

TEST_CASE("captions: cell steps show the products accumulating, with numbers") {
  const attn::Trace t = attn::compute_trace(test_scenes::small_projected());
  const model::Timeline tl = model::build_timeline(t, model::Granularity::Cell);
  // Find the first scores cell step and stand in its middle.
  const int scores = t.index_of({attn::StageKind::scores, 0});
  const model::Step* step = nullptr;
  for (const model::Step& s : tl.steps)
    if (s.stage == scores && s.col >= 0) {
      step = &s;
      break;
    }
  REQUIRE(step != nullptr);
  const model::Frame f = model::evaluate(t, tl, step->start + step->duration * 0.5);
  REQUIRE(f.terms_total > 0);
  const attn::Explanation e = attn::explain(t, test_scenes::small_projected(), {attn::StageKind::scores, 0}, f.active_row, f.active_col);
  const model::StepCaption c = model::describe_step(t, tl, f, &e);
  CHECK(c.status.find("step ") == 0);
  CHECK(c.status.find("QKᵀ") != std::string::npos);
  CHECK(c.detail.find("q" + model::subscript(f.active_row) + " · k" + model::subscript(f.active_col)) == 0);
  CHECK(c.detail.find("×") != std::string::npos);
}

TEST_CASE("captions: finished and stage steps") {
  const attn::Trace t = attn::compute_trace(test_scenes::small_projected());
  const model::Timeline tl = model::build_timeline(t, model::Granularity::Stage);
  const model::StepCaption done = model::describe_step(t, tl, model::evaluate(t, tl, tl.total), nullptr);
  CHECK(done.status == "all " + std::to_string(tl.steps.size()) + " steps shown");
  attn::Trace preview = t;
  preview.complete = false;  // a big scene's first head, the rest still being computed
  CHECK(model::describe_step(preview, tl, model::evaluate(preview, tl, tl.total), nullptr).status.find("so far") !=
        std::string::npos);
  const model::StepCaption first = model::describe_step(t, tl, model::evaluate(t, tl, 0.01), nullptr);
  CHECK(first.status.find("step 1 of") == 0);
  CHECK_FALSE(first.detail.empty());
  for (const attn::Stage& s : t.stages) CHECK_FALSE(model::stage_caption(t, s, test_scenes::small_projected()).empty());
}

namespace {
std::string caption_of(const attn::Scenario& sc, const std::string& id) {
  const attn::Trace t = attn::compute_trace(sc);
  const attn::Stage* s = t.find_named(id, 0);
  REQUIRE(s != nullptr);
  return model::stage_caption(t, *s, sc);
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("grid captions follow the softmax axis and the mask mode") {
  attn::Scenario sc = test_scenes::small_projected();
  CHECK(has(caption_of(sc, "weights"), "each row sums to 1"));
  sc.softmax_axis = attn::SoftmaxAxis::Queries;
  CHECK(has(caption_of(sc, "weights"), "each column sums to 1"));
  CHECK_FALSE(has(caption_of(sc, "weights"), "row sums"));
  sc = test_scenes::small_projected();
  sc.mask_mode = attn::MaskMode::AfterSoftmax;
  const std::string after = caption_of(sc, "weights");
  CHECK(has(after, "less than 1"));
  CHECK(has(after, "not renormalised"));
  CHECK_FALSE(has(after, "sums to 1"));
  // Without any blocked cell, zeroing after softmax changes nothing.
  sc.mask = attn::MaskKind::None;
  CHECK(has(caption_of(sc, "weights"), "each row sums to 1"));
}

TEST_CASE("grid captions name fully masked rows") {
  attn::Scenario sc = test_scenes::small_projected();
  sc.mask = attn::MaskKind::None;
  sc.key_padding = {true, true, true};  // every key blocked: every row is all 0
  const std::string c = caption_of(sc, "weights");
  CHECK(has(c, "rows 0, 1, 2 are fully masked: all 0"));
}

TEST_CASE("grid captions follow the scaling") {
  attn::Scenario sc = test_scenes::small_projected();
  CHECK(has(caption_of(sc, "scaled"), "softmax is not too peaked"));
  sc.scale = attn::ScaleMode::None;
  CHECK(caption_of(sc, "scaled") == "no scaling (scaled = scores)");
  sc.scale = attn::ScaleMode::Temperature;
  sc.temperature = 0.5;
  const std::string tau = caption_of(sc, "scaled");
  CHECK(has(tau, "τ = 0.5"));
  CHECK(has(tau, "τ < 1 sharpens, τ > 1 flattens"));
}
