// How many forward passes the Model view runs (issue 41), counted by the
// session on the tiny GPT-2 of tests/data/hf (2 layers x 4 heads): opening
// a model and then a head computes each layer once per precision, and a
// head switched off in layer L computes only layers L and after again. The
// shared layers must give the bits a pass from the start gives: checked
// against passes run here from the embeddings, with a tolerance of 0.
#include <doctest/doctest.h>

#include "attn/hf/forward/layer_scene.hpp"
#include "compute/model_settle.hpp"
#include "model/session/show_head.hpp"
#include "model/hf/model_session.hpp"

namespace {

const std::string kPassesGpt2 = std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2";

// "" when the two are the same bits, else the largest difference and where.
std::string passes_differ(const attn::Mat& a, const attn::Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return "shapes differ";
  if (a.size() == 0) return "";
  Eigen::Index i = 0, j = 0;
  const double worst = (a - b).cwiseAbs().maxCoeff(&i, &j);
  return worst == 0 ? "" : "differs by " + std::to_string(worst) + " at (" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

// The layer's scene as the session built it before issue 41: a float64
// pass from the embeddings with details, up to that layer.
attn::Scenario fresh_scene(const attn::hf::Checkpoint& ck, const std::vector<int>& ids, int layer,
                           const std::vector<attn::hf::HeadRef>& heads_off) {
  attn::hf::ForwardOptions o;
  o.heads_off = heads_off;
  o.keep_details = true;
  o.stop_after_layer = layer;
  return attn::hf::layer_scene(ck, attn::hf::run_forward<double>(ck, ids, o), layer, {}, heads_off).scenario;
}

void check_counts(const model::ModelSession& s, model::PassCount f32, model::PassCount f64) {
  const model::PassCount got32 = s.forward_counts().of<float>(), got64 = s.forward_counts().of<double>();
  INFO("counted " << s.forward_counts().line() << "; expected float32: passes " << f32.passes << ", layers " << f32.layers
                  << "; float64: passes " << f64.passes << ", layers " << f64.layers);
  CHECK(got32.passes == f32.passes);
  CHECK(got32.layers == f32.layers);
  CHECK(got64.passes == f64.passes);
  CHECK(got64.layers == f64.layers);
}

// The tiny GPT-2 opened on a short text, with every pass it starts done.
void open_tiny_gpt2(model::ModelSession& s, model::ModelUi& ui) {
  ui.folder = kPassesGpt2;
  ui.text = "the cat sat on the mat";
  settle_model(s, ui);
  REQUIRE_MESSAGE(s.error().empty(), s.error());
}

}  // namespace

TEST_CASE("opening a model and then a head computes each layer once per precision") {
  model::ModelSession s;
  model::ModelUi ui;
  open_tiny_gpt2(s, ui);
  REQUIRE(s.precision().gap().has_value());
  // The overview's float32 pass and the precision check's float64 pass.
  check_counts(s, {1, 2}, {1, 2});

  // Before issue 41 this ran float64 layers 0 and 1 a second time.
  ui.open_in_pipeline = attn::hf::HeadRef{1, 3};
  const std::optional<model::HeadToShow> head = settle_model(s, ui);
  REQUIRE(head.has_value());
  const model::HeadToShow* shown = &*head;
  REQUIRE(shown->scene != nullptr);
  check_counts(s, {1, 2}, {1, 2});
  CHECK(passes_differ(shown->scene->scenario.x, fresh_scene(*s.checkpoint(), s.ids(), 1, {}).x) == "");

  // Another head, another layer: cut from the same kept pass.
  ui.open_in_pipeline = attn::hf::HeadRef{0, 2};
  const std::optional<model::HeadToShow> first = settle_model(s, ui);
  REQUIRE(first.has_value());
  check_counts(s, {1, 2}, {1, 2});
  CHECK(passes_differ(first->scene->scenario.x, fresh_scene(*s.checkpoint(), s.ids(), 0, {}).x) == "");
}

TEST_CASE("a head switched off in layer L computes only layers L and after again") {
  model::ModelSession s;
  model::ModelUi ui;
  open_tiny_gpt2(s, ui);
  check_counts(s, {1, 2}, {1, 2});

  // Off in layer 1: the float32 pass resumes there, one layer.
  ui.heads_off = {{1, 2}};
  settle_model(s, ui);
  REQUIRE(s.after() != nullptr);
  check_counts(s, {2, 3}, {1, 2});
  attn::hf::ForwardOptions o;
  o.heads_off = ui.heads_off;
  const attn::hf::ForwardResult<float> fresh = attn::hf::run_forward<float>(*s.checkpoint(), s.ids(), o);
  REQUIRE(s.after()->forward->layers.size() == fresh.layers.size());
  for (std::size_t l = 0; l < fresh.layers.size(); ++l)
    for (std::size_t h = 0; h < fresh.layers[l].attentions.size(); ++h) {
      INFO("layer " << l << " head " << h);
      CHECK(passes_differ(s.after()->forward->layers[l].attentions[h].cast<double>(),
                          fresh.layers[l].attentions[h].cast<double>()) == "");
    }
  CHECK(passes_differ(s.after()->forward->final.cast<double>(), fresh.final.cast<double>()) == "");

  // A head of layer 1 opened: its compare side resumes the float64 pass at layer 1.
  ui.open_in_pipeline = attn::hf::HeadRef{1, 0};
  const std::optional<model::HeadToShow> head = settle_model(s, ui);
  REQUIRE(head.has_value());
  REQUIRE(head->switched_off != nullptr);
  check_counts(s, {2, 3}, {2, 3});
  const attn::Scenario off = fresh_scene(*s.checkpoint(), s.ids(), 1, ui.heads_off);
  CHECK(passes_differ(head->switched_off->x, off.x) == "");
  REQUIRE(head->switched_off->w_o.has_value());
  CHECK(passes_differ(*head->switched_off->w_o, *off.w_o) == "");
  CHECK(passes_differ(head->switched_off->output_bias, off.output_bias) == "");

  // Off in layer 0 instead: both layers again, in each precision.
  ui.heads_off = {{0, 1}};
  settle_model(s, ui);
  check_counts(s, {3, 5}, {2, 3});
  ui.open_in_pipeline = attn::hf::HeadRef{1, 3};
  REQUIRE(settle_model(s, ui).has_value());
  check_counts(s, {3, 5}, {3, 5});
}
