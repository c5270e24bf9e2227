// The class session as the app runs it (ClassFeature in a real Session, no
// window): the lesson's step asks its question of the class afresh, the
// clicker locks, the app's reveal judges the phones' answers, re-open and
// skip, the autosave taken up after a "crash" under the same code, and a
// server that cannot start reported by name. The server is replaced by a
// stand-in here (its own tests use sockets); the room it would serve is the
// one the students' answers go into.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "attn/io/lesson_file.hpp"
#include "model/classroom/class_feature.hpp"
#include "model/document/app_actions.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/session/session.hpp"
#include "test_files.hpp"

namespace {

// Stands in for the web server: records the room, says where it listens.
struct StandInListener : model::ClassListener {
  std::string refuse;  // a start that fails says this
  int port_ = 0;
  std::string start(const std::string& address, int port) override {
    if (!refuse.empty()) return refuse;
    (void)address;
    port_ = port == 0 ? 40000 : port;
    return "";
  }
  void stop() override {}
  int port() const override { return port_; }
  std::string join_address() const override { return "http://127.0.0.1:" + std::to_string(port_); }
};

struct ClassRun {
  model::Session session;
  model::LessonState& lessons;
  model::ClassFeature& feature;
  model::ClassRoom* room = nullptr;
  std::string refuse;

  explicit ClassRun(const std::string& autosave_dir = "")
      : session(scene(), quiet()),
        lessons(session.features().get<model::LessonsFeature>().state),
        feature(session.features().get<model::ClassFeature>()) {
    feature.set_listener_factory([this](model::ClassRoom& r) {
      room = &r;
      auto l = std::make_unique<StandInListener>();
      l->refuse = refuse;
      return l;
    });
    if (!autosave_dir.empty()) feature.set_autosave_dir(autosave_dir);
  }

  static model::AppState scene() {
    model::AppState s;
    s.builtin_text = test_files::builtin();
    model::actions::open_builtin(s);
    return s;
  }
  static model::SessionOptions quiet() {
    model::SessionOptions o;
    o.watch_disk = false;
    return o;
  }

