// The Model view in the running app, on the tiny GPT-2 of tests/data/hf.
// Headless: --model with --text draws a thumbnail per layer and head (the
// layout dump has one probe each), --layer/--head opens that layer in the
// pipeline view on that head, --heads-off changes the predictions, and at
// 1024x768 nothing of the view leaves the window. In a real window: a
// right-click on a head switches it off, a click opens it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/logit_lens.hpp"
#include "attn/hf/quant/quant_divergence.hpp"
#include "attn/hf/why/logit_attribution.hpp"
#include "attn/hf/why/patching.hpp"
#include "model/colour/colour_scale.hpp"
#include "model/colour/colour_options.hpp"
#include "model/colour/colourmap.hpp"
#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kGpt2 = std::string(ATTNVIZ_TEST_DATA_DIR) + "/hf/gpt2";
const std::string kText = "The cat sat on the mat because the cat was tired";

struct ModelShot {
  nlohmann::json state, layout;
  std::string png;
};

ModelShot shoot_model(const std::string& name, const std::string& extra, const std::string& size = "1400x900") {
  const std::string png = temp_path(name + ".png"), state = temp_path(name + "_state.json"),
                    layout = temp_path(name + "_layout.json");
  std::string out;
  const int code = run(attnviz("--test --size " + size + " --model \"" + kGpt2 + "\" --text \"" + kText + "\" " + extra +
                               " --screenshot " + png + " --dump-state " + state + " --dump-layout " + layout),
                       &out);
  REQUIRE_MESSAGE(code == 0, out);
  REQUIRE(load_png(png).ok());
  return {load_json(state), load_json(layout), png};
}

bool inside(const nlohmann::json& r, double width, double height) {
  return r[0].get<double>() >= 0 && r[1].get<double>() >= 0 && r[2].get<double>() <= width && r[3].get<double>() <= height;
}

// Each cell of a layers x heads map (probes prefix_L_H) painted in the
// signed colour of its value on -range..range, at its top-left pixel.
void check_signed_map(const ModelShot& shot, const std::string& prefix, const std::vector<std::vector<double>>& values,
                      double range) {
  const nlohmann::json& widgets = shot.layout["widgets"];
  const Image image = load_png(shot.png);
  viz::ColourScale scale;
  scale.kind = attn::ValueKind::Signed;
  scale.map = viz::ColourOptions{}.signed_map;
  scale.range = {-range, range};
  for (std::size_t l = 0; l < values.size(); ++l)
    for (std::size_t h = 0; h < values[l].size(); ++h) {
      const std::string id = prefix + "_" + std::to_string(l) + "_" + std::to_string(h);
      REQUIRE_MESSAGE(widgets.contains(id), id);
      const nlohmann::json& r = widgets[id];
      const viz::Rgba got = image.at(static_cast<int>(r[0].get<double>()) + 1, static_cast<int>(r[1].get<double>()) + 1);
      CHECK_MESSAGE(distance(got, viz::colour_of(scale, 0, values[l][h])) <= kColourTolerance, id, ": ", values[l][h]);
    }
}

}  // namespace

