// The class session as a feature of the app: the teacher starts it (the
// Lessons menu, --class), the server serves the lesson's questions to the
// students' phones, and the projector shows the join address, its QR code,
// the code and "17 of 24 answered", then the class's tally before the app's
// own reveal.
//
// The feature follows the lesson: entering a step with a question asks it of
// the class (afresh, though the teacher answered it when rehearsing); the
// clicker's first press locks the answers and the tally appears; the app's
// reveal ("Show me", or the clicker) reveals to the class too, so each phone
// learns whether it was right. The teacher's buttons and keys only ask
// (request()); update() carries the request out, where the trace is.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "model/classroom/class_autosave.hpp"
#include "model/classroom/class_listener.hpp"
#include "model/classroom/class_room.hpp"
#include "model/classroom/class_tally.hpp"
#include "model/classroom/qr_code.hpp"
#include "model/feature/feature.hpp"

namespace model {

struct LessonState;

enum class ClassCommand { None, Lock, Reopen, Skip, Reveal, End };

// How the teacher asked for the session.
struct ClassStart {
  std::string address;  // "" : the interface of the default route
  int port = -1;        // 0: any free port; -1: kDefaultPort, or any free one when it is taken
  std::optional<ClassAutosave> resume;  // a crashed session taken up again
  std::string code;     // "": a random one (new_session_code)
};

// What the projector's corner and the panel show, refreshed when the
// session changes (never computed while drawing).
struct ClassView {
  std::string code, join_address, note;  // note: "only this computer can join", a step asked on the projector
  int students = 0, answered = 0;
  bool has_question = false;
  QuestionPhase phase = QuestionPhase::Open;
  ClassQuestion question;
  std::optional<ClassTally> tally;  // once locked: the class's answers
};

class ClassFeature : public PanelFeature {
 public:
  static constexpr int kDefaultPort = 8765;

  explicit ClassFeature(LessonState& lessons);
  ~ClassFeature() override;

  std::string_view name() const override { return "class"; }
  void update(FeatureFrame& frame) override;
  // Answers arrive without input: the window looks a few times a second.
  bool working() const override { return running(); }
  void dump(nlohmann::json& out) const override;

  // Set once by the app: how to make the web server (the feature is tested
  // with the real one on loopback).
  void set_listener_factory(MakeClassListener make) { make_listener_ = std::move(make); }
  // Where the autosave lives; a session left there is offered back (resume_offer).
  void set_autosave_dir(const std::string& dir);

  // The teacher's asks, carried out in the next update().
  void start(ClassStart how);
  void request(ClassCommand c) { command_ = c; }
  // The clicker's "next": while the class may still answer, it locks them
  // (true: the press is used); otherwise it is the lesson's.
  bool clicker_next();
  // While the lesson is exported as slides, the export walks its steps: the
  // class must not be asked them nor see them revealed. Frozen, the feature
  // only shows each step's record as it stands (its tally on its slide) and
  // changes nothing; thawed, it follows the teacher's step again.
  void freeze(bool on);
  // Takes up the offered session, or drops it.
  void resume_offered();
  void discard_offer();

  bool running() const { return listener_ != nullptr; }
  const ClassView& view() const { return view_; }
  const QrCode& qr() const { return qr_; }
  // Why the last start failed, or what went wrong since; "" when fine.
  const std::string& problem() const { return problem_; }
  // "Students join at http://…" once, for standard output.
  std::string take_announcement() { return std::exchange(announcement_, std::string()); }
  const std::optional<ClassAutosave>& resume_offer() const { return offer_; }
  // Writes the session as autosave does, to `file` (a fixture, a copy kept
  // by hand); "" or why not.
  std::string save_to(const std::string& file) const;
  // The session as CSV (the last one after it ended); "" when there is none.
  std::string csv(bool nicknames) const;
  bool csv_nicknames = false;  // the panel's "include nicknames" box
  // The corner shows the QR code while the class may answer (a late student
  // can still join), and a line once the tally needs the room; a click on
  // it keeps it to the line.
  bool corner_full = true;
  // Writes csv(csv_nicknames) to `path` in the next update; csv_saved() then
  // says where, or problem() why not.
  void save_csv(std::string path) { csv_request_ = std::move(path); }
  const std::string& csv_saved() const { return csv_saved_; }

 private:
  void begin();
  void follow_lesson(FeatureFrame& frame);
  void carry_out(FeatureFrame& frame);
  void reveal_with_lesson(FeatureFrame& frame);
  void refresh(int step);
  void autosave(double dt, bool now);
  void finish();

  LessonState& lessons_;
  MakeClassListener make_listener_;
  std::optional<ClassStart> start_;
  std::optional<std::string> csv_request_;
  std::string csv_saved_;
  ClassCommand command_ = ClassCommand::None;
  std::unique_ptr<ClassRoom> room_;
  std::unique_ptr<ClassListener> listener_;
  std::string address_;  // what the server listens on
  std::string network_note_;  // why only this computer can join, when no network was found
  int followed_step_ = -1;
  std::string lesson_path_;  // the lesson and step the class was on at the last update
  int lesson_step_ = 0;
  bool frozen_ = false;
  int seen_step_ = -2;  // the step refresh() last showed (frozen), with seen_revision_
  std::string followed_lesson_;
  std::uint64_t seen_revision_ = ~0ull, saved_revision_ = ~0ull;
  double since_save_ = 0;
  ClassView view_;
  QrCode qr_;
  std::string problem_, announcement_;
  std::string autosave_file_;
  std::optional<ClassAutosave> offer_;
};

}  // namespace model
