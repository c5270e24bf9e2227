// The projector's corner while a class session runs: how to join (a QR code
// a phone's camera opens, the address for a laptop, the code), and the live
// count, which is all the room needs while it answers. Also the class's
// tally once the answers are locked.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "classroom/class_tally_view.hpp"
#include "classroom/class_view.hpp"

namespace viz {

namespace {

// The QR code as dark squares on white with its quiet zone of four modules
// (phones do not read a code pressed against dark pixels).
void draw_qr(const model::QrCode& qr, float side) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + side, at.y + side), IM_COL32(255, 255, 255, 255));
  const float module = side / static_cast<float>(qr.size + 8);
  for (int r = 0; r < qr.size; ++r)
    for (int c = 0; c < qr.size; ++c)
      if (qr.at(r, c)) {
        const ImVec2 p0(at.x + module * static_cast<float>(c + 4), at.y + module * static_cast<float>(r + 4));
        dl->AddRectFilled(p0, ImVec2(p0.x + module, p0.y + module), IM_COL32(0, 0, 0, 255));
      }
  ImGui::Dummy(ImVec2(side, side));
}

std::string count_line(const model::ClassView& v) {
  const std::string of = std::to_string(v.answered) + " of " + std::to_string(v.students);
  if (!v.has_question) return std::to_string(v.students) + (v.students == 1 ? " student joined" : " students joined");
  switch (v.phase) {
    case model::QuestionPhase::Open: return of + " answered";
    case model::QuestionPhase::Locked: return of + " answered. Answers locked";
    case model::QuestionPhase::Revealed:
      return v.tally && v.tally->right >= 0 ? "Revealed: " + std::to_string(v.tally->right) + " of " + std::to_string(v.answered) + " right"
                                            : of + " answered. Revealed";
    case model::QuestionPhase::Skipped: return "Question skipped";
  }
  return of;
}

constexpr ImGuiWindowFlags kOverlay = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;

}  // namespace

namespace {

bool corner_full(const model::ClassFeature& f) {
  const model::ClassView& v = f.view();
  return f.corner_full && (!v.has_question || v.phase == model::QuestionPhase::Open);
}

float qr_side() { return std::min(ImGui::GetFontSize() * 7, ImGui::GetIO().DisplaySize.y * 0.25f); }

float note_width() { return ImGui::GetFontSize() * 16; }

}  // namespace

float class_corner_height(const model::ClassFeature& f) {
  if (!f.running()) return 0;
  const model::ClassView& v = f.view();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float note = v.note.empty() ? 0 : ImGui::CalcTextSize(v.note.c_str(), nullptr, false, note_width()).y + style.ItemSpacing.y;
  // Full: the QR code beside three lines, a rule and the count; else two lines.
  const float text = corner_full(f) ? line * 4 + style.ItemSpacing.y * 2 + note : line * 2 + note;
  const float content = corner_full(f) ? std::max(qr_side(), text) : text;
  return content + style.WindowPadding.y * 2 + ImGui::GetFontSize() * 0.25f;
}

void draw_class_corner(model::ClassFeature& f, const PanelFrame& frame) {
  const model::ClassView& v = f.view();
  const float font = ImGui::GetFontSize();
  const bool full = corner_full(f);
  // In the strip the canvas leaves above itself (App::panels), so it covers
  // no grid: the asked grid is what the class looks at while it answers.
  ImGui::SetNextWindowPos(ImVec2(frame.canvas_pos.x + frame.canvas_size.x - font * 0.5f, frame.canvas_pos.y - class_corner_height(f)),
                          ImGuiCond_Always, ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (!ImGui::Begin("##class-corner", nullptr, kOverlay)) {
    ImGui::End();
    return;
  }
  if (frame.probe) {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    (*frame.probe)["class.corner"] = ImVec4(p.x, p.y, p.x + s.x, p.y + s.y);
  }
  if (full) {
    ImGui::BeginGroup();
    if (f.qr().size > 0) draw_qr(f.qr(), qr_side());
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted("Join on your phone:");
    ImGui::TextUnformatted(v.join_address.c_str());
    ImGui::Text("Code %s", v.code.c_str());
    ImGui::Separator();
  } else {
    ImGui::BeginGroup();
    ImGui::Text("%s  code %s", v.join_address.c_str(), v.code.c_str());
  }
  ImGui::TextUnformatted(count_line(v).c_str());
  if (!v.note.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + note_width());
    ImGui::TextDisabled("%s", v.note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndGroup();
  if (!frame.as_slide && ImGui::IsWindowHovered() && ImGui::IsMouseClicked(0)) f.corner_full = !f.corner_full;
  ImGui::End();
}

void draw_class_tally_window(const model::ClassFeature& f, const PanelFrame& frame) {
  const model::ClassView& v = f.view();
  if (!v.tally || !v.has_question) return;
  const float font = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wanted = class_tally_height(*v.tally, v.question) + ImGui::GetFrameHeight() + ImGui::GetTextLineHeightWithSpacing() +
                       style.WindowPadding.y * 2 + style.ItemSpacing.y * 2;
  const ImVec2 size(std::min(frame.canvas_size.x * 0.6f, font * 24), std::min(frame.canvas_size.y * 0.6f, wanted + font * 1.3f));
  ImGui::SetNextWindowPos(ImVec2(frame.canvas_pos.x + frame.canvas_size.x - font * 0.5f,
                                 frame.canvas_pos.y + frame.canvas_size.y - font * 0.5f), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (!ImGui::Begin("The class answered##class-tally", nullptr,
                    ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                        ImGuiWindowFlags_NoFocusOnAppearing |
                        // At the desk it collapses (the grid under it, after the reveal); a slide has no controls.
                        (frame.as_slide ? ImGuiWindowFlags_NoCollapse : 0))) {
    ImGui::End();
    return;
  }
  if (frame.probe) {
    const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
    (*frame.probe)["class.tally"] = ImVec4(p.x, p.y, p.x + s.x, p.y + s.y);
  }
  ImGui::TextWrapped("%s", tally_headline(*v.tally).c_str());
  draw_class_tally(*v.tally, v.question, std::max(font * 3, ImGui::GetContentRegionAvail().y - ImGui::GetStyle().WindowPadding.y));
  ImGui::End();
}

}  // namespace viz
