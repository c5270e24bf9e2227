// Opening large files in the background: FileLoader reads a file on its
// thread and hands back the newest request only (an older one, or one
// cancelled, is dropped); File > Open routes files of kBackgroundOpenBytes or
// more to it and opens smaller ones at once, and a read that fails keeps the
// document as open() does; a file that arrives after the document was
// edited (or restored) asks before replacing it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "attn/io/scenario_file.hpp"
#include "model/document/app_actions.hpp"
#include "model/files/file_loader.hpp"

#include "test_files.hpp"

namespace {

namespace fs = std::filesystem;

std::string temp(const std::string& name) { return (fs::temp_directory_path() / ("attnviz_test_loader_" + name)).string(); }

// A valid scenario of n tokens and width d (no projections), written to `name`.
std::string write_scene(const std::string& name, int n, int d) {
  attn::io::ScenarioFile f;
  f.scenario.x = attn::Mat(n, d);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (Eigen::Index i = 0; i < f.scenario.x.size(); ++i) f.scenario.x.data()[i] = normal(rng);
  f.title = name;
  const std::string path = temp(name);
  attn::io::save_scenario(path, f);
  return path;
}

using test_files::builtin;

}  // namespace

TEST_CASE("file loader: reads a file in the background and hands it over once") {
  const std::string path = write_scene("one.json", 12, 5);
  model::FileLoader loader;
  int woken = 0;
  loader.set_on_ready([&] { ++woken; });
  loader.start(path);
  loader.wait_idle();
  CHECK_FALSE(loader.busy());
  std::optional<model::FileLoader::Loaded> done = loader.take();
  REQUIRE(done);
  CHECK(done->path == path);
  REQUIRE(done->file);
  CHECK(done->file->scenario.x.rows() == 12);
  CHECK(done->file->scenario.x.cols() == 5);
  CHECK(done->error.empty());
  CHECK(woken == 1);
  CHECK_FALSE(loader.take());  // once
}

TEST_CASE("file loader: a file that cannot be read comes back with load_scenario's message") {
  const std::string path = temp("broken.json");
  std::ofstream(path) << R"({"x": [[1, 2], [3)";
  model::FileLoader loader;
  loader.start(path);
  loader.wait_idle();
  CHECK(loader.has_result());  // read, not yet taken: the benchmark waits for this too
  const std::optional<model::FileLoader::Loaded> done = loader.take();
  CHECK_FALSE(loader.has_result());
  REQUIRE(done);
  CHECK_FALSE(done->file);
  CHECK(done->error.find("broken.json") != std::string::npos);
}

TEST_CASE("file loader: only the newest request is handed over, a cancelled one never is") {
  const std::string big = write_scene("big.json", 400, 300), small = write_scene("small.json", 3, 2);
  model::FileLoader loader;
  loader.start(big);
  loader.start(small);  // the user picked another file before the first was read
  loader.wait_idle();
  std::optional<model::FileLoader::Loaded> done = loader.take();
  REQUIRE(done);
  CHECK(done->path == small);
  CHECK_FALSE(loader.take());

  loader.start(big);
  CHECK(loader.busy());
  CHECK(loader.reading() == big);
  loader.cancel();
  CHECK_FALSE(loader.busy());
  CHECK(loader.reading().empty());
  loader.wait_idle();
  CHECK_FALSE(loader.has_result());
  CHECK_FALSE(loader.take());
}

