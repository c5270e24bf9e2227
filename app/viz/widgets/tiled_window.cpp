// How the clear reaches the right place in the frame: a draw callback on
// ImGui's background draw list, which the backend renders before every
// window, with the window's rectangle as the command's clip rectangle and
// the colour carried in the callback's data pointer (nothing to keep alive).
#include "widgets/tiled_window.hpp"

#include <cstdint>

#include "gl/gl.hpp"

namespace viz {
namespace {

void clear_rectangle(const ImDrawList*, const ImDrawCmd* cmd) {
  const ImDrawData* frame = ImGui::GetDrawData();
  const ImVec2 offset = frame->DisplayPos, scale = frame->FramebufferScale;
  const float height = frame->DisplaySize.y * scale.y;
  // The backend's own conversion of a clip rectangle to a GL scissor box.
  const float x0 = (cmd->ClipRect.x - offset.x) * scale.x, y0 = (cmd->ClipRect.y - offset.y) * scale.y;
  const float x1 = (cmd->ClipRect.z - offset.x) * scale.x, y1 = (cmd->ClipRect.w - offset.y) * scale.y;
  if (x1 <= x0 || y1 <= y0) return;
  const auto colour = static_cast<ImU32>(reinterpret_cast<std::uintptr_t>(cmd->UserCallbackData));
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
  glScissor(static_cast<GLint>(x0), static_cast<GLint>(height - y1), static_cast<GLsizei>(x1 - x0),
            static_cast<GLsizei>(y1 - y0));
  glClearColor(c.x, c.y, c.z, c.w);
  glClear(GL_COLOR_BUFFER_BIT);
}

}  // namespace

bool begin_tiled_window(const char* name, ImGuiWindowFlags flags, bool* open) {
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const bool opaque = (colour & IM_COL32_A_MASK) == IM_COL32_A_MASK;
  const bool shown = ImGui::Begin(name, open, flags | (opaque ? ImGuiWindowFlags_NoBackground : ImGuiWindowFlags_None));
  if (opaque) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ImDrawList* behind = ImGui::GetBackgroundDrawList();
    behind->PushClipRect(pos, {pos.x + size.x, pos.y + size.y}, false);
    behind->AddCallback(clear_rectangle, reinterpret_cast<void*>(static_cast<std::uintptr_t>(colour)));
    behind->PopClipRect();
  }
  return shown;
}

bool begin_view_window(const char* name, ImVec2 pos, ImVec2 size) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  return begin_tiled_window(name, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus);
}

}  // namespace viz
