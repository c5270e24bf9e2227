// The Model view on long and unusual texts, in the running app: a GPT-2
// shaped checkpoint with 1,024 positions (written here, random weights,
// the tiny GPT-2's tokenizer) run on 1,024 tokens keeps its controls and the
// head view's hint in view and draws the lines of the queries in view; a
// text too long says so on both sides with a button to keep its first
// tokens; BERT's "##" pieces show in their chips; a model that cannot be
// opened fails a headless run; --stage/--inspect apply to a model's layer;
// the title and --benchmark name the model.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "random_checkpoint.hpp"
#include "ui_support.hpp"

using namespace ui_test;

namespace {

const std::string kHf = std::string(ATTNVIZ_TEST_DATA_DIR) + "/hf";

// 2 layers x 4 heads, d 32, the tiny GPT-2's 320 tokens, 1,024 positions.
std::string long_gpt2() {
  const std::filesystem::path dir = temp_path("gpt2_1024");
  if (!std::filesystem::exists(dir / "model.safetensors")) {
    bench::write_gpt2_checkpoint(dir, 2, 32, 4, 320, 1024);
    std::filesystem::copy_file(kHf + "/gpt2/tokenizer.json", dir / "tokenizer.json",
                               std::filesystem::copy_options::overwrite_existing);
  }
  return dir.string();
}

std::string words(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "the cat sat on the mat. ";
  return text;
}

struct TextShot {
  int code = 0;
  std::string out;
  Image image;
  nlohmann::json state, layout;
};

TextShot shoot_text(const std::string& name, const std::string& args, const std::string& size = "1400x900") {
  const std::string png = temp_path(name + ".png"), state = temp_path(name + "_state.json"),
                    layout = temp_path(name + "_layout.json");
  std::filesystem::remove(png);
  TextShot s;
  s.code = run(attnviz("--test --size " + size + " " + args + " --screenshot " + png + " --dump-state " + state +
                       " --dump-layout " + layout),
               &s.out);
  s.image = load_png(png);
  if (std::filesystem::exists(state)) s.state = load_json(state);
  if (std::filesystem::exists(layout)) s.layout = load_json(layout);
  return s;
}

bool within(const nlohmann::json& r, double width, double height) {
  return r[0].get<double>() >= 0 && r[1].get<double>() >= 0 && r[2].get<double>() <= width && r[3].get<double>() <= height;
}

// Pixels of the head view's middle (between the two token columns) unlike
// its background: the lines from queries to keys.
int line_pixels(const TextShot& s) {
  const nlohmann::json& r = s.layout["widgets"]["model_head_view"];
  const int x0 = r[0].get<int>(), y0 = r[1].get<int>(), x1 = r[2].get<int>(), y1 = r[3].get<int>();
  const int mx0 = x0 + (x1 - x0) * 2 / 5, mx1 = x0 + (x1 - x0) * 3 / 5;
  const viz::Rgba bg = s.image.at(x1 - 2, y1 - 2);
  int count = 0;
  for (int y = y0 + 2; y < y1 - 2; y += 2)
    for (int x = mx0; x < mx1; x += 2)
      if (distance(s.image.at(x, y), bg) > 30) ++count;
  return count;
}

}  // namespace

