// ClassFeature: starting and ending the server, following the lesson's steps,
// and carrying out the teacher's asks where the trace is (a reveal judges
// every phone's answer against the numbers the scene computes).
#include "model/classroom/class_feature.hpp"

#include <nlohmann/json.hpp>

#include "attn/io/text_file.hpp"
#include "attn/platform/network.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/lessons/lesson_opening.hpp"
#include "model/lessons/lesson_state.hpp"
#include "model/trace/trace_model.hpp"

namespace model {

namespace {

// The trace shown belongs to the document as it is now (not an older state
// still on screen while a step's scene computes, nor a preview).
const attn::Trace* settled_trace(const TraceModel& t) {
  return t.has_trace() && !t.stale() && !t.preview() ? &t.trace() : nullptr;
}

bool may_answer(QuestionPhase p) { return p == QuestionPhase::Open || p == QuestionPhase::Locked; }

}  // namespace

ClassFeature::ClassFeature(LessonState& lessons) : lessons_(lessons) {}

ClassFeature::~ClassFeature() {
  // A quit before the teacher ended the session keeps it on disk, up to
  // the last answer, so the next start can take it up again.
  if (running()) autosave(0, true);
  listener_.reset();
}

void ClassFeature::set_autosave_dir(const std::string& dir) {
  autosave_file_ = dir.empty() ? "" : class_autosave_file(dir);
  offer_.reset();
  if (!autosave_file_.empty()) offer_ = read_class_autosave(autosave_file_);
}

void ClassFeature::start(ClassStart how) { start_ = std::move(how); }

bool ClassFeature::clicker_next() {
  if (!running() || !view_.has_question || view_.phase != QuestionPhase::Open) return false;
  command_ = ClassCommand::Lock;
  return true;
}

void ClassFeature::resume_offered() {
  if (!offer_) return;
  ClassAutosave a = std::move(*offer_);
  offer_.reset();
  if (!a.lesson.empty()) actions::request_lesson(lessons_, a.lesson, a.step + 1);
  lesson_path_ = a.lesson;  // saved as such until the lesson is open again
  lesson_step_ = a.step;
  ClassStart how;
  how.address = a.address;
  how.port = a.port;
  how.resume = std::move(a);
  start(std::move(how));
}

void ClassFeature::discard_offer() {
  offer_.reset();
  if (!autosave_file_.empty()) remove_class_autosave(autosave_file_);
}

void ClassFeature::update(FeatureFrame& frame) {
  // Where the class is, kept for the autosave: the destructor saves too,
  // when the lessons feature may already be gone.
  if (lessons_.lesson && !frozen_) {  // (an export walks the steps)
    lesson_path_ = lessons_.lesson->lesson().path;
    lesson_step_ = lessons_.lesson->step();
  }
  if (start_) begin();
  if (!running()) command_ = ClassCommand::None;  // a key pressed with no session
  if (!room_) return;
  if (running() && !frozen_) {
    follow_lesson(frame);
    carry_out(frame);
    reveal_with_lesson(frame);
  }
  // Frozen: the record of the step the export shows, untouched.
  refresh(frozen_ && lessons_.lesson ? lessons_.lesson->step() : -1);
  if (running()) autosave(frame.dt, false);
  if (csv_request_) {
    const std::string path = std::move(*csv_request_);
    csv_request_.reset();
    try {
      attn::io::write_text_atomically(path, csv(csv_nicknames));
      csv_saved_ = "Saved " + path;
    } catch (const std::exception& e) {
      problem_ = e.what();
    }
  }
}

void ClassFeature::begin() {
  ClassStart how = std::move(*start_);
  start_.reset();
  if (!make_listener_) {
    problem_ = "this build of attnviz has no web server for a class session";
    return;
  }
  if (running()) finish();
  std::string address = how.address;
  network_note_.clear();
  if (address.empty()) {
    if (const auto lan = attn::platform::default_lan_interface()) {
      address = lan->address;
    } else {
      address = "127.0.0.1";
      network_note_ = "No network was found, so only this computer can join. Connect it to the class's network and start again.";
    }
  }
  room_ = std::make_unique<ClassRoom>(how.resume ? std::move(how.resume->session)
                                                 : ClassSession(how.code.empty() ? new_session_code() : how.code));
  auto listener = make_listener_(*room_);
  std::string failed = listener->start(address, how.port < 0 ? kDefaultPort : how.port);
  // The usual port is taken (another program, another class): any free one
  // will do, since students follow the QR code or the address shown.
  if (!failed.empty() && how.port < 0) failed = listener->start(address, 0);
  if (!failed.empty()) {
    problem_ = "The class session could not start: " + failed + ".";
    room_.reset();
    return;
  }
  listener_ = std::move(listener);
  offer_.reset();  // a fresh session's autosave replaces the one offered
  address_ = address;
  problem_.clear();
  view_ = ClassView{};
  view_.code = room_->code();
  view_.join_address = listener_->join_address();
  view_.note = network_note_;
  qr_ = encode_qr(view_.join_address + "/?code=" + view_.code);
  announcement_ = "Students join at " + view_.join_address + " with the code " + view_.code;
  followed_step_ = -1;
  followed_lesson_.clear();
  seen_revision_ = saved_revision_ = ~0ull;
  seen_step_ = -2;
  autosave(0, true);
}

void ClassFeature::follow_lesson(FeatureFrame& frame) {
  if (!lessons_.lesson) {
    if (followed_step_ != -1) room_->change([](ClassSession& s) { s.show(-1); });
    followed_step_ = -1;
    return;
  }
  LessonSession& lesson = *lessons_.lesson;
  if (lesson.step() == followed_step_ && lesson.lesson().path == followed_lesson_) return;
  const attn::Trace* trace = settled_trace(frame.trace);
  if (!trace) return;  // the step's scene is still computing: ask once its grids are there
  followed_step_ = lesson.step();
  followed_lesson_ = lesson.lesson().path;
  std::string why;
  std::optional<ClassQuestion> q;
  if (lesson.current().question) q = class_question(lesson.current(), lesson.step(), *trace, &why);
  bool asked_now = false;
  bool revealed_before = false;
  room_->change([&](ClassSession& s) {
    if (s.show(followed_step_)) {
      revealed_before = s.current()->phase == QuestionPhase::Revealed;
      return;
    }
    if (!q) return;
    s.ask(*q);
    asked_now = true;
  });
  // Back at a step the class saw revealed (or a resumed session): the
  // window shows the answer too.
  if (revealed_before && !lesson.revealed()) actions::give_up_lesson(frame.state, lessons_);
  // The teacher rehearsed the lesson: its answers are theirs, not the class's.
  if (asked_now) lesson.reopen(followed_step_);
  // The step's own note (a question answered on the projector) after the
  // network's, which stays while the session runs.
  const std::string step_note = q || !lesson.current().question ? "" : why;
  view_.note = network_note_ + (network_note_.empty() || step_note.empty() ? "" : " ") + step_note;
}

void ClassFeature::carry_out(FeatureFrame& frame) {
  const ClassCommand c = std::exchange(command_, ClassCommand::None);
  switch (c) {
    case ClassCommand::None: return;
    case ClassCommand::Lock: room_->change([](ClassSession& s) { s.lock(); }); break;
    case ClassCommand::Skip: room_->change([](ClassSession& s) { s.skip(); }); break;
    case ClassCommand::Reopen: {
      int step = -1;
      room_->change([&](ClassSession& s) {
        s.reopen();
        if (s.current()) step = s.current()->question.step;
      });
      if (lessons_.lesson && step == lessons_.lesson->step()) lessons_.lesson->reopen(step);
      break;
    }
    case ClassCommand::Reveal:
      // The app's own reveal; reveal_with_lesson then reveals to the class.
      if (lessons_.lesson && !lessons_.lesson->revealed()) actions::give_up_lesson(frame.state, lessons_);
      break;
    case ClassCommand::End: finish(); return;
  }
  autosave(0, true);
}

void ClassFeature::reveal_with_lesson(FeatureFrame& frame) {
  if (!running() || !lessons_.lesson || !lessons_.lesson->revealed()) return;
  const LessonSession& lesson = *lessons_.lesson;
  if (!lesson.current().question || !view_.has_question) return;
  const attn::Trace* trace = settled_trace(frame.trace);
  if (!trace) return;
  const attn::io::LessonQuestion& q = *lesson.current().question;
  bool revealed = false;
  room_->change([&](ClassSession& s) {
    const QuestionRecord* r = s.current();
    if (!r || r->question.step != lesson.step() || !may_answer(r->phase)) return;
    s.reveal(lesson_judge(q, *trace), lesson_truth(q, *trace));
    revealed = true;
  });
  if (revealed) autosave(0, true);
}

void ClassFeature::freeze(bool on) {
  frozen_ = on;
  if (!on) followed_step_ = -1;  // the teacher's step again, as the lesson is given back
  command_ = ClassCommand::None;
}

void ClassFeature::refresh(int step) {
  const std::uint64_t revision = room_->revision();
  if (revision == seen_revision_ && step == seen_step_) return;
  seen_revision_ = revision;
  seen_step_ = step;
  room_->read([&](const ClassSession& s) {
    view_.students = s.students();
    const QuestionRecord* r = s.current();
    if (step >= 0) {
      r = nullptr;
      for (const QuestionRecord& asked : s.asked())
        if (asked.question.step == step) r = &asked;
    }
    view_.answered = r ? static_cast<int>(r->answers.size()) : 0;
    view_.has_question = r != nullptr;
    view_.tally.reset();
    if (!r) return;
    view_.phase = r->phase;
    view_.question = r->question;
    if (r->phase == QuestionPhase::Locked || r->phase == QuestionPhase::Revealed) view_.tally = tally(*r);
  });
}

void ClassFeature::autosave(double dt, bool now) {
  since_save_ += dt;
  if (autosave_file_.empty() || !room_) return;
  const std::uint64_t revision = room_->revision();
  if (revision == saved_revision_ || (!now && since_save_ < 1.0)) return;
  if (std::string failed = save_to(autosave_file_); !failed.empty()) problem_ = "The class session is not being saved: " + failed;
  saved_revision_ = revision;
  since_save_ = 0;
}

std::string ClassFeature::save_to(const std::string& file) const {
  if (!room_) return "no class session has started";
  ClassAutosave a;
  room_->read([&](const ClassSession& s) { a.session = s; });
  a.lesson = lesson_path_;
  a.step = lesson_step_;
  a.address = address_;
  a.port = listener_ ? listener_->port() : 0;
  return write_class_autosave(file, a);
}

void ClassFeature::finish() {
  if (room_) room_->change([](ClassSession& s) { s.end(); });
  listener_.reset();  // stops the server and waits for its threads
  if (!autosave_file_.empty()) remove_class_autosave(autosave_file_);
  view_.has_question = false;
}

std::string ClassFeature::csv(bool nicknames) const {
  if (!room_) return "";
  std::string out;
  room_->read([&](const ClassSession& s) { out = session_csv(s, nicknames); });
  return out;
}

void ClassFeature::dump(nlohmann::json& out) const {
  if (!room_) return;
  out["class"] = {{"running", running()}, {"code", view_.code}, {"join", view_.join_address},
                  {"students", view_.students}, {"answered", view_.answered},
                  {"question", view_.has_question ? view_.question.step : -1},
                  {"phase", view_.has_question ? phase_name(view_.phase) : ""},
                  {"tally", view_.tally.has_value()}, {"problem", problem_}};
}

}  // namespace model
