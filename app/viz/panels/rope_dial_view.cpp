// Drawing the RoPE dial (see rope_dial_view.hpp). Every arrow of one dial is
// scaled by the same length, the longest pair's, so arrows compare across
// pairs: RoPE turns them and never stretches them.
#include "panels/rope_dial_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "attn/text/format_number.hpp"
#include "gl/theme_style.hpp"

namespace viz {
namespace {

constexpr double kPi = 3.14159265358979323846;

ImU32 colour(const model::Rgba& c, float alpha = 1.0f) {
  ImVec4 v = to_imvec4(c);
  v.w *= alpha;
  return ImGui::ColorConvertFloat4ToU32(v);
}

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 c, float thickness) {
  dl->AddLine(from, to, c, thickness);
  const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 4) return;
  const float ux = dx / len, uy = dy / len, head = std::min(7.0f, len * 0.4f);
  dl->AddTriangleFilled(to, {to.x - ux * head - uy * head * 0.5f, to.y - uy * head + ux * head * 0.5f},
                        {to.x - ux * head + uy * head * 0.5f, to.y - uy * head - ux * head * 0.5f}, c);
}

}  // namespace

void draw_rope_dial(const model::RopeDial& dial, const model::ThemePalette& pal, WidgetProbe* probe) {
  const bool q = dial.stage.id == attn::StageKind::q_rope;
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.heading));
  ImGui::TextWrapped("RoPE dial: %s of row %d at position %d", q ? "query" : "key", dial.row, dial.position);
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.muted));
  ImGui::TextWrapped("Each pair of dimensions turns by position × θ_i: fast pairs first, slow ones last. Faint: before "
                     "RoPE. Hover other rows to watch the arrows turn further.%s",
                     dial.rotated < dial.d_k ? " Only the first dimensions turn (partial rotary)." : "");
  ImGui::PopStyleColor();
  double longest = 1e-12;
  for (const model::RopeDialPair& p : dial.pairs) longest = std::max({longest, std::hypot(p.a, p.b), std::hypot(p.ra, p.rb)});
  const float size = ImGui::GetFontSize() * 4.2f, radius = size * 0.42f;
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_row = std::max(1, static_cast<int>(avail / (size + ImGui::GetStyle().ItemSpacing.x)));
  const ImU32 accent = colour(q ? pal.accent_q : pal.accent_k), faint = colour(pal.muted, 0.55f);
  for (size_t i = 0; i < dial.pairs.size(); ++i) {
    const model::RopeDialPair& p = dial.pairs[i];
    if (i % static_cast<size_t>(per_row) != 0) ImGui::SameLine();
    ImGui::BeginGroup();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::Dummy({size, size});
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c{top.x + size / 2, top.y + size / 2};
    dl->AddCircle(c, radius, colour(pal.grid_frame), 32, 1.0f);
    const float k = static_cast<float>(radius / longest);
    // Screen y grows downwards: a positive second component points up.
    const ImVec2 before{c.x + static_cast<float>(p.a) * k, c.y - static_cast<float>(p.b) * k};
    const ImVec2 after{c.x + static_cast<float>(p.ra) * k, c.y - static_cast<float>(p.rb) * k};
    // The swept angle, as an arc just inside the circle (at most one turn shown).
    const double start = std::atan2(p.b, p.a), sweep = std::fmod(p.angle, 2 * kPi);
    dl->PathArcTo(c, radius * 0.3f, static_cast<float>(-start), static_cast<float>(-(start + sweep)), 24);
    dl->PathStroke(colour(pal.emphasis, 0.8f), 0, 1.5f);
    arrow(dl, c, before, faint, 1.5f);
    arrow(dl, c, after, accent, 2.2f);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(pal.muted));
    ImGui::Text("dims %d,%d", p.dim_a, p.dim_b);
    ImGui::Text("%s rad", attn::format_number(p.angle, 3).c_str());
    ImGui::PopStyleColor();
    ImGui::EndGroup();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("pair %d: dimensions %d and %d\nθ = %s, angle = %d × θ = %s rad\nbefore (%s, %s)\nafter (%s, %s)", p.pair,
                        p.dim_a, p.dim_b, attn::format_number(p.theta, 6).c_str(), dial.position,
                        attn::format_number(p.angle, 6).c_str(), attn::format_number(p.a).c_str(),
                        attn::format_number(p.b).c_str(), attn::format_number(p.ra).c_str(), attn::format_number(p.rb).c_str());
    probe_item(probe, "rope_dial:pair" + std::to_string(p.pair));
  }
}

}  // namespace viz