TEST_SUITE("model") {
  TEST_CASE("ui: 1,024 tokens: the chips scroll in a bounded region, the predictions, heads and head view stay in view") {
    const std::string dir = long_gpt2();
    for (const std::string size : {"1400x900", "1024x768"}) {
      const double w = size == "1024x768" ? 1024 : 1400, h = size == "1024x768" ? 768 : 900;
      const TextShot s = shoot_text("model_long_" + size, "--model \"" + dir + "\" --text \"" + words(400) +
                                                          "\" --keep-first-tokens --model-tab heads --heads-off 0.1", size);
      REQUIRE_MESSAGE(s.code == 0, s.out);
      const nlohmann::json& m = s.state["model"];
      CHECK(m["error"] == "");
      CHECK(m["ids"].size() == 1024);
      CHECK(m["note"].get<std::string>().find("first 1024 of") != std::string::npos);
      const nlohmann::json& wd = s.layout["widgets"];
      for (const std::string n : {"model_tokens", "model_note", "model_prediction_0", "model_prediction_9", "model_head_view",
                                  "model_head_hint", "model_layer", "model_head_check_3"}) {
        REQUIRE_MESSAGE(wd.contains(n), n);
        CHECK_MESSAGE(within(wd[n], w, h), n << " at " << wd[n].dump() << " in " << size);
      }
      CHECK(wd["model_tokens"][3].get<double>() - wd["model_tokens"][1].get<double>() < h / 2);
      // The lines of the queries in view are drawn (none were past 96 tokens).
      CHECK_MESSAGE(line_pixels(s) > 200, size);
    }
  }

  TEST_CASE("ui: a text longer than the positions: the same error on both sides and a button to keep the first tokens") {
    const TextShot s = shoot_text("model_too_long", "--model \"" + kHf + "/gpt2\" --text \"" + words(40) + "\"");
    REQUIRE_MESSAGE(s.code == 0, s.out);
    const nlohmann::json& m = s.state["model"];
    CHECK(m["too_long"] == true);
    CHECK(m["error"].get<std::string>().find("positions for 64") != std::string::npos);
    const nlohmann::json& wd = s.layout["widgets"];
    for (const std::string n : {"model_error", "model_error_right", "model_keep_first", "model_keep_first_right"}) {
      REQUIRE_MESSAGE(wd.contains(n), n);
      CHECK_MESSAGE(within(wd[n], 1400, 900), n);
    }
    CHECK(wd["model_error_right"][0].get<double>() > wd["model_error"][2].get<double>() - 1);  // the right pane
  }

  TEST_CASE("ui: BERT's ## pieces show their text in the token chips") {
    const TextShot s = shoot_text("model_bert_pieces", "--model \"" + kHf + "/bert\" --text \"the quick foxs jumped\"");
    REQUIRE_MESSAGE(s.code == 0, s.out);
    const nlohmann::json& tokens = s.state["model"]["tokens"];
    int pieces = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const std::string t = tokens[i];
      const std::string id = "model_token_" + std::to_string(i);
      REQUIRE_MESSAGE(s.layout["widgets"].contains(id), id);
      const nlohmann::json& r = s.layout["widgets"][id];
      // The chip is as wide as its text: "##s" is three glyphs, not an empty chip.
      const double min_width = 6.0 * static_cast<double>(t.size()) + 4;
      if (t.rfind("##", 0) == 0) {
        ++pieces;
        CHECK_MESSAGE(r[2].get<double>() - r[0].get<double>() >= min_width, t << " " << r.dump());
      }
    }
    CHECK_MESSAGE(pieces > 0, tokens.dump());
  }

  TEST_CASE("ui: a model that cannot be opened fails a headless run with one line naming it") {
    const std::string bad = temp_path("no_such_model");
    for (const std::string& mode : std::vector<std::string>{"--screenshot " + temp_path("bad_model.png"), "--benchmark --frames 3",
                                   "--screenshot " + temp_path("bad_model2.png") + " --dump-layout " + temp_path("bad_layout.json"),
                                   "--screenshot " + temp_path("bad_model3.png") + " --dump-state " + temp_path("bad_state.json")}) {
      std::string out;
      const int code = run(attnviz("--test --size 1024x768 --model " + bad + " --text hello " + mode), &out);
      CHECK_MESSAGE(code == 2, mode << ": " << out);
      CHECK_MESSAGE(out.find("attnviz: --model " + bad + ": ") != std::string::npos, out);
    }
  }

  TEST_CASE("ui: --stage and --inspect apply to the layer --model --layer opens") {
    const TextShot s = shoot_text("model_layer_inspect", "--model \"" + kHf + "/gpt2\" --text \"the cat sat on the mat\" --layer 1 --head 2 "
                                                     "--stage weights --inspect weights:2:2:1");
    REQUIRE_MESSAGE(s.code == 0, s.out);
    CHECK_MESSAGE(s.out.find("no stage") == std::string::npos, s.out);
    CHECK(s.state["doc_label"] == "gpt2, layer 1, head 2");
    CHECK(s.state["focus_stage"] == "weights");
    REQUIRE(s.state.contains("pinned"));
    CHECK(s.state["pinned"]["stage"] == "weights");
    CHECK(s.state["pinned"]["head"] == 2);
    CHECK(s.state["pinned"]["row"] == 2);
    CHECK(s.state["pinned"]["col"] == 1);
    CHECK(s.state["window_where"] == "gpt2, layer 1, head 2");
    // The export of that stage works as before.
    const std::string csv = temp_path("model_layer_weights.csv");
    std::string out;
    CHECK_MESSAGE(run(attnviz("--test --model \"" + kHf + "/gpt2\" --text \"the cat sat\" --layer 1 --head 2 --stage weights --export " +
                              csv), &out) == 0, out);
    CHECK(std::filesystem::exists(csv));
  }

  TEST_CASE("ui: the title names the model folder in the Model view, and --benchmark --model times the model pass") {
    const TextShot s = shoot_text("model_title", "--model \"" + kHf + "/gpt2\" --text \"the cat\"");
    REQUIRE_MESSAGE(s.code == 0, s.out);
    CHECK(s.state["window_where"] == "model gpt2");
    std::string out;
    REQUIRE(run(attnviz("--test --size 1024x768 --benchmark --frames 5 --model \"" + kHf + "/gpt2\" --text \"the cat sat\""), &out) == 0);
    CHECK_MESSAGE(out.find("attnviz benchmark: model gpt2") != std::string::npos, out);
    CHECK_MESSAGE(out.find("built-in lesson") == std::string::npos, out);
    CHECK_MESSAGE(out.find("model pass") != std::string::npos, out);
    CHECK_MESSAGE(out.find("X value edit") == std::string::npos, out);
  }
}
