// ImGui's own light and dark styles, plus a high-contrast one built on the
// light style: black text and borders, no pale greys, stronger buttons, so
// nothing fades on a washed-out projector.
#include "gl/theme_style.hpp"

namespace viz {
namespace {

void high_contrast(ImGuiStyle& style) {
  ImGui::StyleColorsLight(&style);
  ImVec4* c = style.Colors;
  const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1);
  c[ImGuiCol_Text] = black;
  c[ImGuiCol_TextDisabled] = ImVec4(0.25f, 0.25f, 0.25f, 1);
  c[ImGuiCol_WindowBg] = white;
  c[ImGuiCol_ChildBg] = white;
  c[ImGuiCol_PopupBg] = white;
  c[ImGuiCol_MenuBarBg] = ImVec4(0.9f, 0.9f, 0.9f, 1);
  c[ImGuiCol_Border] = black;
  c[ImGuiCol_FrameBg] = white;
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.85f, 0.9f, 1, 1);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.75f, 0.83f, 1, 1);
  c[ImGuiCol_TitleBg] = ImVec4(0.85f, 0.85f, 0.85f, 1);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.75f, 0.75f, 0.75f, 1);
  c[ImGuiCol_Button] = ImVec4(0.82f, 0.87f, 1, 1);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.65f, 0.75f, 1, 1);
  c[ImGuiCol_ButtonActive] = ImVec4(0.5f, 0.62f, 1, 1);
  c[ImGuiCol_Header] = ImVec4(0.8f, 0.86f, 1, 1);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.65f, 0.75f, 1, 1);
  c[ImGuiCol_HeaderActive] = ImVec4(0.5f, 0.62f, 1, 1);
  c[ImGuiCol_CheckMark] = black;
  c[ImGuiCol_SliderGrab] = black;
  c[ImGuiCol_SliderGrabActive] = ImVec4(0, 0.2f, 0.8f, 1);
  c[ImGuiCol_Separator] = black;
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.35f, 0.35f, 0.35f, 1);
  c[ImGuiCol_PlotHistogram] = ImVec4(0, 0.25f, 0.8f, 1);
  c[ImGuiCol_TableBorderStrong] = black;
  c[ImGuiCol_TableBorderLight] = ImVec4(0.3f, 0.3f, 0.3f, 1);
  style.FrameBorderSize = 1;
}

}  // namespace

void apply_theme(ImGuiStyle& style, Theme theme) {
  style.FrameBorderSize = 0;
  switch (theme) {
    case Theme::Light:
      ImGui::StyleColorsLight(&style);
      // Fields, checkboxes and radio buttons are white like a dialog's
      // background: a thin frame shows where they are (an unticked box and
      // the Path field were invisible in the file dialogs).
      style.FrameBorderSize = 1;
      style.Colors[ImGuiCol_PopupBg].w = 1;  // dialogs opaque: the panels behind showed through
      break;
    case Theme::Dark:
      ImGui::StyleColorsDark(&style);
      style.Colors[ImGuiCol_WindowBg] = ImVec4(0.13f, 0.14f, 0.17f, 1);
      style.Colors[ImGuiCol_PopupBg] = ImVec4(0.15f, 0.16f, 0.19f, 1);
      break;
    case Theme::HighContrast: high_contrast(style); break;
  }
}

}  // namespace viz
