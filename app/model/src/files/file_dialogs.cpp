// Where file dialogs start and what they remember (file_dialogs.hpp).
#include "model/files/file_dialogs.hpp"

#include <cctype>
#include <filesystem>

#include "model/export/export_plan.hpp"

namespace model::files {
namespace {

namespace fs = std::filesystem;

bool is_dir(const std::string& p) {
  std::error_code ec;
  return !p.empty() && fs::is_directory(p, ec);
}

}  // namespace

const char* kind_name(Dialog d) {
  switch (d) {
    case Dialog::OpenScenario: return "open";
    case Dialog::SaveScenario: return "save";
    case Dialog::OpenLesson: return "lesson";
    case Dialog::Export: return "export";
    case Dialog::Slides: return "slides";
  }
  return "open";
}

std::string start_folder(const FileDialogs& f, Dialog d) {
  const auto last = f.last_folder.find(kind_name(d));
  if (last != f.last_folder.end() && is_dir(last->second)) return last->second;
  const bool picture = d == Dialog::Export || d == Dialog::Slides;
  return user_folder(picture ? UserFolder::Pictures : UserFolder::Documents);
}

std::string start_path(const FileDialogs& f, Dialog d, const std::string& name) {
  const fs::path folder = start_folder(f, d);
  return name.empty() ? folder.string() : (folder / name).string();
}

FileFilter filter_of(Dialog d) {
  switch (d) {
    case Dialog::OpenScenario:
    case Dialog::SaveScenario: return {"Scenarios (.json)", {".json"}};
    case Dialog::OpenLesson: return {"Lessons (.json)", {".json"}};
    case Dialog::Export: return export_filter("");
    case Dialog::Slides: return {"Folders", {"/"}};  // no file ends in '/': folders alone
  }
  return {};
}

FileFilter export_filter(const std::string& path) {
  if (const std::optional<ExportFormat> f = export_format_of(path)) {
    std::string ext = path.substr(path.find_last_of('.'));
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return {std::string(export_format_name(*f)) + " files (" + ext + ")", {ext}};
  }
  return {"Pictures and data", {".png", ".svg", ".gif", ".mp4", ".csv", ".npy", ".json"}};
}

std::vector<Place> places_for(const FileDialogs& f, const std::string& assets_dir, Dialog d) {
  std::vector<Place> out = places(f.recent_folders);
  const char* examples = d == Dialog::OpenScenario ? "scenarios" : d == Dialog::OpenLesson ? "lessons" : nullptr;
  if (examples && !assets_dir.empty() && is_dir((fs::path(assets_dir) / examples).string()))
    out.insert(out.begin() + 1, {d == Dialog::OpenLesson ? "Built-in lessons" : "Examples", (fs::path(assets_dir) / examples).string()});
  return out;
}

void browse(FileDialogs& f, const std::string& folder, const FileFilter& filter) {
  f.listing = list_folder(folder, f.filter == 0 ? filter : FileFilter{}, f.show_hidden);
}

void chosen(FileDialogs& f, Dialog d, const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec).lexically_normal();
  if (ec) return;
  const std::string folder = d == Dialog::Slides ? p.parent_path().string() : folder_of(p.string());
  if (folder.empty()) return;
  f.last_folder[kind_name(d)] = folder;
  remember_folder(f.recent_folders, folder);
  if (d == Dialog::Export && p.has_filename()) f.last_export_name = p.filename().string();
}

ChooserRequest desktop_request(Dialog d, const std::string& path) {
  ChooserRequest r;
  r.mode = d == Dialog::SaveScenario || d == Dialog::Export ? ChooserRequest::Mode::Save
           : d == Dialog::Slides                             ? ChooserRequest::Mode::Folder
                                                             : ChooserRequest::Mode::Open;
  r.title = d == Dialog::OpenScenario   ? "Open scenario"
            : d == Dialog::SaveScenario ? "Save scenario as"
            : d == Dialog::OpenLesson   ? "Open lesson"
            : d == Dialog::Export       ? "Export to"
                                        : "Folder for the slides";
  r.start = path;
  if (d == Dialog::Slides) {  // start in the folder above the suggested one (it may not exist yet)
    std::error_code ec;
    if (!fs::is_directory(path, ec)) r.start = fs::path(path).parent_path().string();
  }
  r.filter = d == Dialog::Export ? export_filter(path) : d == Dialog::Slides ? FileFilter{} : filter_of(d);
  return r;
}

}  // namespace model::files