  void settle(double dt = 0.05) {
    for (int i = 0; i < 4; ++i) {
      session.update(dt, model::CanvasMetrics{});
      session.trace_model().wait_idle();
    }
  }
  void open_lesson01() {
    model::actions::start_lesson(session.state(), lessons,
                                 attn::io::load_lesson(std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json"));
    settle();
  }
  void step(int index) {
    model::actions::lesson_step(session.state(), lessons, index);
    settle();
  }
  void join(const std::string& device) { REQUIRE(room->join(device, "student " + device).empty()); }
  std::string answer(const std::string& device, const nlohmann::json& a) {
    return room->answer(device, {{"step", feature.view().question.step}, {"answer", a}});
  }
};

std::string fresh_dir(const std::string& name) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("attnviz_class_feature_" + name)).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("class feature: a step's question is asked afresh, the clicker locks, and the app's reveal judges every phone") {
  ClassRun run;
  run.open_lesson01();
  run.step(4);  // a choice question
  // The teacher answered it when rehearsing...
  model::actions::give_up_lesson(run.session.state(), run.lessons);
  REQUIRE(run.lessons.lesson->revealed());
  run.feature.start(model::ClassStart{"127.0.0.1", 0, std::nullopt, ""});
  run.settle();
  REQUIRE(run.feature.running());
  REQUIRE(run.room != nullptr);
  const model::ClassView& v = run.feature.view();
  CHECK(v.code.size() == 6);
  CHECK(v.join_address == "http://127.0.0.1:40000");
  CHECK(run.feature.qr().size >= 21);  // a QR code of the address and the code
  // ...but the class is asked afresh: the lesson's answer is cleared, so the
  // grids that give it away hide again.
  REQUIRE(v.has_question);
  CHECK(v.question.step == 4);
  CHECK(v.phase == model::QuestionPhase::Open);
  CHECK_FALSE(run.lessons.lesson->revealed());

  for (const char* d : {"phone-0001", "phone-0002", "phone-0003"}) run.join(d);
  CHECK(run.answer("phone-0001", {{"choice", 1}}).empty());
  CHECK(run.answer("phone-0002", {{"choice", 0}}).empty());
  CHECK(run.answer("phone-0002", {{"choice", 2}}).empty());  // changed before the lock
  run.settle();
  CHECK(v.students == 3);
  CHECK(v.answered == 2);
  CHECK_FALSE(v.tally.has_value());  // nothing shown while the class answers

  CHECK(run.feature.clicker_next());  // the clicker's next locks first
  run.settle();
  CHECK(v.phase == model::QuestionPhase::Locked);
  CHECK_FALSE(run.feature.clicker_next());  // then it is the lesson's again
  CHECK_FALSE(run.answer("phone-0003", {{"choice", 1}}).empty());  // too late
  REQUIRE(v.tally.has_value());
  CHECK(v.tally->choice_counts == std::vector<int>{0, 1, 1});
  CHECK(v.tally->right == -1);  // the tally comes before the answer

  run.feature.request(model::ClassCommand::Reveal);
  run.settle();
  CHECK(run.lessons.lesson->revealed());  // the app's own reveal
  CHECK(v.phase == model::QuestionPhase::Revealed);
  REQUIRE(v.tally.has_value());
  // The lesson's right choice, judged as the window judges it.
  const attn::io::LessonQuestion& q = *run.lessons.lesson->current().question;
  const int right_choice = q.answer;
  CHECK(v.tally->right_choice == right_choice);
  const int expected_right = (right_choice == 1 ? 1 : 0) + (right_choice == 2 ? 1 : 0);
  CHECK(v.tally->right == expected_right);

  // Re-open: the class may answer again and the lesson's grids hide again.
  run.feature.request(model::ClassCommand::Reopen);
  run.settle();
  CHECK(v.phase == model::QuestionPhase::Open);
  CHECK_FALSE(run.lessons.lesson->revealed());
  CHECK(run.answer("phone-0003", {{"choice", 1}}).empty());
  run.feature.request(model::ClassCommand::Skip);
  run.settle();
  CHECK(v.phase == model::QuestionPhase::Skipped);

  // A step without a phone form, then back: the record is as it was left.
  run.step(7);
  CHECK_FALSE(v.has_question);
  run.step(4);
  CHECK(v.phase == model::QuestionPhase::Skipped);
  CHECK(v.answered == 3);

  run.feature.request(model::ClassCommand::End);
  run.settle();
  CHECK_FALSE(run.feature.running());
  const std::string csv = run.feature.csv(false);
  CHECK(csv.find("skipped") != std::string::npos);
  CHECK(csv.find("student phone") == std::string::npos);  // no nicknames unless asked
  CHECK(run.feature.csv(true).find("student phone-0001") != std::string::npos);
}

TEST_CASE("class feature: the session survives a crash and resumes under the same code, and ending it removes it") {
  const std::string dir = fresh_dir("resume");
  std::string code;
  {
    ClassRun run(dir);
    run.open_lesson01();
    run.step(1);  // a number question
    run.feature.start(model::ClassStart{"127.0.0.1", 0, std::nullopt, ""});
    run.settle();
    REQUIRE(run.feature.running());
    code = run.feature.view().code;
    run.join("phone-aaaa");
    run.join("phone-bbbb");
    CHECK(run.answer("phone-aaaa", {{"number", 0.25}}).empty());
    run.settle(2.0);  // past the autosave's second
    CHECK(std::filesystem::exists(dir + "/class-session.json"));
    // The run ends without End: as a crash leaves it.
  }
  ClassRun again(dir);
  REQUIRE(again.feature.resume_offer().has_value());
  CHECK(again.feature.resume_offer()->session.code() == code);
  CHECK(again.feature.resume_offer()->step == 1);  // the lesson step the class was on
  again.feature.resume_offered();  // opens the lesson at the class's step, in the background
  // The lesson is checked on a worker: wait for it (20 s at most), not for a count of frames.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while ((!again.lessons.lesson || !again.feature.view().has_question) && std::chrono::steady_clock::now() < deadline) {
    again.settle();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(again.feature.running());
  REQUIRE_MESSAGE(again.lessons.lesson.has_value(), "the resumed lesson never opened");
  const model::ClassView& v = again.feature.view();
  CHECK(v.code == code);
  CHECK(v.students == 2);
  REQUIRE(v.has_question);
  CHECK(v.question.step == 1);
  CHECK(v.answered == 1);
  CHECK(again.lessons.lesson->step() == 1);
  // The student's phone goes on as before: a second answer counts.
  CHECK(again.answer("phone-bbbb", {{"number", 0.5}}).empty());
  again.settle();
  CHECK(v.answered == 2);

  again.feature.request(model::ClassCommand::End);
  again.settle();
  CHECK_FALSE(std::filesystem::exists(dir + "/class-session.json"));
  ClassRun third(dir);
  CHECK_FALSE(third.feature.resume_offer().has_value());
  std::filesystem::remove_all(dir);
}

TEST_CASE("class feature: a damaged autosave is refused by name, and a server that cannot start says why") {
  const std::string dir = fresh_dir("damaged");
  {
    std::ofstream(dir + "/class-session.json") << R"({"format": "attnviz-class-session", "session": {"code": 5}})";
  }
  std::string why;
  CHECK_FALSE(model::read_class_autosave(dir + "/class-session.json", &why).has_value());
  CHECK(why.find("class-session.json") != std::string::npos);
  ClassRun run(dir);
  CHECK_FALSE(run.feature.resume_offer().has_value());

  run.refuse = "the port 8765 is taken on 127.0.0.1";
  run.feature.start(model::ClassStart{"127.0.0.1", 8765, std::nullopt, ""});
  run.settle();
  CHECK_FALSE(run.feature.running());
  CHECK(run.feature.problem().find("the port 8765 is taken") != std::string::npos);
  // Keys pressed with no session do nothing later.
  run.feature.request(model::ClassCommand::Lock);
  run.settle();
  run.refuse.clear();
  run.open_lesson01();
  // A code chosen by hand (a handout's): used as given.
  run.feature.start(model::ClassStart{"127.0.0.1", 0, std::nullopt, "DEMO42"});
  run.settle();
  REQUIRE(run.feature.running());
  CHECK(run.feature.view().code == "DEMO42");
  CHECK(model::session_code_problem("DEMO42").empty());
  CHECK(model::session_code_problem("demo42") == "a session code has only capital letters and digits");
  CHECK(model::session_code_problem("AB1") == "a session code has 4 to 16 characters");
  CHECK(run.feature.view().phase == model::QuestionPhase::Open);
  std::filesystem::remove_all(dir);
}

TEST_CASE("class feature: frozen while slides are exported, it shows each step's record and asks or reveals nothing") {
  ClassRun run;
  run.open_lesson01();
  run.step(4);
  run.feature.start(model::ClassStart{"127.0.0.1", 0, std::nullopt, ""});
  run.settle();
  REQUIRE(run.feature.running());
  run.join("phone-0001");
  CHECK(run.answer("phone-0001", {{"choice", 1}}).empty());
  run.feature.request(model::ClassCommand::Lock);
  run.settle();
  const std::string before = run.room->snapshot().to_json().dump();

  // The export walks every step and reveals each answer, then gives the
  // lesson back as it was, as app_slides.cpp does.
  const nlohmann::json progress = run.lessons.lesson->progress();
  run.feature.freeze(true);
  for (int step = 0; step < run.lessons.lesson->steps(); ++step) {
    run.step(step);
    const model::ClassView& v = run.feature.view();
    CHECK(v.has_question == (step == 4));  // only the step the class was asked shows a record
    if (step == 4) {
      CHECK(v.phase == model::QuestionPhase::Locked);
      REQUIRE(v.tally.has_value());
      CHECK(v.tally->answers == 1);
    }
    model::actions::give_up_lesson(run.session.state(), run.lessons);
    run.settle();
  }
  CHECK(run.room->snapshot().to_json().dump() == before);  // nothing asked, nothing revealed
  CHECK_FALSE(run.feature.clicker_next());                 // keys do nothing either

  run.lessons.lesson->restore(progress);
  run.step(4);
  run.feature.freeze(false);
  run.settle();
  CHECK(run.feature.view().phase == model::QuestionPhase::Locked);
  CHECK(run.room->snapshot().asked().size() == 1);
}
