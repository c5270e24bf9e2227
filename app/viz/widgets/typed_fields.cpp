// Typed fields. While a field has the keyboard, ImGui edits its own copy of
// the text and writes it back to the buffer we pass each time it changes;
// we keep that text in AppState::draft (UI state lives in one place) and
// apply it only when the field is deactivated: Enter, Tab, a click
// elsewhere, or Escape (which has already put the original text back).
#include "widgets/typed_fields.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <optional>

#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: is a drag widget being typed into?
#include <imgui_stdlib.h>

#include "attn/text/format_number.hpp"
#include "widgets/fitted_label.hpp"
#include "widgets/tooltip.hpp"
#include "model_names.hpp"
#include "model/document/app_actions.hpp"

namespace viz {
namespace {

bool owns_draft(const AppState& state, ImGuiID id) {
  return state.draft.widget == id && state.draft.document == state.document;
}

// The text to apply when the field was just left, else nothing.
std::optional<std::string> drafted_text(AppState& state, const char* id, const std::string& current,
                                        ImGuiInputTextFlags flags) {
  const ImGuiID widget = ImGui::GetID(id);
  std::string text = owns_draft(state, widget) ? state.draft.text : current;
  ImGui::InputText(id, &text, flags);
  if (ImGui::IsItemActive()) state.draft = {widget, state.document, text, 0};
  if (!ImGui::IsItemDeactivated()) return std::nullopt;
  if (owns_draft(state, widget)) state.draft = {};
  return text;
}

// A whole number from typed text; nullopt unless the whole text is one.
std::optional<long long> parse_whole(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return std::nullopt;
  const char* begin = text.c_str() + first;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(begin, &end, 10);
  while (*end == ' ' || *end == '\t') ++end;
  if (end == begin || *end != '\0' || errno == ERANGE) return std::nullopt;
  return v;
}

}  // namespace

void shape_field(AppState& state, WidgetProbe* probe, const char* label, int current, int lo, int hi, const char* help,
                 const std::function<void(attn::Scenario&, int)>& apply) {
  ImGui::PushID(label);
  std::optional<long long> asked;
  // The field narrows, or its label moves above it, in a narrow panel.
  const float side = ImGui::GetFrameHeight();
  const float buttons = 2 * (side + 3);
  const FittedLabel at = label_before(label, ImGui::GetFontSize() * 4 + buttons, ImGui::GetFontSize() * 2.5f + buttons, probe);
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 2, at.width - buttons));
  if (std::optional<std::string> typed = drafted_text(state, "##value", std::to_string(current),
                                                      ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_AutoSelectAll)) {
    asked = parse_whole(*typed);
    if (!asked && *typed != std::to_string(current))
      actions::notify(state, std::string(label) + ": \"" + typed->substr(0, 24) + "\" is not a whole number; kept " +
                                 std::to_string(current));
  }
  probe_item(probe, std::string("shape:") + label);
  hover_tooltip(help);
  ImGui::PushButtonRepeat(true);
  ImGui::SameLine(0, 3);
  if (ImGui::Button("-", {side, side})) asked = static_cast<long long>(current) - 1;
  ImGui::SameLine(0, 3);
  if (ImGui::Button("+", {side, side})) asked = static_cast<long long>(current) + 1;
  ImGui::PopButtonRepeat();
  label_after(at, probe);
  hover_tooltip(help);
  ImGui::PopID();
  if (!asked || *asked == current) return;

  const int n = static_cast<int>(std::clamp<long long>(*asked, lo, hi));
  const std::string limited = std::string(label) + (*asked > hi ? " limited to " + std::to_string(hi) : " is at least " + std::to_string(lo)) +
                              " (asked for " + std::to_string(*asked) + ")";
  if (n == current) {  // nothing to change: the notice stands alone
    actions::notify(state, limited);
    return;
  }
  actions::reshape(state, [&](attn::Scenario& s) { apply(s, n); });
  if (n != *asked) actions::notify_edit(state, limited);
}

bool value_cell(AppState& state, const char* id, double* value, float drag_speed, const char* format, double lo, double hi,
                const char* name) {
  const ImGuiID widget = ImGui::GetID(id);
  const bool typing_before = ImGui::TempInputIsActive(widget);
  double v = owns_draft(state, widget) ? state.draft.value : *value;
  const bool bounded = std::isfinite(lo) && std::isfinite(hi);
  // Bounds only for a drag: a typed number is limited below, with a notice.
  const bool changed = ImGui::DragScalar(id, ImGuiDataType_Double, &v, drag_speed, bounded ? &lo : nullptr,
                                         bounded ? &hi : nullptr, format);
  const bool typing = typing_before || ImGui::TempInputIsActive(widget);
  bool result = false;
  if (typing && !owns_draft(state, widget)) state.draft = {widget, state.document, {}, *value};
  if (changed && typing) {
    state.draft = {widget, state.document, {}, v};
  } else if (changed && std::isfinite(v)) {
    // Dragging: live, committed as one step when the drag ends.
    actions::apply_edit(state, [&](attn::Scenario&) { *value = v; }, actions::Step::Live);
    state.edit_in_progress = true;
    result = true;
  }
  if (ImGui::IsItemDeactivated()) {
    if (owns_draft(state, widget)) {
      const double asked = state.draft.value;
      state.draft = {};
      const double typed = std::clamp(asked, lo, hi);
      if (!std::isfinite(typed)) {
        actions::notify(state, "That number is too large for double precision; the value stays " + attn::format_number(*value, 6));
      } else if (typed != *value) {
        actions::apply_edit(state, [&](attn::Scenario&) { *value = typed; });
        if (typed != asked)
          actions::notify_edit(state, (name                                 ? std::string(name)
                                       : ImGui::FindRenderedTextEnd(id) == id ? std::string("The value")
                                                                              : std::string(id, ImGui::FindRenderedTextEnd(id))) +
                                          " is from " +
                                          attn::format_number(lo, 6) + " to " + attn::format_number(hi, 6) + ": " +
                                          attn::format_number(asked, 6) + " was limited to " + attn::format_number(typed, 6));
        result = true;
      }
    } else if (state.edit_in_progress) {
      actions::commit(state);
    }
  }
  return result;
}

bool text_field(AppState& state, const char* id, const std::string& current, std::string* out) {
  std::optional<std::string> typed = drafted_text(state, id, current, ImGuiInputTextFlags_None);
  if (!typed || *typed == current) return false;
  *out = std::move(*typed);
  return true;
}

}  // namespace viz
