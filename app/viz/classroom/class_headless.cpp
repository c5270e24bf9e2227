// The headless class session: a Session brought up to date after each
// command (the trace computed before it is read, so a step's question is
// asked with the grids it is about), the server on its own threads between.
#include "classroom/class_headless.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/classroom/class_feature.hpp"
#include "model/classroom/class_server.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/session/session.hpp"

namespace viz {

namespace {

nlohmann::json tally_json(const model::ClassTally& t) {
  nlohmann::json j = {{"form", model::form_name(t.form)}, {"answers", t.answers}, {"right", t.right}};
  switch (t.form) {
    case model::ClassQuestion::Form::Choice: j["choice_counts"] = t.choice_counts; j["right_choice"] = t.right_choice; break;
    case model::ClassQuestion::Form::Cell: j["cell_counts"] = t.cell_counts; j["right_cells"] = t.right_cells; break;
    case model::ClassQuestion::Form::Number:
      j["bins"] = t.bins;
      j["low"] = t.low;
      j["high"] = t.high;
      j["truth"] = t.truth ? nlohmann::json(*t.truth) : nlohmann::json(nullptr);
      break;
  }
  return j;
}

class HeadlessClass {
 public:
  HeadlessClass(AppState state, LessonState lessons)
      : session_(std::move(state), quiet(), std::move(lessons)),
        lessons_(session_.features().get<model::LessonsFeature>().state),
        class_(session_.features().get<model::ClassFeature>()) {}

  model::ClassFeature& feature() { return class_; }
  int step() const { return lessons_.lesson ? lessons_.lesson->step() + 1 : 0; }

  // Starts a fresh session: the first line, or why it could not start.
  nlohmann::json start(const ClassHeadlessOptions& options) {
    class_.start(model::ClassStart{options.bind, options.port, std::nullopt, options.code});
    settle();
    if (!class_.running()) return {{"error", class_.problem()}};
    return {{"join", class_.view().join_address}, {"code", class_.view().code}, {"step", step()}};
  }

  // A few frames, each after the trace has finished: enough for a step's
  // scene to compute, the feature to ask its question, and the counts to refresh.
  void settle() {
    for (int i = 0; i < 4; ++i) {
      session_.update(0.05, model::CanvasMetrics{});
      session_.trace_model().wait_idle();
    }
  }

  nlohmann::json phase() const {
    const model::ClassView& v = class_.view();
    return v.has_question ? nlohmann::json(model::phase_name(v.phase)) : nlohmann::json(nullptr);
  }

  nlohmann::json run(const std::string& line) {
    std::istringstream in(line);
    std::string command;
    in >> command;
    if (command == "step") {
      int step = 0;
      if (!(in >> step)) return {{"error", "step needs a number, from 1"}};
      if (!lessons_.lesson) return {{"error", "no lesson is open (start with --lesson FILE)"}};
      if (step < 1 || step > lessons_.lesson->steps())
        return {{"error", "the lesson has steps 1 to " + std::to_string(lessons_.lesson->steps())}};
      model::actions::lesson_step(session_.state(), lessons_, step - 1);
      settle();
      const model::ClassView& v = class_.view();
      return {{"step", step}, {"question", v.has_question ? model::question_json(v.question) : nlohmann::json(nullptr)},
              {"phase", phase()}, {"note", v.note}};
    }
    const std::pair<const char*, model::ClassCommand> commands[] = {
        {"lock", model::ClassCommand::Lock}, {"reopen", model::ClassCommand::Reopen},
        {"skip", model::ClassCommand::Skip}, {"reveal", model::ClassCommand::Reveal}};
    for (const auto& [name, c] : commands)
      if (command == name) {
        class_.request(c);
        settle();
        return {{"phase", phase()}};
      }
    if (command == "tally") {
      settle();
      const model::ClassView& v = class_.view();
      return {{"phase", phase()}, {"students", v.students}, {"answers", v.answered},
              {"tally", v.tally ? tally_json(*v.tally) : nlohmann::json(nullptr)}};
    }
    if (command == "csv") {
      std::string option;
      in >> option;
      return {{"csv", class_.csv(option == "nicknames")}};
    }
    if (command == "save") {
      std::string file;
      std::getline(in >> std::ws, file);
      if (file.empty()) return {{"error", "save needs a file name"}};
      if (std::string failed = class_.save_to(file); !failed.empty()) return {{"error", failed}};
      return {{"saved", file}};
    }
    if (command == "resume") {
      if (!class_.resume_offer()) return {{"error", "no class session was left to resume (it needs --config-dir)"}};
      class_.resume_offered();
      for (int i = 0; i < 40 && (!class_.running() || session_.opening()); ++i) settle();
      if (!class_.running()) return {{"error", class_.problem()}};
      return {{"code", class_.view().code}, {"join", class_.view().join_address}, {"students", class_.view().students},
              {"step", step()}};
    }
    return {{"error", "unknown command \"" + command + "\": step N, lock, reopen, skip, reveal, tally, csv, save FILE, resume or end"}};
  }

 private:
  static model::SessionOptions quiet() {
    model::SessionOptions o;
    o.watch_disk = false;
    return o;
  }

  model::Session session_;
  LessonState& lessons_;
  model::ClassFeature& class_;
};

void reply(const nlohmann::json& j) {
  std::printf("%s\n", j.dump().c_str());
  std::fflush(stdout);
}

}  // namespace

int run_class_headless(const ClassHeadlessOptions& options, AppState state, LessonState lessons) {
  HeadlessClass c(std::move(state), std::move(lessons));
  model::ClassFeature& f = c.feature();
  f.set_listener_factory(&model::make_class_server);
  if (!options.config_dir.empty()) f.set_autosave_dir(options.config_dir);
  // A session a crash left is not overwritten by a fresh one: the first
  // line offers it, and `resume` or `start` decides.
  if (const auto& offer = f.resume_offer()) {
    reply({{"resumable", true}, {"code", offer->session.code()}, {"students", offer->session.students()}});
  } else {
    const nlohmann::json first = c.start(options);
    if (first.contains("error")) {
      std::fprintf(stderr, "attnviz: %s\n", first["error"].get<std::string>().c_str());
      return 2;
    }
    reply(first);
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    if (line == "end") break;
    reply(line == "start" ? c.start(options) : c.run(line));
  }
  f.request(model::ClassCommand::End);
  c.settle();
  reply({{"ended", true}});
  return 0;
}

}  // namespace viz
