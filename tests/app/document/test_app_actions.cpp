// Document actions on AppState, with no window: loading is all or nothing,
// "edited" means the content differs from the file, the unsaved-edits
// question (Save / Discard / Cancel) carries on with what was asked, shape
// edits restore what they cut off, and limit notices follow undo.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "attn/io/scenario_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/scenario_edit.hpp"
#include "model/trace/trace_model.hpp"

#include "test_files.hpp"

namespace {

namespace fs = std::filesystem;
using model::AppState;
using model::PendingAction;
namespace actions = model::actions;

using test_files::read;

AppState lesson() {
  AppState s;
  s.builtin_text = read(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json");
  actions::open_builtin(s);
  return s;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("attnviz_test_actions_" + name);
  std::ofstream(p) << text;
  return p.string();
}

const char* kOverflow = R"({"format": "attnviz-scenario", "version": 1, "title": "Overflowing",
  "tokens": ["big", "small"], "x": [[1e308, 1], [0.5, 2]], "scale": "none"})";

void edit_x(AppState& s, double v) {
  s.doc.scenario.x(0, 0) = v;
  actions::changed(s);
}

}  // namespace

TEST_CASE("actions: opening a file that overflows replaces the document whole, the model shows no old grids") {
  AppState s = lesson();
  model::TraceModel m;
  m.update(s.doc.scenario, s.document, s.revision, {});
  REQUIRE(m.has_trace());
  edit_x(s, 0.25);
  REQUIRE(s.dirty());
  actions::request(s, {PendingAction::Kind::Open, temp_file("overflow.json", kOverflow)});
  CHECK(s.confirm_discard);  // asks first
  actions::answer(s, actions::Answer::Discard);
  CHECK(s.doc.title == "Overflowing");
  CHECK_FALSE(s.history.can_undo());  // a fresh history: nothing offers an undo
  CHECK_FALSE(s.dirty());
  m.update(s.doc.scenario, s.document, s.revision, {});
  CHECK_FALSE(m.has_trace());  // not the lesson's grids under the new title
  CHECK(m.error().find("overflowed") != std::string::npos);
  REQUIRE_FALSE(m.offending().empty());
  CHECK(m.offending()[0].matrix == attn::StageKind::x);
  CHECK(m.offending()[0].row == 0);
  CHECK(m.offending()[0].col == 0);
}

TEST_CASE("actions: a file that cannot be read keeps the document, its edits and its history") {
  AppState s = lesson();
  edit_x(s, 0.25);
  const std::uint64_t document = s.document;
  CHECK_FALSE(actions::open(s, temp_file("truncated.json", R"({"x": [[1, 2], [3)")));
  CHECK(s.document == document);
  CHECK(s.doc.scenario.x(0, 0) == 0.25);
  CHECK(s.history.can_undo());
  CHECK(s.message.find("truncated.json") != std::string::npos);
  CHECK(s.message.find("truncated.json") == s.message.rfind("truncated.json"));  // the path once
}

TEST_CASE("actions: an edit of the same document that overflows keeps its last good trace, marked stale") {
  AppState s = lesson();
  model::TraceModel m;
  m.update(s.doc.scenario, s.document, s.revision, {});
  edit_x(s, 1e308);
  m.update(s.doc.scenario, s.document, s.revision, {});
  CHECK(m.has_trace());
  CHECK(m.stale());
  actions::undo(s);
  m.update(s.doc.scenario, s.document, s.revision, {});
  CHECK_FALSE(m.stale());
  CHECK(m.error().empty());
}

TEST_CASE("actions: edited means the content differs from the saved file") {
  AppState s = lesson();
  CHECK_FALSE(s.dirty());
  actions::randomise(s);
  CHECK(s.dirty());
  actions::reset(s);  // the identical scenario again
  CHECK_FALSE(s.dirty());
  CHECK(s.history.can_undo());  // yet both steps are in the history
  edit_x(s, 0.5);
  CHECK(s.dirty());
  const std::string path = (fs::temp_directory_path() / "attnviz_test_actions_saved.json").string();
  REQUIRE(actions::save(s, path));
  CHECK_FALSE(s.dirty());
  actions::undo(s);
  CHECK(s.dirty());  // now it differs from what was saved
}

