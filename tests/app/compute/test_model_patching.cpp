// The Model view's patching without a window, on the tiny GPT-2 of
// tests/data/hf: the text is the clean prompt, the corrupted one is
// tokenized by the folder's tokenizer, the map is patch_activations' own,
// a head opens clean against corrupted, and mistakes come back as messages.
#include <doctest/doctest.h>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/why/patching.hpp"
#include "compute/model_settle.hpp"
#include "model/hf/model_session.hpp"
#include "model/hf/model_tokens.hpp"

namespace {

const std::string kPatchGpt2 = std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2";
const std::string kPatchClean = "When Mary and John went to the store, John gave a drink to";
const std::string kPatchCorrupted = "When Mary and John went to the store, Mary gave a drink to";

model::ModelUi patching_ui() {
  model::ModelUi ui;
  ui.folder = kPatchGpt2;
  ui.text = kPatchClean;
  ui.tab = model::ModelUi::Tab::Patching;
  ui.corrupted = kPatchCorrupted;
  ui.patch_answer = "M";  // single tokens of this tokenizer
  ui.patch_wrong = "J";
  ui.run_patching = true;
  return ui;
}

}  // namespace

TEST_CASE("model patching: the map is patch_activations' on the text and the corrupted prompt's tokens") {
  model::ModelSession s;
  model::ModelUi ui = patching_ui();
  settle_model(s, ui);
  REQUIRE_MESSAGE(s.patching().error().empty(), s.patching().error());
  const model::PatchMap* p = s.patching().result(s.ids());
  REQUIRE(p != nullptr);
  CHECK_FALSE(ui.run_patching);
  const std::shared_ptr<const model::ModelTokens> tokens = model::ModelTokens::load(kPatchGpt2);
  CHECK(p->clean == s.ids());
  CHECK(p->corrupted == tokens->encode(kPatchCorrupted));
  CHECK(p->answer_text == "M");
  CHECK(p->wrong_text == "J");
  const auto ck = attn::hf::Checkpoint::open(kPatchGpt2);
  attn::hf::PatchMetric metric;
  metric.answer = tokens->encode("M").front();
  metric.wrong = tokens->encode("J").front();
  const attn::hf::PatchingResult want =
      attn::hf::patch_activations<float>(*ck, p->clean, p->corrupted, metric, attn::hf::PatchSite::HeadOutput);
  CHECK(p->result.clean == want.clean);
  CHECK(p->result.corrupted == want.corrupted);
  CHECK(p->result.patched == want.patched);
  REQUIRE(p->result.recovered.size() == 2);
  CHECK(p->result.recovered[0].size() == 4);
  // A new text leaves the old map behind: it belongs to other clean ids.
  ui.text = kPatchClean + " the";
  settle_model(s, ui);
  CHECK(s.patching().result(s.ids()) == nullptr);
}

TEST_CASE("model patching: a head opens its layer clean (A) against corrupted (B), equal before the changed token") {
  model::ModelSession s;
  model::ModelUi ui = patching_ui();
  ui.open_patched = attn::hf::HeadRef{1, 2};
  const std::optional<model::HeadToShow> shown = settle_model(s, ui);
  REQUIRE(shown.has_value());
  CHECK(shown->head == 2);
  CHECK(shown->on_label == "clean");
  CHECK(shown->off_label == "corrupted: " + kPatchCorrupted);
  REQUIRE(shown->switched_off != nullptr);
  const attn::Scenario& a = shown->scene->scenario;
  const attn::Scenario& b = *shown->switched_off;
  REQUIRE(a.x.rows() == b.x.rows());
  // The first token where the prompts differ: layer 1's inputs agree before
  // it (the model is causal) and not from it on.
  const std::vector<int>& clean = s.patching().result(s.ids())->clean;
  const std::vector<int>& corrupted = s.patching().result(s.ids())->corrupted;
  int first = 0;
  while (clean[static_cast<std::size_t>(first)] == corrupted[static_cast<std::size_t>(first)]) ++first;
  CHECK(first > 0);
  CHECK((a.x.topRows(first) - b.x.topRows(first)).cwiseAbs().maxCoeff() == 0);
  CHECK((a.x.row(first) - b.x.row(first)).cwiseAbs().maxCoeff() > 1e-6);
  CHECK(b.tokens[static_cast<std::size_t>(first)] != a.tokens[static_cast<std::size_t>(first)]);
}

TEST_CASE("model patching: prompts of other lengths and answers of several tokens are named, and a head asked for is dropped") {
  model::ModelSession s;
  model::ModelUi ui = patching_ui();
  ui.corrupted = "When Mary went to the store";
  ui.open_patched = attn::hf::HeadRef{0, 0};
  CHECK_FALSE(settle_model(s, ui).has_value());
  CHECK(s.patching().error().find("tokens") != std::string::npos);
  CHECK(s.patching().error().find("same length") != std::string::npos);
  CHECK_FALSE(ui.open_patched.has_value());
  CHECK_FALSE(s.pending(ui));
  ui.corrupted = kPatchCorrupted;
  ui.patch_answer = "Mary";
  ui.run_patching = true;
  settle_model(s, ui);
  CHECK(s.patching().error() == "the answer \"Mary\" is 4 tokens; it must be one (a leading space often belongs to the token)");
  CHECK(s.patching().result(s.ids()) == nullptr);
}