TEST_CASE("file open: large files go to the background reader, small ones open at once") {
  // 700 x 400 numbers: well over kBackgroundOpenBytes as JSON text.
  const std::string big = write_scene("routed_big.json", 700, 400), small = write_scene("routed_small.json", 4, 3);
  REQUIRE(fs::file_size(big) >= model::kBackgroundOpenBytes);
  REQUIRE(fs::file_size(small) < model::kBackgroundOpenBytes);
  model::AppState s;
  s.builtin_text = builtin();
  model::actions::open_builtin(s);
  const std::uint64_t document = s.document;

  model::actions::request(s, {model::PendingAction::Kind::Open, big});
  CHECK(s.open_request == big);  // the app starts the read; the document is untouched meanwhile
  CHECK(s.document == document);
  CHECK(s.path.empty());

  // What the app does with the result: the same as a direct open.
  model::FileLoader loader;
  loader.start(s.open_request);
  loader.wait_idle();
  std::optional<model::FileLoader::Loaded> done = loader.take();
  REQUIRE(done);
  REQUIRE(done->file);
  model::actions::background_read_arrived(s, std::move(*done->file), done->path);
  CHECK_FALSE(s.confirm_discard);  // nothing changed while it was read: no question
  CHECK(s.path == big);
  CHECK(s.doc.scenario.x.rows() == 700);
  CHECK(s.document == document + 1);
  CHECK_FALSE(s.dirty());

  s.open_request.clear();
  model::actions::request(s, {model::PendingAction::Kind::Open, small});
  CHECK(s.open_request.empty());
  CHECK(s.path == small);

  // A failed background read keeps the document and says why.
  model::actions::open_failed(s, "nowhere.json: cannot open the file");
  CHECK(s.path == small);
  CHECK(s.message.find("nowhere.json: cannot open the file") != std::string::npos);
  CHECK(s.message.find("routed_small.json stays open") != std::string::npos);
}

namespace {

// The file at `path`, read as the background reader reads it.
attn::io::ScenarioFile read_in_background(const std::string& path) {
  model::FileLoader loader;
  loader.start(path);
  loader.wait_idle();
  std::optional<model::FileLoader::Loaded> done = loader.take();
  REQUIRE(done);
  REQUIRE(done->file);
  return std::move(*done->file);
}

void edit_first_value(model::AppState& s) {
  s.doc.scenario.x(0, 0) += 1;
  model::actions::changed(s, true);
}

}  // namespace

TEST_CASE("background open: edits made while the file is read are never replaced without asking") {
  const std::string big = write_scene("guarded_big.json", 700, 400);
  model::AppState s;
  s.builtin_text = builtin();
  model::actions::open_builtin(s);

  // Asked for with nothing to lose (as on start-up), then the lesson is edited
  // while the file is read: the arriving file waits for the answer.
  model::actions::request_background_open(s, big);
  edit_first_value(s);
  REQUIRE(s.dirty());
  const double edited = s.doc.scenario.x(0, 0);
  model::actions::background_read_arrived(s, read_in_background(big), big);
  CHECK(s.confirm_discard);
  CHECK(s.path.empty());
  CHECK(s.doc.scenario.x(0, 0) == edited);  // the edit is still there
  model::actions::answer(s, model::actions::Answer::Cancel);
  CHECK(s.path.empty());
  CHECK(s.doc.scenario.x(0, 0) == edited);

  // The same again, answered Discard: the file is shown, without a second read.
  model::actions::request_background_open(s, big);
  edit_first_value(s);
  model::actions::background_read_arrived(s, read_in_background(big), big);
  REQUIRE(s.confirm_discard);
  model::actions::answer(s, model::actions::Answer::Discard);
  CHECK(s.path == big);
  CHECK(s.doc.scenario.x.rows() == 700);
  CHECK_FALSE(s.dirty());

  // File > Open with unsaved edits asks first; answered, the read that
  // follows replaces the document without asking again.
  edit_first_value(s);
  s.open_request.clear();
  model::actions::request(s, {model::PendingAction::Kind::Open, big});
  REQUIRE(s.confirm_discard);
  model::actions::answer(s, model::actions::Answer::Discard);
  CHECK(s.open_request == big);
  CHECK(s.dirty());  // still the edited document while the file is read
  model::actions::background_read_arrived(s, read_in_background(big), big);
  CHECK_FALSE(s.confirm_discard);
  CHECK_FALSE(s.dirty());
}
