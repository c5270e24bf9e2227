// The Model view's session without a window, on the tiny GPT-2 of
// tests/data/hf: the folder opens, the text is tokenized and run in the
// background, every head gets its measures and thumbnail, heads switched off
// change the predictions, and a head's layer comes back as a scene to show.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "attn/text/format_number.hpp"
#include "model/document/app_actions.hpp"
#include "model/hf/model_folder.hpp"
#include "model/hf/model_session.hpp"
#include "compute/model_settle.hpp"
#include "model/session/show_head.hpp"

namespace {

const std::string kGpt2 = std::string(ATTNVIZ_HF_DATA_DIR) + "/gpt2";

}  // namespace

TEST_CASE("the precision line states what was measured, never an unmeasured bound") {
  attn::hf::PrecisionGap gap;
  gap.max_abs = 2.345e-4;
  gap.layer = 11;
  gap.head = 3;
  gap.query = 900;
  gap.key = 12;
  CHECK(model::precision_text(gap, false) == "Computed in float32, within 0.000235 of float64 on this text (measured).");
  CHECK(model::precision_detail(gap).find("largest difference in any attention weight is 0.000235, at layer 11, head 3 "
                                          "(query 900, key 12)") != std::string::npos);
  CHECK(model::precision_text(std::nullopt, true).find("measuring how far from float64") != std::string::npos);
  CHECK(model::precision_text(std::nullopt, false).find("within") == std::string::npos);
}

TEST_CASE("the model session runs the tiny GPT-2 on a text: measures, thumbnails, predictions") {
  model::ModelSession s;
  model::ModelUi ui;
  ui.folder = kGpt2;
  ui.text = "the cat sat on the mat";
  settle_model(s, ui);
  REQUIRE_MESSAGE(s.error().empty(), s.error());
  REQUIRE(s.before() != nullptr);
  CHECK(s.family_line().rfind("GPT-2, 2 layers x 4 heads, d 32", 0) == 0);
  const int n = static_cast<int>(s.ids().size());
  CHECK(n >= 3);
  CHECK(s.labels().size() == s.ids().size());
  REQUIRE(s.before()->heads.size() == 2);
  CHECK(s.before()->heads[0].size() == 4);
  for (const auto& layer : s.before()->heads)
    for (const model::HeadSummary& h : layer) {
      CHECK(h.measures.previous >= 0);
      CHECK(h.measures.previous <= 1 + 1e-6);
      CHECK(h.measures.entropy >= 0);
    }
  CHECK(s.atlas().tile == std::min(n, 64));
  CHECK(s.atlas().width == 4 * s.atlas().tile);
  REQUIRE(s.before()->predictions.size() == 10);
  double total = 0;
  for (const model::TokenPrediction& p : s.before()->predictions) total += p.probability;
  CHECK(total <= 1 + 1e-9);
  CHECK(s.after() == nullptr);
  // The float32 pass measured against float64 on this text, and said so.
  REQUIRE(s.precision().gap().has_value());
  CHECK(s.precision().gap()->max_abs > 0);
  CHECK(s.precision().gap()->max_abs < 1e-5);
  CHECK(s.precision_line().find("within " + attn::format_number(s.precision().gap()->max_abs, 3) +
                                " of float64 on this text (measured)") != std::string::npos);

  // A head switched off: a second pass, other predictions.
  ui.heads_off = {{0, 1}, {1, 2}};
  settle_model(s, ui);
  REQUIRE(s.after() != nullptr);
  REQUIRE(s.after()->predictions.size() == 10);
  bool changed = false;
  for (size_t i = 0; i < 10; ++i)
    changed = changed || s.after()->predictions[i].id != s.before()->predictions[i].id ||
              std::abs(s.after()->predictions[i].probability - s.before()->predictions[i].probability) > 1e-6;
  CHECK(changed);

  // The predictions at another position, on demand.
  ui.hovered_position = 1;
  settle_model(s, ui);
  REQUIRE(s.predictions_at(1) != nullptr);
  CHECK(s.predictions_at(1)->size() == 10);

  // A head opened in the pipeline view: its layer as a scene, on that head.
  ui.open_in_pipeline = attn::hf::HeadRef{1, 3};
  const std::optional<model::HeadToShow> head = settle_model(s, ui);
  REQUIRE(head.has_value());
  const model::HeadToShow* shown = &*head;
  CHECK(shown->label == "gpt2, layer 1, head 3");
  CHECK(shown->head == 3);
  REQUIRE(shown->scene != nullptr);
  CHECK(shown->scene->scenario.heads.size() == 4);
  // Heads 0.1 and 1.2 are off (above): the same layer with them off comes
  // along for the compare view, and its output is not the plain layer's.
  REQUIRE(head->switched_off != nullptr);
  CHECK(head->off_label == "L0 H1, L1 H2 off (zero)");
  const attn::Mat on = attn::compute_trace(shown->scene->scenario).find(attn::StageKind::output)->value.dense();
  const attn::Mat off = attn::compute_trace(*head->switched_off).find(attn::StageKind::output)->value.dense();
  CHECK((on - off).cwiseAbs().maxCoeff() > 1e-6);
  // Run as the app runs it: the pipeline shows A, the compare view opens on both.
  model::AppState app;
  model::ModelUi view;
  view.open = true;
  model::CompareState compare;
  model::actions::request(app, model::show_head_action(*head, view, compare));
  CHECK_FALSE(view.open);  // the pipeline view shows the head
  CHECK(compare.open);
  CHECK(compare.label_a == "all heads on");
  CHECK(!compare.a);
  REQUIRE(compare.b);
  CHECK(compare.head == 3);
  CHECK(app.doc.scenario.heads.size() == 4);

  // Heads off only after the opened layer change nothing in it: no compare.
  ui.heads_off = {{1, 2}};
  settle_model(s, ui);
  ui.open_in_pipeline = attn::hf::HeadRef{0, 0};
  const std::optional<model::HeadToShow> first = settle_model(s, ui);
  REQUIRE(first.has_value());
  CHECK(first->switched_off == nullptr);
}

