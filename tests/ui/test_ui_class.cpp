// The class session in the window: students (HTTP clients here, as a phone's
// page would send) join and answer lesson 01's choice question; the count
// reaches the state the window reports, B locks the answers and the tally
// appears over the canvas, the clicker's next reveals, and each phone then
// learns whether it was right, judged as the lesson judges. Also the
// projector at 1024x768: the corner and the tally lie inside the window,
// apart, the corner over no grid, and the tally's bars and the answer's
// green mark are on screen.
#include <doctest/doctest.h>

#include <httplib.h>

#include <string>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"
#include "ui_support.hpp"

namespace {

const std::string kLesson01 = std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json";
const std::string kSession = std::string(ATTNVIZ_TEST_DATA_DIR) + "/class/lesson01-class.json";

bool has_class(const nlohmann::json& j) { return j.contains("class") && j["class"].is_object(); }

nlohmann::json post(httplib::Client& c, const std::string& path, const nlohmann::json& body) {
  const httplib::Result r = c.Post(path.c_str(), body.dump(), "application/json");
  REQUIRE_MESSAGE(r, "no reply to " << path);
  INFO(path, " -> ", r->status, " ", r->body);
  CHECK(r->status == 200);
  return nlohmann::json::parse(r->body, nullptr, false);
}

struct Rect {
  double x0, y0, x1, y1;
};
Rect rect_of(const nlohmann::json& layout, const std::string& widget) {
  const nlohmann::json& w = layout["widgets"][widget];
  REQUIRE_MESSAGE(w.is_array(), "no " << widget << " in the layout dump");
  return {w[0].get<double>(), w[1].get<double>(), w[2].get<double>(), w[3].get<double>()};
}

// Pixels of `rect` within `tolerance` of `colour`.
int count_colour(const Image& image, const Rect& rect, viz::Rgba colour, int tolerance = 12) {
  int n = 0;
  for (int y = static_cast<int>(rect.y0); y < static_cast<int>(rect.y1) && y < image.height; ++y)
    for (int x = static_cast<int>(rect.x0); x < static_cast<int>(rect.x1) && x < image.width; ++x) {
      const viz::Rgba p = image.at(x, y);
      if (std::abs(p.r - colour.r) <= tolerance && std::abs(p.g - colour.g) <= tolerance && std::abs(p.b - colour.b) <= tolerance) ++n;
    }
  return n;
}

}  // namespace

