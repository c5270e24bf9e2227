// Document-level actions. Loading never replaces the current document until
// the new one parsed and validated, so a bad file cannot lose the user's work.
#include "app_actions.hpp"

#include <algorithm>
#include <exception>

#include "embedded_assets.hpp"
#include "viz/scenario_edit.hpp"

namespace viz::actions {
namespace {

void replace_document(AppState& s, attn::io::ScenarioFile file, const std::string& path) {
  // The loader skips unknown keys; say so, since "maks" was meant to be "mask".
  s.notices.clear();
  const std::string name = path.empty() ? "built-in lesson" : path.substr(path.find_last_of("/\\") + 1);
  for (const std::string& w : file.warnings) s.notices.push_back(name + ": " + w);
  s.doc = std::move(file);
  s.path = path;
  s.original = s.doc.scenario;
  s.history.reset(s.doc.scenario);
  ++s.revision;
  s.saved_position = s.history.position();
  s.edit_in_progress = false;
  s.hovered.reset();
  s.pinned.reset();
  s.view.fit_pending = true;
  // Big multi-head scenes start on one head: eight 1024x1024 lanes at once
  // would be too small to read (the bar switches to all heads).
  const attn::Dims d = attn::dims_of(s.doc.scenario);
  s.view.head = d.n_q >= 256 && d.n_heads > 1 ? 0 : -1;
  s.clock.t = 1e300;  // show the finished computation; clamped to the timeline's end
  s.clock.playing = false;
}

}  // namespace

void changed(AppState& s, bool do_commit) {
  ++s.revision;
  if (do_commit) commit(s);
}

void commit(AppState& s) {
  s.history.commit(s.doc.scenario);
  s.edit_in_progress = false;
}

void undo(AppState& s) {
  if (s.edit_in_progress) commit(s);
  if (!s.history.can_undo()) return;
  s.doc.scenario = s.history.undo();
  ++s.revision;
}

void redo(AppState& s) {
  if (!s.history.can_redo()) return;
  s.doc.scenario = s.history.redo();
  ++s.revision;
}

void reset(AppState& s) {
  s.doc.scenario = s.original;
  changed(s);
}

void randomise(AppState& s) {
  edit::randomise(s.doc.scenario, s.seed);
  changed(s);
}

bool open(AppState& s, const std::string& path) {
  try {
    attn::io::ScenarioFile file = attn::io::load_scenario(path);
    replace_document(s, std::move(file), path);
    remember_recent(s, path);
    s.message.clear();
    return true;
  } catch (const std::exception& e) {
    s.message = "Could not open " + path + ": " + e.what();
    return false;
  }
}

void open_builtin(AppState& s) {
  replace_document(s, attn::io::parse_scenario(std::string(embedded::get("default.json"))), "");
}

bool save(AppState& s, const std::string& path) {
  if (s.edit_in_progress) commit(s);  // what is written is a state undo knows
  try {
    attn::io::save_scenario(path, s.doc);
    s.path = path;
    s.saved_position = s.history.position();
    remember_recent(s, path);
    s.message.clear();
    return true;
  } catch (const std::exception& e) {
    s.message = "Could not save " + path + ": " + e.what();
    return false;
  }
}

void notify(AppState& s, const std::string& text) {
  if (std::find(s.notices.begin(), s.notices.end(), text) == s.notices.end()) s.notices.push_back(text);
}

void remember_recent(AppState& s, const std::string& path) {
  s.recent.erase(std::remove(s.recent.begin(), s.recent.end(), path), s.recent.end());
  s.recent.insert(s.recent.begin(), path);
  if (s.recent.size() > 8) s.recent.resize(8);
}

void request_quit(AppState& s) {
  if (s.dirty()) s.confirm_discard = true;
  else s.quit = true;
}

}  // namespace viz::actions