TEST_CASE("actions: Save / Discard / Cancel carry on with what was asked") {
  SUBCASE("cancel keeps the edits and the history") {
    AppState s = lesson();
    edit_x(s, 0.25);
    actions::request_quit(s);
    CHECK(s.confirm_discard);
    actions::answer(s, actions::Answer::Cancel);
    CHECK_FALSE(s.quit);
    CHECK(s.doc.scenario.x(0, 0) == 0.25);
    CHECK(s.history.can_undo());
  }
  SUBCASE("save on the built-in lesson asks for a path, then carries on") {
    AppState s = lesson();
    edit_x(s, 0.25);
    actions::request_quit(s);
    actions::answer(s, actions::Answer::Save);
    CHECK(s.save_dialog);
    CHECK_FALSE(s.quit);
    const std::string path = (fs::temp_directory_path() / "attnviz_test_actions_saveas.json").string();
    actions::save_as_closed(s, actions::save(s, path));
    CHECK(s.quit);
    CHECK(attn::io::load_scenario(path).scenario.x(0, 0) == 0.25);
  }
  SUBCASE("a cancelled save-as drops the pending action") {
    AppState s = lesson();
    edit_x(s, 0.25);
    actions::request_quit(s);
    actions::answer(s, actions::Answer::Save);
    actions::save_as_closed(s, false);
    CHECK_FALSE(s.quit);
    CHECK(s.pending.kind == PendingAction::Kind::None);
  }
  SUBCASE("no edits: no question") {
    AppState s = lesson();
    actions::request_quit(s);
    CHECK(s.quit);
    CHECK_FALSE(s.confirm_discard);
  }
}

TEST_CASE("actions: a trained layer's head opened over unsaved edits opens on that head after Discard (and after Save)") {
  for (const actions::Answer how : {actions::Answer::Discard, actions::Answer::Save}) {
    AppState s = lesson();
    edit_x(s, 0.25);
    PendingAction a;
    a.kind = PendingAction::Kind::ShowScene;
    auto scene = std::make_shared<attn::io::ScenarioFile>(attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json"));
    a.scene = scene;
    a.label = "trained layer 1, step 150";
    a.head = 1;
    bool followed = false;
    a.then = [&](AppState&) { followed = true; };  // the Train view closes itself here in the app
    actions::request(s, a);
    REQUIRE(s.confirm_discard);
    actions::answer(s, how);
    if (how == actions::Answer::Save) {  // the built-in lesson: Save asks where, then carries on
      REQUIRE(s.save_dialog);
      actions::save_as_closed(s, actions::save(s, (fs::temp_directory_path() / "attnviz_test_actions_trained.json").string()));
    }
    CHECK(s.view.head == 1);
    CHECK(followed);  // once, after Discard or after the Save
    CHECK(s.doc_label == "trained layer 1, step 150");
  }
}

TEST_CASE("actions: shrinking a shape and growing it back restores what was there") {
  AppState s = lesson();
  const attn::Scenario before = s.doc.scenario;
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_n_tokens(x, model::edit::Sequence::Queries, 2); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_n_tokens(x, model::edit::Sequence::Queries, 4); });
  CHECK(attn::scenario_difference(s.doc.scenario, before) == "");
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_d_k(x, 1); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_n_heads(x, 1); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_d_model(x, 2); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_d_model(x, 4); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_d_k(x, 3); });
  CHECK(attn::scenario_difference(s.doc.scenario, before) == "");
  CHECK_FALSE(s.dirty());
  // Each reshape is one undo step.
  CHECK(s.history.undo_size() == 7);
}

TEST_CASE("actions: heads removed and added back come back with their weights") {
  AppState s;
  s.builtin_text = read(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/four_heads.json");
  actions::open_builtin(s);
  const attn::Scenario before = s.doc.scenario;
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_n_heads(x, 1); });
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_n_heads(x, 4); });
  CHECK(attn::scenario_difference(s.doc.scenario, before) == "");
}

TEST_CASE("actions: a limit notice goes when its edit is undone, and only then") {
  AppState s = lesson();
  actions::reshape(s, [](attn::Scenario& x) { model::edit::set_d_model(x, 512); });
  actions::notify_edit(s, "d_model limited to 512 (asked for 600)");
  actions::notify(s, "file: unknown key \"maks\"");
  edit_x(s, 0.3);  // a later edit keeps it: the limited state is still behind us
  CHECK(s.notices.size() == 2);
  actions::undo(s);
  CHECK(s.notices.size() == 2);
  actions::undo(s);  // undoes the limited edit
  REQUIRE(s.notices.size() == 1);
  CHECK(s.notices[0].text.find("maks") != std::string::npos);
}

