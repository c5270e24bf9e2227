// The in-app file browser and the desktop chooser's row (file_browser_view.hpp).
#include "dialogs/file_browser_view.hpp"

#include <filesystem>

#include <imgui.h>

namespace viz {
namespace {

namespace fs = std::filesystem;

FileFilter filter_for(files::Dialog d, const std::string& path) {
  return d == files::Dialog::Export ? files::export_filter(path) : files::filter_of(d);
}

// Into `folder`: a dialog that names a file keeps the name typed; one that
// opens a file or names a folder takes the folder itself.
void go_to(files::Dialog d, std::string& path, const std::string& folder) {
  const bool keeps_name = d == files::Dialog::SaveScenario || d == files::Dialog::Export;
  const std::string name = keeps_name ? fs::path(path).filename().string() : "";
  path = name.empty() ? folder : (fs::path(folder) / name).string();
  if (!keeps_name && d != files::Dialog::Slides && path.back() != '/') path += '/';
}

}  // namespace

void begin_file_dialog(AppState& s, files::Dialog d, const std::string& path, bool desktop_first) {
  FileDialogs& f = s.files;
  f.desktop_result.reset();
  f.desktop_error.clear();
  f.listing_key.clear();  // list afresh: files may have come and gone
  f.desktop = f.desktop_available && desktop_first ? FileDialogs::Desktop::Ask : FileDialogs::Desktop::Browse;
  f.desktop_request = files::desktop_request(d, path);
}

void end_file_dialog(AppState& s) {
  using Desktop = FileDialogs::Desktop;
  if (s.files.desktop == Desktop::Ask || s.files.desktop == Desktop::Choosing) s.files.desktop_cancel = true;
  s.files.desktop = Desktop::Idle;
}

DesktopStep desktop_chooser_part(AppState& s, files::Dialog d, std::string& path, WidgetProbe* probe) {
  using Desktop = FileDialogs::Desktop;
  FileDialogs& f = s.files;
  if (f.desktop_result) {
    const ChooserResult r = *f.desktop_result;
    f.desktop_result.reset();
    f.desktop = Desktop::Browse;
    switch (r.outcome) {
      case ChooserResult::Outcome::Chosen: path = r.path; return DesktopStep::Chosen;
      case ChooserResult::Outcome::Cancelled: return DesktopStep::Cancelled;
      case ChooserResult::Outcome::Failed: f.desktop_error = r.error; break;
    }
  }
  if (f.desktop == Desktop::Ask || f.desktop == Desktop::Choosing) {
    ImGui::PushTextWrapPos(0);
    ImGui::Text("Choose in the desktop's window (%s); attnviz waits for it.", f.desktop_tool.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Use attnviz's own browser instead")) {
      f.desktop_cancel = true;
      f.desktop = Desktop::Browse;
    }
    probe_item(probe, "use_own_browser");
    return f.desktop == Desktop::Browse ? DesktopStep::Browse : DesktopStep::Waiting;
  }
  if (!f.desktop_error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("The desktop's file chooser did not open (%s); here is attnviz's own.", f.desktop_error.c_str());
    ImGui::PopTextWrapPos();
  }
  if (f.desktop_available) {
    if (ImGui::SmallButton("Desktop chooser...")) {
      f.desktop_request = files::desktop_request(d, path);
      f.desktop = Desktop::Ask;
    }
    probe_item(probe, "desktop_chooser");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Choose with %s, the desktop's own file dialog", f.desktop_tool.c_str());
  }
  return DesktopStep::Browse;
}

bool draw_file_browser(AppState& s, files::Dialog d, std::string& path, WidgetProbe* probe) {
  FileDialogs& f = s.files;
  const FileFilter filter = filter_for(d, path);
  // The folder shown: the one the typed path names or lies in, else the one shown before.
  std::string folder = folder_of(path);
  if (folder.empty()) folder = f.listing.folder.empty() ? files::start_folder(s.files, d) : f.listing.folder;
  const std::string key = folder + "\n" + filter.label + "\n" + std::to_string(f.filter) + (f.show_hidden ? "h" : "");
  if (key != f.listing_key) {
    files::browse(s.files, folder, filter);
    f.listing_key = key;
  }
  const float font = ImGui::GetFontSize();
  const float height = font * 13;
  bool accept = false;

  ImGui::TextDisabled("in %s", f.listing.folder.c_str());
  ImGui::BeginChild("##places", {font * 9, height}, true);
  for (const Place& p : files::places_for(s.files, s.assets_dir, d))
    if (ImGui::Selectable((p.label + "##" + p.path).c_str(), p.path == f.listing.folder)) go_to(d, path, p.path);
    else if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.path.c_str());
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##entries", {0, height}, true);
  const fs::path here(f.listing.folder);
  if (here.has_parent_path() && here != here.root_path()) {
    if (ImGui::Selectable(".. (up one folder)")) go_to(d, path, here.parent_path().string());
    probe_item(probe, "browse_up");
  }
  if (!f.listing.error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", f.listing.error.c_str());
    ImGui::PopTextWrapPos();
  }
  if (f.listing.entries.empty() && f.listing.error.empty()) {
    if (d == files::Dialog::Slides) ImGui::TextDisabled("no folders here");
    else ImGui::TextDisabled("no %s here", filter.label.c_str());
  }
  // Only the rows in view are drawn: a folder of thousands of files stays
  // within one draw list's 65,536 vertices (ImGui 1.86's 16-bit indices).
  const std::string selected = fs::path(path).filename().string();
  const std::string snapshot = f.listing.folder;  // a click may list another folder
  const std::vector<FolderEntry> entries = f.listing.entries;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(entries.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const FolderEntry& e = entries[static_cast<size_t>(i)];
      const std::string label = e.name + (e.folder ? "/" : "");
      const bool clicked = ImGui::Selectable((label + "##entry").c_str(), !e.folder && e.name == selected,
                                             ImGuiSelectableFlags_AllowDoubleClick);
      probe_item(probe, "browse_" + label);
      if (!clicked) continue;
      const std::string full = (fs::path(snapshot) / e.name).string();
      if (e.folder) go_to(d, path, full);
      else {
        path = full;
        accept = ImGui::IsMouseDoubleClicked(0);
      }
    }
  if (f.listing.left_out > 0) ImGui::TextDisabled("and %zu more: type the name", f.listing.left_out);
  ImGui::EndChild();
  if (d != files::Dialog::Slides) {
    ImGui::SetNextItemWidth(font * 14);
    const char* shown = f.filter == 0 ? filter.label.c_str() : "All files";
    if (ImGui::BeginCombo("##file-types", shown)) {
      if (ImGui::Selectable(filter.label.c_str(), f.filter == 0)) f.filter = 0;
      if (ImGui::Selectable("All files", f.filter == 1)) f.filter = 1;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
  }
  ImGui::Checkbox("Hidden files", &f.show_hidden);
  return accept;
}

}  // namespace viz
