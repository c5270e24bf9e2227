// Compare view actions: which scenario each side shows, and the labels.
#include "model/compare/compare_actions.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "attn/io/machine_limits.hpp"
#include "model/document/app_actions.hpp"

namespace model::actions {

namespace {

// The user's comparison (not a lesson's): the two sides (nullopt: the
// document) and their labels; the fixed sides' traces are recomputed.
void set_sides(CompareState& c, std::optional<attn::Scenario> a, std::optional<attn::Scenario> b, std::string label_a,
               std::string label_b) {
  c.a = std::move(a);
  c.b = std::move(b);
  c.from_lesson = false;
  c.label_a = std::move(label_a);
  c.label_b = std::move(label_b);
  ++c.revision;
}

}  // namespace

void compare_with_document(AppState& s, attn::Scenario a, std::string label_a, std::string label_b, bool open) {
  set_sides(s.compare, std::move(a), std::nullopt, std::move(label_a), std::move(label_b));
  if (open) s.compare.open = true;
}

void compare_switched_off(AppState& s, attn::Scenario b, std::string label_a, std::string label_b, int head) {
  CompareState& c = s.compare;
  set_sides(c, std::nullopt, std::move(b), std::move(label_a), std::move(label_b));
  c.stage = "weights";
  c.head = std::max(head, 0);
  c.open = true;
  notify(s, "Before and after: this layer with every head on (A) and with " + c.label_b +
                " (B). Pick any stage or head above the grids; Close (Esc) goes back to the pipeline.");
}

void take_snapshot(AppState& s) {
  compare_with_document(s, s.doc.scenario, "snapshot", "now", false);
  notify(s, "Snapshot taken. Change the scene, then View > Compare with snapshot shows both and their difference.");
}

void open_compare(AppState& s) {
  if (!s.compare.a && !s.compare.b) {
    notify(s, "Nothing to compare yet: View > Take snapshot first, then change the scene.");
    return;
  }
  s.compare.open = true;
}

void close_compare(AppState& s) {
  s.compare.open = false;
  if (s.compare.from_lesson) {  // the lesson's variant is not the user's snapshot
    s.compare = CompareState{false, false, {}, {}, "snapshot", "now", "weights", 0, s.compare.revision + 1};
  }
}

void choose_compare_stage(AppState& s, const std::string& stage) {
  if (!stage.empty()) s.compare.stage = stage;
}

void choose_compare_head(AppState& s, int head, int heads) { s.compare.head = std::clamp(head, 0, std::max(heads, 1) - 1); }

bool compare_with_file(AppState& s, const std::string& path) {
  try {
    const attn::io::ScenarioFile f = attn::io::load_scenario(path, attn::io::machine_limits());
    compare_with_document(s, f.scenario, f.title.empty() ? std::filesystem::path(path).stem().string() : f.title,
                          s.doc.title.empty() ? (s.path.empty() ? std::string("this scene") : std::filesystem::path(s.path).stem().string())
                                              : s.doc.title,
                          true);
    return true;
  } catch (const std::exception& e) {
    s.message = std::string("--compare-with: ") + e.what();
    return false;
  }
}

}  // namespace model::actions
