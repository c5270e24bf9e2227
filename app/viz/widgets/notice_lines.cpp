// Notices and the changed-on-disk line (see notice_lines.hpp). The words
// depend on whether there are unsaved edits: with none, a reload loses
// nothing; with some, it keeps them beside the file's version (compare).
#include "widgets/notice_lines.hpp"

#include <algorithm>
#include <filesystem>
#include <string>

#include "gl/theme_style.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"
#include "model/document/disk_actions.hpp"
#include "model/settings/theme.hpp"

namespace viz {
namespace {

constexpr size_t kMaxNotices = 3;  // more are summed up beside OK

// What to say about the file on disk; "" when nothing.
std::string disk_line(const AppState& s) {
  if (s.path.empty() || s.disk.answered || s.disk.outside == DiskChange::Same) return {};
  const std::string name = std::filesystem::path(s.path).filename().string();
  if (s.disk.outside == DiskChange::Gone) return name + " was deleted or moved on disk. Save (Ctrl+S) writes it again.";
  return s.dirty() ? name + " was changed on disk by another window or program, and your edits here are not saved."
                   : name + " was changed on disk by another window or program.";
}

float button_row() { return ImGui::GetFrameHeightWithSpacing(); }

}  // namespace

float notice_lines_height(const AppState& s, float wrap) {
  float h = 0;
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  if (const std::string line = disk_line(s); !line.empty())
    h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + spacing + button_row();
  for (size_t i = 0; i < s.notices.size() && i < kMaxNotices; ++i)
    h += ImGui::CalcTextSize(s.notices[i].text.c_str(), nullptr, false, wrap).y + spacing;
  if (!s.notices.empty()) h += button_row();
  return h;
}

void draw_notice_lines(AppState& s, WidgetProbe* probe) {
  const ThemePalette& pal = palette(s.view.colour.theme);
  if (const std::string line = disk_line(s); !line.empty()) {
    ImGui::TextColored(to_imvec4(pal.warning), "%s", line.c_str());
    if (s.disk.outside == DiskChange::Gone) {
      if (ImGui::SmallButton("OK##disk")) actions::keep_this_version(s);
      probe_item(probe, "disk_ok");
    } else {
      const bool edits = s.dirty();
      if (ImGui::SmallButton(edits ? "Reload and compare##disk" : "Reload##disk")) actions::reload_from_disk(s);
      probe_item(probe, "disk_reload");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(edits ? "Read the file again; your version stays as A in the compare view, and Ctrl+Z brings it back"
                                : "Read the file again (Ctrl+Z goes back to this version)");
      ImGui::SameLine();
      if (ImGui::SmallButton(edits ? "Keep my edits##disk" : "Keep this version##disk")) actions::keep_this_version(s);
      probe_item(probe, "disk_keep");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Saving will still ask before it writes over the other version");
    }
  }
  for (size_t i = 0; i < s.notices.size() && i < kMaxNotices; ++i)
    ImGui::TextColored(to_imvec4(pal.warning), "%s", s.notices[i].text.c_str());
  if (!s.notices.empty()) {
    if (ImGui::SmallButton("OK##notices")) s.notices.clear();
    probe_item(probe, "notices_ok");
    if (s.notices.size() > kMaxNotices) {
      ImGui::SameLine();
      ImGui::TextDisabled("and %zu more", s.notices.size() - kMaxNotices);
    }
  }
}

void draw_notice_window(ImVec2 pos, ImVec2 size, AppState& s, WidgetProbe* probe) {
  const float font = ImGui::GetFontSize();
  const float width = std::min(size.x - 2 * font, font * 40);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float height = notice_lines_height(s, width - 2 * style.WindowPadding.x);
  if (height <= 0) return;
  const float window_h = std::min(height - style.ItemSpacing.y + 2 * style.WindowPadding.y, size.y * 0.5f);
  ImGui::SetNextWindowPos({pos.x + (size.x - width) / 2, pos.y + size.y - window_h - font});
  ImGui::SetNextWindowSize({width, window_h});
  ImGui::Begin("##notices", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::PushTextWrapPos(0.0f);
  draw_notice_lines(s, probe);
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace viz