TEST_SUITE("model") {
  TEST_CASE("ui: --model --text draws every layer x head and reports the run") {
    const ModelShot s = shoot_model("model_overview", "");
    const nlohmann::json& m = s.state["model"];
    CHECK(m["open"] == true);
    CHECK(m["loaded"] == true);
    CHECK(m["error"] == "");
    CHECK(m["family"].get<std::string>().rfind("GPT-2, 2 layers x 4 heads, d 32", 0) == 0);
    REQUIRE(m["tokens"].size() >= 3);
    CHECK(m["tokens"].size() == m["ids"].size());
    REQUIRE(m["heads"].size() == 2);
    CHECK(m["predictions"].size() == 10);
    CHECK(m["predictions_after"].empty());
    const nlohmann::json& w = s.layout["widgets"];
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h < 4; ++h) {
        const std::string id = "model_grid_" + std::to_string(l) + "_" + std::to_string(h);
        REQUIRE_MESSAGE(w.contains(id), id);
        const nlohmann::json& r = w[id];
        CHECK(r[2].get<double>() - r[0].get<double>() > 20);  // a picture, not a speck
        CHECK(std::abs((r[2].get<double>() - r[0].get<double>()) - (r[3].get<double>() - r[1].get<double>())) < 1);
        CHECK(m["heads"][l][h]["role"].is_string());
      }
    // Layers down, heads across.
    CHECK(w["model_grid_0_1"][0].get<double>() > w["model_grid_0_0"][0].get<double>());
    CHECK(w["model_grid_1_0"][1].get<double>() > w["model_grid_0_0"][1].get<double>());
    CHECK(w.contains("model_text"));
    CHECK(w.contains("model_prediction_0"));
    // The screen says which precision the weights are in, under the model's line.
    CHECK(m["precision"] == "float32");
    REQUIRE(w.contains("model_precision"));
    CHECK(w["model_precision"][1].get<double>() >= w["model_family"][3].get<double>() - 1);
  }

  TEST_CASE("ui: --layer --head opens that layer in the pipeline view on that head") {
    const ModelShot s = shoot_model("model_head", "--layer 1 --head 2");
    CHECK(s.state["model"]["open"] == false);
    CHECK(s.state["doc_label"] == "gpt2, layer 1, head 2");
    CHECK(s.state["view_head"] == 2);
    CHECK(s.state["has_trace"] == true);
    CHECK(s.state["error"] == "");
    CHECK(s.state["scenario"]["heads"].size() == 4);  // the layer's heads, one shown
    CHECK(s.state["scenario"]["tokens"].size() == s.state["model"]["tokens"].size());
    CHECK(grid_of(s.layout, "weights", 2) != nullptr);
  }

  TEST_CASE("ui: --heads-off changes the predictions (zero and mean)") {
    for (const std::string mode : {"zero", "mean"}) {
      const ModelShot s = shoot_model("model_off_" + mode, "--heads-off 0.1,1.2 --ablate " + mode);
      const nlohmann::json& m = s.state["model"];
      CHECK(m["mode"] == mode);
      REQUIRE(m["heads_off"].size() == 2);
      CHECK(m["heads_off"][0] == nlohmann::json::array({0, 1}));
      const nlohmann::json &before = m["predictions"], &after = m["predictions_after"];
      REQUIRE(before.size() == 10);
      REQUIRE(after.size() == 10);
      bool changed = false;
      for (size_t i = 0; i < 10; ++i)
        changed = changed || before[i]["id"] != after[i]["id"] ||
                  std::abs(before[i]["probability"].get<double>() - after[i]["probability"].get<double>()) > 1e-6;
      CHECK_MESSAGE(changed, mode);
      CHECK(s.layout["widgets"].contains("model_prediction_after_0"));
    }
  }

  TEST_CASE("ui: a head opened with heads switched off opens the compare view on the layer before and after") {
    const ModelShot s = shoot_model("model_compare", "--heads-off 0.1,0.3 --ablate mean --layer 1 --head 2");
    CHECK(s.state["doc_label"] == "gpt2, layer 1, head 2");
    const nlohmann::json& c = s.state["compare"];
    CHECK(c["open"] == true);
    CHECK(c["label_a"] == "all heads on");
    CHECK(c["label_b"] == "L0 H1, L0 H3 off (mean)");
    CHECK(c["stage"] == "weights");
    CHECK(c["head"] == 2);
    CHECK(s.state["error"] == "");
  }

  TEST_CASE("ui: --measure --sort-heads orders each layer's heads by that measure, --show-switched-off shows the ablated run") {
    const ModelShot s = shoot_model("model_sorted", "--measure entropy --sort-heads --heads-off 0.1 --show-switched-off");
    const nlohmann::json& m = s.state["model"];
    CHECK(m["measure"] == "entropy");
    CHECK(m["sorted"] == true);
    CHECK(m["show_after"] == true);
    const nlohmann::json& w = s.layout["widgets"];
    // The overview shows (and sorts) the run with head 0.1 switched off.
    REQUIRE(m["heads_after"].size() == 2);
    int swapped = 0;  // layers whose order is not 0, 1, 2, 3: the sort moved something
    for (int l = 0; l < 2; ++l) {
      std::vector<std::pair<double, double>> x_and_entropy;
      for (int h = 0; h < 4; ++h) {
        const std::string id = "model_grid_" + std::to_string(l) + "_" + std::to_string(h);
        REQUIRE_MESSAGE(w.contains(id), id);
        x_and_entropy.push_back({w[id][0].get<double>(), m["heads_after"][l][h]["entropy"].get<double>()});
        if (h > 0 && x_and_entropy[h].first < x_and_entropy[h - 1].first) ++swapped;
      }
      std::sort(x_and_entropy.begin(), x_and_entropy.end());  // left to right
      for (int c = 1; c < 4; ++c)
        CHECK_MESSAGE(x_and_entropy[c - 1].second >= x_and_entropy[c].second,
                      "layer " << l << ": entropy " << x_and_entropy[c - 1].second << " left of " << x_and_entropy[c].second);
    }
    CHECK(swapped > 0);
    std::string out;
    CHECK(run(attnviz("--test --model \"" + kGpt2 + "\" --show-switched-off --screenshot " + temp_path("never.png")), &out) == 2);
    CHECK(out.find("--show-switched-off needs --heads-off") != std::string::npos);
  }

  TEST_CASE("ui: at 1024x768 nothing of the overview or the head view is cut off") {
    for (const std::string tab : {"overview", "heads"}) {
      const ModelShot s = shoot_model("model_small_" + tab, "--heads-off 0.1 --model-tab " + tab, "1024x768");
      CHECK(s.state["model"]["tab"] == tab);
      const nlohmann::json& w = s.layout["widgets"];
      std::vector<std::string> names = {"model_text", "model_folder", "model_close", "model_family", "model_tab_overview",
                                        "model_tab_heads", "model_tab_lens", "model_tab_attribution", "model_tab_patching"};
      for (int i = 0; i < 10; ++i) names.push_back("model_prediction_" + std::to_string(i));
      if (tab == "overview") {
        for (int l = 0; l < 2; ++l)
          for (int h = 0; h < 4; ++h) names.push_back("model_grid_" + std::to_string(l) + "_" + std::to_string(h));
      } else {
        names.push_back("model_layer");
        for (int h = 0; h < 4; ++h) names.push_back("model_head_check_" + std::to_string(h));
        names.push_back("model_head_view");
      }
      for (const std::string& n : names) {
        REQUIRE_MESSAGE(w.contains(n), n);
        CHECK_MESSAGE(inside(w[n], 1024, 768), n << " at " << w[n].dump());
      }
    }
  }

  TEST_CASE("ui: a right-click switches a head off, a click opens it in the pipeline view") {
    if (std::string(XDOTOOL).empty() || std::string(XDOTOOL).find("NOTFOUND") != std::string::npos) {
      MESSAGE("xdotool is not installed: skipped");
      return;
    }
    RunningApp app("--model \"" + kGpt2 + "\" --text \"" + kText + "\"", "model_app");
    const nlohmann::json ready = wait_for(app.state, [](const nlohmann::json& j) {
      return j.contains("model") && j["model"]["predictions"].size() == 10;
    });
    REQUIRE(!ready.is_null());
    const nlohmann::json layout = settled(app.layout, "model_grid_1_3");
    const auto [x, y] = centre_of(layout, "model_grid_1_3");
    nlohmann::json off;
    for (int tries = 0; tries < 3 && off.is_null(); ++tries) {
      xdo("mousemove " + std::to_string(x) + " " + std::to_string(y) + " click 3");
      off = wait_for(app.state, [](const nlohmann::json& j) {
        return j["model"]["heads_off"].size() == 1 && j["model"]["predictions_after"].size() == 10;
      }, 8000);
    }
    REQUIRE(!off.is_null());
    CHECK(off["model"]["heads_off"][0] == nlohmann::json::array({1, 3}));
    const nlohmann::json opened = click_until(app, "model_grid_0_2", [](const nlohmann::json& j) {
      return j["doc_label"] == "gpt2, layer 0, head 2" && j["has_trace"] == true;
    });
    REQUIRE(!opened.is_null());
    CHECK(opened["view_head"] == 2);
    CHECK(opened["model"]["open"] == false);
  }

  TEST_CASE("ui: --model-tab lens draws the logit lens, each cell its top guess in its probability's colour") {
    const ModelShot shot = shoot_model("model_lens", "--model-tab lens");
    const nlohmann::json& m = shot.state["model"];
    CHECK(m["tab"] == "lens");
    REQUIRE(m.contains("lens"));
    // The same lens computed here from the same ids, in the same precision.
    const auto ck = attn::hf::Checkpoint::open(kGpt2);
    attn::hf::ForwardOptions o;
    o.keep_inputs = true;
    const std::vector<int> ids = m["ids"].get<std::vector<int>>();
    const attn::hf::LogitLens lens = attn::hf::logit_lens(*ck, attn::hf::run_forward<float>(*ck, ids, o), 5);
    REQUIRE(m["lens"].size() == lens.top.size());
    const nlohmann::json& widgets = shot.layout["widgets"];
    const Image image = load_png(shot.png);
    const viz::Colourmap& map = viz::colourmap(viz::ColourOptions{}.probability_map);
    int coloured = 0;
    for (std::size_t row = 0; row < lens.top.size(); ++row) {
      CHECK(m["lens"][row]["name"] == lens.row_names[row]);
      for (std::size_t t = 0; t < ids.size(); ++t) {
        const attn::hf::Prediction& best = lens.top[row][t].front();
        CHECK(m["lens"][row]["top"][t]["id"] == best.id);
        const std::string id = "lens_cell_" + std::to_string(row) + "_" + std::to_string(t);
        REQUIRE_MESSAGE(widgets.contains(id), id);
        const nlohmann::json& r = widgets[id];
        if (r[2].get<double>() > 1400 || (t + 1 < ids.size() && best.id == ids[t + 1])) continue;  // off screen, or outlined
        const viz::Rgba want = viz::sample(map, static_cast<float>(best.probability));
        const viz::Rgba got = image.at(static_cast<int>(r[0].get<double>()) + 1, static_cast<int>(r[1].get<double>()) + 1);
        CHECK_MESSAGE(distance(got, want) <= kColourTolerance, id, ": p ", best.probability);
        ++coloured;
      }
    }
    CHECK(coloured >= 10);
  }

  TEST_CASE("ui: --model-tab attribution draws each head's part of the top guess's logit, in its signed colour") {
    const ModelShot shot = shoot_model("model_attribution", "--model-tab attribution");
    const nlohmann::json& m = shot.state["model"];
    CHECK(m["tab"] == "attribution");
    REQUIRE(m.contains("attribution"));
    // The token is the overview's top guess, and the parts those computed here.
    CHECK(m["attribution"]["token"] == m["predictions"][0]["id"]);
    const auto ck = attn::hf::Checkpoint::open(kGpt2);
    const std::vector<int> ids = m["ids"].get<std::vector<int>>();
    const attn::hf::LogitAttribution a =
        attn::hf::direct_logit_attribution(*ck, ids, static_cast<int>(ids.size()) - 1, m["attribution"]["token"]);
    double largest = 0;
    for (std::size_t l = 0; l < a.heads.size(); ++l) {
      for (std::size_t h = 0; h < a.heads[l].size(); ++h) {
        CHECK(m["attribution"]["heads"][l][h].get<double>() == doctest::Approx(a.heads[l][h]).epsilon(1e-12));
        largest = std::max(largest, std::abs(a.heads[l][h]));
      }
      largest = std::max(largest, std::abs(a.mlps[l]));
    }
    check_signed_map(shot, "attribution", a.heads, largest);
  }

  TEST_CASE("ui: --corrupted draws the patching map, each head in the signed colour of what it brings back") {
    const ModelShot shot = shoot_model("model_patching", "--corrupted \"The cat sat on the mat because the cat was fired\"");
    const nlohmann::json& m = shot.state["model"];
    CHECK(m["tab"] == "patching");
    REQUIRE_MESSAGE(m.contains("patching"), m.value("patching_error", std::string("no map")));
    // The same patching computed here from the same ids, in the same precision.
    const auto ck = attn::hf::Checkpoint::open(kGpt2);
    const attn::hf::PatchingResult r =
        attn::hf::patch_activations<float>(*ck, m["ids"].get<std::vector<int>>(), m["patching"]["corrupted_ids"].get<std::vector<int>>(),
                                           {}, attn::hf::PatchSite::HeadOutput);
    CHECK(m["patching"]["answer"] == r.answer);
    CHECK(m["patching"]["wrong"] == r.wrong);
    for (std::size_t l = 0; l < r.recovered.size(); ++l)
      for (std::size_t h = 0; h < r.recovered[l].size(); ++h) CHECK(m["patching"]["recovered"][l][h].get<double>() == r.recovered[l][h]);
    check_signed_map(shot, "patch", r.recovered, 1.0);  // a share of the gap: full colour at all of it
  }

  TEST_CASE("ui: --corrupted with --layer opens that layer clean (A) against corrupted (B) in the compare view") {
    const ModelShot shot = shoot_model("model_patched_head", "--corrupted \"The cat sat on the mat because the cat was fired\" --layer 1 --head 2");
    const nlohmann::json& c = shot.state["compare"];
    CHECK(c["open"] == true);
    CHECK(c["head"] == 2);
    CHECK(c["label_a"] == "clean");
    CHECK(c["label_b"] == "corrupted: The cat sat on the mat because the cat was fired");
    CHECK(shot.state["model"]["open"] == false);
  }

  // A GGUF beside its F16: the map's numbers are quant_divergence's, each
  // head painted in the signed colour of its mean; with --layer, that layer
  // of the quantized model (A) against the F16 (B) in compare.
  TEST_CASE("ui: --beside on a GGUF draws the quantization map, and with --layer opens the layer quantized against F16") {
    const std::string gguf = std::string(ATTNVIZ_TEST_DATA_DIR) + "/gguf/";
    const std::string text = "the theme of the thesis is the theme";
    const std::string png = temp_path("model_quant.png"), state = temp_path("model_quant_state.json"),
                      layout = temp_path("model_quant_layout.json");
    std::string out;
    REQUIRE_MESSAGE(run(attnviz("--test --size 1400x900 --model \"" + gguf + "wide_q4_k.gguf\" --beside \"" + gguf +
                                "wide_f16.gguf\" --text \"" + text + "\" --screenshot " + png + " --dump-state " + state +
                                " --dump-layout " + layout),
                        &out) == 0,
                    out);
    const ModelShot shot{load_json(state), load_json(layout), png};
    const nlohmann::json& m = shot.state["model"];
    CHECK(m["tab"] == "quantization");
    REQUIRE_MESSAGE(m.contains("quant"), m.value("quant_error", std::string("no map")));
    CHECK(m["quant"]["types"] == "Q4_K, Q6_K");
    CHECK(m["quant"]["beside_types"] == "F16");
    const auto q = attn::hf::Checkpoint::open(gguf + "wide_q4_k.gguf");
    const auto f = attn::hf::Checkpoint::open(gguf + "wide_f16.gguf");
    const attn::hf::QuantDivergence d = attn::hf::quant_divergence(*q, *f, m["ids"].get<std::vector<int>>());
    std::vector<std::vector<double>> means(2, std::vector<double>(4, 0.0));
    double largest = 0;
    REQUIRE(m["quant"]["heads"].size() == d.heads.size());
    for (std::size_t i = 0; i < d.heads.size(); ++i) {
      CHECK(m["quant"]["heads"][i]["mean_bits"].get<double>() == doctest::Approx(d.heads[i].mean).epsilon(1e-12));
      CHECK(m["quant"]["heads"][i]["worst_query"] == d.heads[i].worst_row);
      means[static_cast<std::size_t>(d.heads[i].layer)][static_cast<std::size_t>(d.heads[i].head)] = d.heads[i].mean;
      largest = std::max(largest, d.heads[i].mean);
    }
    check_signed_map(shot, "quant", means, largest);
    // A head clicked (--layer): the compare view, quantized against F16.
    const std::string state2 = temp_path("model_quant_head_state.json");
    REQUIRE(run(attnviz("--test --size 1400x900 --model \"" + gguf + "wide_q4_k.gguf\" --beside \"" + gguf +
                        "wide_f16.gguf\" --text \"" + text + "\" --layer 1 --head 3 --screenshot " + temp_path("model_quant_head.png") +
                        " --dump-state " + state2),
                &out) == 0);
    const nlohmann::json c = load_json(state2)["compare"];
    CHECK(c["open"] == true);
    CHECK(c["head"] == 3);
    CHECK(c["label_a"] == "wide_q4_k.gguf (Q4_K, Q6_K)");
    CHECK(c["label_b"] == "wide_f16.gguf (F16)");
  }

  TEST_CASE("ui: a pinned score of a model's layer shows its split by the model's own residual stream") {
    const ModelShot shot = shoot_model("model_sources", "--layer 1 --head 2 --inspect scores:2:6:3");
    const nlohmann::json& m = shot.state["model"];
    REQUIRE_MESSAGE(m.contains("sources"), m.value("sources_error", std::string("no split")));
    const nlohmann::json& src = m["sources"];
    CHECK(src["layer"] == 1);
    CHECK(src["head"] == 2);
    CHECK(src["query"] == 6);
    CHECK(src["key"] == 3);
    double by_key = 0, by_query = 0;
    for (const auto& [name, part] : src["by_key_source"].items()) by_key += part.get<double>();
    for (const auto& [name, part] : src["by_query_source"].items()) by_query += part.get<double>();
    CHECK(by_key == doctest::Approx(src["score"].get<double>()).epsilon(1e-9));
    CHECK(by_query == doctest::Approx(src["score"].get<double>()).epsilon(1e-9));
    CHECK(src["by_key_source"].contains("L0 H0"));
    CHECK(src["by_key_source"].contains("token embedding"));
    // What the user sees: the inspector's bars, a key source's and a query source's.
    const nlohmann::json& widgets = shot.layout["widgets"];
    CHECK(widgets.contains("why_source_key_0"));
    CHECK(widgets.contains("why_source_query_0"));
  }

  TEST_CASE("ui: presenting at 1024x768, every tab of the Model view, the Patching tab's fields and the Quantization map stay in the window") {
    const ModelShot s = shoot_model("model_present_patching", "--presentation --model-tab patching", "1024x768");
    const nlohmann::json& w = s.layout["widgets"];
    for (const char* n : {"model_tab_overview", "model_tab_heads", "model_tab_lens", "model_tab_attribution",
                          "model_tab_patching", "model_tab_quantization", "patch_corrupted", "patch_answer", "patch_wrong",
                          "patch_run"}) {
      REQUIRE_MESSAGE(w.contains(n), n);
      CHECK_MESSAGE(inside(w[n], 1024, 768), n << " at " << w[n].dump());
    }
    // The Quantization tab's map, the folder beside its own F32 GGUF: every head in view (it sat under a
    // child window one row high).
    const ModelShot q = shoot_model("model_present_quant", "--presentation --beside \"" + std::string(ATTNVIZ_TEST_DATA_DIR) +
                                                               "/gguf/gpt2_f32.gguf\"", "1024x768");
    REQUIRE_MESSAGE(q.state["model"].contains("quant"), q.state["model"].value("quant_error", std::string("no map")));
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h < 4; ++h) {
        const std::string n = "quant_" + std::to_string(l) + "_" + std::to_string(h);
        REQUIRE_MESSAGE(q.layout["widgets"].contains(n), n);
        CHECK_MESSAGE(inside(q.layout["widgets"][n], 1024, 768), n << " at " << q.layout["widgets"][n].dump());
      }
  }
}