TEST_SUITE("class") {
  TEST_CASE("ui: phones answer, B locks and shows the tally, the clicker reveals, each phone learns if it was right") {
    const attn::io::LessonFile lesson = attn::io::load_lesson(kLesson01);
    const int right = lesson.steps[4].question->answer;  // step 5: a choice
    RunningApp app("--lesson \"" + kLesson01 + "\" --step 5 --class --bind 127.0.0.1 --port 0", "class", true);
    const nlohmann::json started = wait_for(app.state, [](const nlohmann::json& j) {
      return has_class(j) && j["class"]["running"] == true && j["class"]["question"] == 4;
    });
    REQUIRE_MESSAGE(started.is_object(), "the class session did not start on step 5's question");
    CHECK(started["class"]["phase"] == "open");
    const std::string join = started["class"]["join"];
    const std::string code = started["class"]["code"];
    REQUIRE(join.rfind("http://127.0.0.1:", 0) == 0);
    httplib::Client phone("127.0.0.1", std::stoi(join.substr(join.rfind(':') + 1)));

    // Three phones: two answer right, one wrong; one changes its mind first.
    const int wrong = (right + 1) % 3;
    const std::pair<const char*, int> answers[] = {{"ui-phone-01", right}, {"ui-phone-02", right}, {"ui-phone-03", wrong}};
    for (const auto& [device, choice] : answers) {
      post(phone, "/api/join", {{"code", code}, {"device", device}, {"nickname", device}});
      if (std::string(device) == "ui-phone-02")
        post(phone, "/api/answer", {{"code", code}, {"device", device}, {"step", 4}, {"answer", {{"choice", wrong}}}});
      post(phone, "/api/answer", {{"code", code}, {"device", device}, {"step", 4}, {"answer", {{"choice", choice}}}});
    }
    const nlohmann::json counted = wait_for(app.state, [](const nlohmann::json& j) { return has_class(j) && j["class"]["answered"] == 3; });
    REQUIRE_MESSAGE(counted.is_object(), "the window never counted the three answers");
    CHECK(counted["class"]["students"] == 3);
    CHECK(counted["class"]["tally"] == false);  // no tally while the class answers

    drive(app);
    key("b");
    const nlohmann::json locked = wait_for(app.state, [](const nlohmann::json& j) { return has_class(j) && j["class"]["phase"] == "locked"; });
    REQUIRE_MESSAGE(locked.is_object(), "B did not lock the answers");
    CHECK(locked["class"]["tally"] == true);
    CHECK(locked["lesson"]["revealed"] == false);  // the class's tally comes before the app's reveal
    const nlohmann::json layout = settled(app.layout, "class.tally");
    REQUIRE_MESSAGE(layout.is_object(), "the tally is not on screen");
    // A late answer is refused.
    const httplib::Result late = phone.Post("/api/answer", nlohmann::json{{"code", code}, {"device", "ui-phone-03"}, {"step", 4}, {"answer", {{"choice", right}}}}.dump(), "application/json");
    REQUIRE(late);
    CHECK(late->status != 200);

    key("Next");  // Page Down: the clicker's next, now the lesson's: the app reveals
    const nlohmann::json revealed = wait_for(app.state, [](const nlohmann::json& j) { return has_class(j) && j["class"]["phase"] == "revealed"; });
    REQUIRE_MESSAGE(revealed.is_object(), "the clicker did not reveal");
    CHECK(revealed["lesson"]["revealed"] == true);
    for (const auto& [device, choice] : answers) {
      const httplib::Result r = phone.Get(("/api/state?code=" + code + "&device=" + device).c_str());
      REQUIRE(r);
      const nlohmann::json v = nlohmann::json::parse(r->body);
      INFO(device, ": ", r->body);
      CHECK(v["truth"]["choice"] == right);
      CHECK(v["right"] == (choice == right));
    }
  }

  TEST_CASE("ui: at 1024x768 presenting, the corner and the tally are inside the window, apart, with the bars and the answer drawn") {
    const Shot shot = shoot(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json", "class_1024", "--lesson \"" + kLesson01 + "\" --step 2 --class --class-resume \"" + kSession +
                                                         "\" --bind 127.0.0.1 --port 0 --presentation", 1024, 768);
    const Rect corner = rect_of(shot.layout, "class.corner"), tally = rect_of(shot.layout, "class.tally");
    for (const Rect& r : {corner, tally}) {
      CHECK(r.x0 >= 0);
      CHECK(r.y0 >= 0);
      CHECK(r.x1 <= 1024);
      CHECK(r.y1 <= 768);
    }
    CHECK((corner.y1 <= tally.y0 || tally.y1 <= corner.y0));  // one above the other, not overlapping
    // The corner covers no grid: it has a strip of its own above the canvas.
    REQUIRE(shot.layout["grids"].size() > 0);
    for (const nlohmann::json& g : shot.layout["grids"]) {
      INFO("grid ", g["id"], " at y ", g["y0"], "..", g["y1"], ", x ", g["x0"], "..", g["x1"]);
      const bool apart = g["y0"].get<double>() >= corner.y1 || g["x1"].get<double>() <= corner.x0 ||
                         g["x0"].get<double>() >= corner.x1 || g["y1"].get<double>() <= corner.y0;
      CHECK(apart);
    }
    // The histogram's bars and the true value's line are drawn (colours of
    // class_tally_view.cpp), inside the tally window only.
    CHECK(count_colour(shot.image, tally, viz::Rgba{90, 140, 220, 255}) > 400);
    CHECK(count_colour(shot.image, tally, viz::Rgba{40, 170, 90, 255}) > 40);
    // The step's own grids still have most of the canvas: the tally takes at most 60% of either side.
    CHECK(tally.x1 - tally.x0 <= 1024 * 0.6);
    CHECK(tally.y1 - tally.y0 <= 768 * 0.61);
  }
}
