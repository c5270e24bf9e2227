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

void compare_with_document(CompareState& c, attn::Scenario a, std::string label_a, std::string label_b, bool open) {
  set_sides(c, std::move(a), std::nullopt, std::move(label_a), std::move(label_b));
  if (open) c.open = true;
}

void compare_switched_off(AppState& s, CompareState& c, attn::Scenario b, std::string label_a, std::string label_b, int head) {
  set_sides(c, std::nullopt, std::move(b), std::move(label_a), std::move(label_b));
  c.stage = attn::StageKind::weights;
  c.head = std::max(head, 0);
  c.open = true;
  notify(s, "This layer twice: A, " + c.label_a + ", against B, " + c.label_b +
                ". Pick any stage or head above the grids; Close (Esc) goes back to the pipeline.");
}

void take_snapshot(AppState& s, CompareState& c) {
  compare_with_document(c, s.doc.scenario, "snapshot", "now", false);
  notify(s, "Snapshot taken. Change the scene, then View > Compare with snapshot shows both and their difference.");
}

void open_compare(AppState& s, CompareState& c) {
  if (!c.a && !c.b) {
    notify(s, "Nothing to compare yet: View > Take snapshot first, then change the scene.");
    return;
  }
  c.open = true;
}

void close_compare(CompareState& c) {
  c.open = false;
  if (c.from_lesson) {  // the lesson's variant is not the user's snapshot
    c = CompareState{false, false, {}, {}, "snapshot", "now", attn::StageKind::weights, 0, c.revision + 1};
  }
}

void choose_compare_stage(CompareState& c, attn::StageKind stage) { c.stage = stage; }

void choose_compare_head(CompareState& c, int head, int heads) { c.head = std::clamp(head, 0, std::max(heads, 1) - 1); }

bool compare_with_file(AppState& s, CompareState& c, const std::string& path) {
  try {
    const attn::io::ScenarioFile f = attn::io::load_scenario(path, attn::io::machine_limits());
    compare_with_document(c, f.scenario, f.title.empty() ? std::filesystem::path(path).stem().string() : f.title,
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
