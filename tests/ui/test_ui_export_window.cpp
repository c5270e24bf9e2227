// File > Export in a real window, driven with xdotool: the dialog writes a
// PNG; a GIF shows the progress dialog and finishes; a long GIF cancelled
// from the progress dialog leaves no file and says so. Waits on the state
// the app reports, never on time.
#include <doctest/doctest.h>

#include <filesystem>

#include "ui_support.hpp"

using namespace ui_test;

namespace {

bool has_notice(const nlohmann::json& state, const std::string& text) {
  for (const nlohmann::json& n : state["notices"])
    if (n.get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_SUITE("export_window") {
  TEST_CASE("ui: File > Export writes a PNG, then a GIF with progress, Cancel stops a long one") {
    namespace fs = std::filesystem;
    for (const char* f : {"uiexport.png", "uiexport.gif", "uicancel.gif"}) fs::remove(f);  // the app writes next to the test
    {
      RunningApp app("", "export_window");
      REQUIRE(app.first_state().is_object());

      export_through_dialog(app, "uiexport.png");
      const nlohmann::json png = wait_for(app.state, [](const nlohmann::json& j) { return has_notice(j, "Exported uiexport.png"); });
      REQUIRE_MESSAGE(png.is_object(), "no 'Exported' notice after the PNG");
      const Image image = load_png("uiexport.png");
      CHECK(image.ok());
      CHECK(image.width > 100);

      // The whole animation takes a few seconds here. The suite is not in the
      // sanitized run (Makefile SANITIZE_SKIP), so a minute is plenty; when an
      // X event is lost the export never starts, and the retry (ctest's
      // until-pass) should not wait three minutes first, as it did in CI.
      export_through_dialog(app, "uiexport.gif");
      const nlohmann::json gif = wait_for(app.state, [](const nlohmann::json& j) { return has_notice(j, "Exported uiexport.gif"); }, 60000);
      REQUIRE_MESSAGE(gif.is_object(), "the GIF export did not finish");
      CHECK(fs::file_size("uiexport.gif") > 1000);
    }  // one window at a time: the next app's window must be the one clicked

    // Cell steps make the animation long (hundreds of GIF frames), so the
    // cancel below lands while the export runs.
    RunningApp cells("--granularity cell", "export_window_cells");
    REQUIRE(cells.first_state().is_object());
    export_through_dialog(cells, "uicancel.gif");
    const nlohmann::json running = wait_for(cells.state, [](const nlohmann::json& j) { return j["export"]["running"] == true; });
    REQUIRE_MESSAGE(running.is_object(), "the progress dialog never showed");
    const nlohmann::json progress = settled(cells.layout, "export_cancel");
    REQUIRE(progress.is_object());
    click_widget(progress, "export_cancel");
    const nlohmann::json cancelled = wait_for(cells.state, [](const nlohmann::json& j) {
      return j["export"]["running"] == false && has_notice(j, "Export cancelled");
    }, 60000);
    CHECK_MESSAGE(cancelled.is_object(), "no 'Export cancelled' after Cancel; last state: " << load_json(cells.state)["export"].dump()
                                                                                             << load_json(cells.state)["notices"].dump());
    CHECK_FALSE(fs::exists("uicancel.gif"));
  }
}