TEST_CASE("actions: recent files are stored as absolute paths") {
  AppState s = lesson();
  actions::remember_recent(s, "assets/../assets/scenarios/x.json");
  REQUIRE(!s.recent.empty());
  CHECK(fs::path(s.recent[0]).is_absolute());
  CHECK(s.recent[0].find("..") == std::string::npos);
}

TEST_CASE("actions: every file of the malformed corpus is refused by the app's loader, or computes to a named error") {
  // The same files `attn check` is tested on (tests/data/malformed): the app
  // opens them through actions::open, as File > Open and the command line do.
  const fs::path corpus = fs::path(ATTNVIZ_ASSETS_DIR) / ".." / "tests" / "data" / "malformed";
  int refused = 0, computed_errors = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(corpus)) {
    if (e.path().extension() == ".md") continue;
    CAPTURE(e.path().filename().string());
    AppState s = lesson();
    edit_x(s, 0.25);  // unsaved work that must survive
    const std::uint64_t document = s.document;
    if (!actions::open(s, e.path().string())) {
      ++refused;
      CHECK(s.document == document);
      CHECK(s.doc.scenario.x(0, 0) == 0.25);
      CHECK(s.message.find(e.path().filename().string()) != std::string::npos);
      continue;
    }
    // Parsed, so it fails when computed: the model names the stage, no trace of another document shows.
    model::TraceModel m;
    m.update(s.doc.scenario, s.document, s.revision, {});
    CHECK_FALSE(m.error().empty());
    CHECK_FALSE(m.has_trace());
    ++computed_errors;
  }
  MESSAGE(refused, " refused on load, ", computed_errors, " refused when computed");
  CHECK(refused + computed_errors >= 30);
}

TEST_CASE("actions: Save on a built-in file asks where instead (the user's folder), a user's file saves in place") {
  AppState s;
  s.assets_dir = ATTNVIZ_ASSETS_DIR;
  const std::string builtin = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/default.json";
  const std::string before = read(builtin);
  REQUIRE(actions::open(s, builtin));
  CHECK(actions::is_builtin_file(s, builtin));
  edit_x(s, 42);
  actions::save_or_ask(s);
  CHECK(s.save_dialog);  // Save as, not a write into the installed assets
  CHECK(read(builtin) == before);
  CHECK(fs::path(s.dialog_path).filename() == "default.json");
  CHECK_FALSE(actions::is_builtin_file(s, s.dialog_path));
  // Save / Discard / Cancel, answered Save, asks where too.
  s.save_dialog = false;
  actions::request(s, {model::PendingAction::Kind::Quit, ""});
  REQUIRE(s.confirm_discard);
  actions::answer(s, actions::Answer::Save);
  CHECK(s.save_dialog);
  CHECK_FALSE(s.quit);
  CHECK(read(builtin) == before);

  AppState u;
  u.assets_dir = ATTNVIZ_ASSETS_DIR;
  const std::string mine = temp_file("mine.json", before);
  REQUIRE(actions::open(u, mine));
  CHECK_FALSE(actions::is_builtin_file(u, mine));
  edit_x(u, 42);
  actions::save_or_ask(u);
  CHECK_FALSE(u.save_dialog);
  CHECK(read(mine) != before);
  CHECK_FALSE(u.dirty());
}

TEST_CASE("actions: apply_edit edits and marks the change in one call, a live step commits once at the end") {
  AppState s = lesson();
  const attn::Scenario before = s.doc.scenario;
  const std::uint64_t revision = s.revision;
  actions::apply_edit(s, [](attn::Scenario& sc) { model::edit::rename_token(sc, model::edit::Sequence::Queries, 0, "renamed"); });
  CHECK(s.doc.scenario.tokens[0] == "renamed");
  CHECK(s.revision == revision + 1);  // the trace is recomputed
  REQUIRE(s.history.can_undo());      // and it is one undo step
  actions::undo(s);
  CHECK(s.doc.scenario.tokens == before.tokens);

  // A drag: every frame is live (recomputed, not yet a step), the end commits.
  const std::uint64_t drag_start = s.revision;
  for (double v : {0.25, 0.5, 0.75})
    actions::apply_edit(s, [&](attn::Scenario& sc) { sc.x(0, 0) = v; }, actions::Step::Live);
  CHECK(s.revision == drag_start + 3);
  actions::commit(s);
  actions::undo(s);
  CHECK(s.doc.scenario.x(0, 0) == before.x(0, 0));  // the whole drag is one step
}