TEST_CASE("weights rewritten or cut short on disk while open: the session opens the folder again and says so") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "attnviz_test_model_rewritten";
  fs::remove_all(dir);
  fs::copy(kGpt2, dir, fs::copy_options::recursive);
  model::ModelSession s;
  model::ModelUi ui;
  ui.folder = dir.string();
  ui.text = "the cat sat on the mat";
  settle_model(s, ui);
  REQUIRE(s.before() != nullptr);
  const std::vector<int> ids = s.ids();
  // `cp` over it: the same bytes, written anew.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  fs::copy_file(fs::path(kGpt2) / "model.safetensors", dir / "model.safetensors", fs::copy_options::overwrite_existing);
  settle_model(s, ui);
  CHECK(s.notice().find("model.safetensors was rewritten on disk while it was open: opened again from disk.") !=
        std::string::npos);
  CHECK(s.error().empty());
  REQUIRE(s.before() != nullptr);  // the text ran again on the reopened file
  CHECK(s.ids() == ids);
  // Cut short: opened again, and the damaged file is named.
  fs::resize_file(dir / "model.safetensors", 100);
  settle_model(s, ui);
  CHECK(s.notice().find("changed size on disk") != std::string::npos);
  CHECK(s.error().find("model.safetensors") != std::string::npos);
  CHECK(s.before() == nullptr);
}

TEST_CASE("the model session says why a folder or a text cannot run") {
  model::ModelSession s;
  model::ModelUi ui;
  ui.folder = "/nonexistent/model";
  ui.text = "hello";
  settle_model(s, ui);
  CHECK(s.error().find("Cannot open the model") != std::string::npos);
  CHECK(s.before() == nullptr);
}

TEST_CASE("File > Open or a drop of a model folder, its config.json or a GGUF file opens the Model view, not a document") {
  CHECK(model::model_folder_of(kGpt2) == kGpt2);
  CHECK(model::model_folder_of(kGpt2 + "/config.json") == kGpt2);
  CHECK(!model::model_folder_of(kGpt2 + "/tokenizer.json"));
  CHECK(!model::model_folder_of(std::string(ATTNVIZ_HF_DATA_DIR)));  // no config.json in it
  // A GGUF file is a model by itself (by its magic, whatever its name).
  const std::string gguf = std::string(ATTNVIZ_HF_DATA_DIR) + "/../gguf/gpt2_q8_0.gguf";
  CHECK(model::model_folder_of(gguf) == gguf);
  CHECK(!model::model_folder_of(std::string(ATTNVIZ_HF_DATA_DIR) + "/../gguf/gpt2_q8_0.header.json"));
  model::AppState s;
  const std::uint64_t document = s.document;
  model::actions::request(s, {model::PendingAction::Kind::Open, kGpt2 + "/config.json"});
  CHECK(s.model_request == kGpt2);  // the Model view takes it (Session::update_model)
  model::ModelUi view;
  view.heads_off = {{0, 1}};
  model::choose_model_folder(view, s.model_request);
  CHECK(view.open);
  CHECK(view.folder == kGpt2);
  CHECK(view.heads_off.empty());  // a new folder starts with every head on
  CHECK(s.document == document);
  CHECK(s.message.empty());
}
