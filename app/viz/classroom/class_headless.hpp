// `attnviz --lesson FILE --class --test`: the class session without a
// window, for tests, the browser check and the load benchmark. The same
// session, feature and server as the window's; the teacher's clicks come as
// lines on standard input and each is answered with one line of JSON:
//
//   (first)  {"join": "http://127.0.0.1:PORT", "code": "K7M3QX", "step": 1}
//   step N   the lesson's step N (from 1): {"step", "question", "phase"}
//   lock | reopen | skip | reveal        {"phase"}
//   tally    {"phase", "students", "answers", "tally"}
//   csv [nicknames]                      {"csv"}
//   save FILE  the session as autosave writes it ({"saved"}; --class-resume reads it)
//   resume   takes up the session a crash left ({"code"}; needs --config-dir;
//            the first line is then {"resumable": true, "code"}, and `start`
//            begins a fresh session instead)
//   end      (or the end of input)      {"ended": true}, then exit 0
//   anything else                        {"error": "..."}
#pragma once

#include "model_names.hpp"
#include "model/document/app_state.hpp"
#include "model/lessons/lesson_state.hpp"
#include <string>

namespace viz {

// Where the session listens and keeps its autosave (the command line's
// --bind, --port and --config-dir).
struct ClassHeadlessOptions {
  std::string bind;
  int port = -1;
  std::string config_dir;  // "": no autosave, nothing offered back
  std::string code;        // "": a random session code
};

// Runs until `end` or the end of input; the exit code (2 when the server
// could not start).
int run_class_headless(const ClassHeadlessOptions& options, AppState state, LessonState lessons);

}  // namespace viz
