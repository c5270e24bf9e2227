// The class session's panel and what it keeps over the canvas. The panel
// only asks the feature (start, lock, reveal...); the feature does it in the
// session's update, where the trace is.
#include "classroom/class_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "feature/panel_window.hpp"
#include "model/files/file_dialogs.hpp"

namespace viz {

void ClassFeatureView::draw_over_canvas(const PanelFrame& frame) {
  model::ClassFeature& f = feature_;
  if (f.running()) {
    draw_class_corner(f, frame);
    draw_class_tally_window(f, frame);
    return;
  }
  const auto& offer = f.resume_offer();
  if (!offer || frame.as_slide) return;
  // A session the app did not end (a crash, a quit): offered back once, in
  // a window that waits, not a modal (it must not block the lesson).
  const float font = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(frame.canvas_pos.x + frame.canvas_size.x * 0.5f, frame.canvas_pos.y + font * 2),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0));
  ImGui::SetNextWindowSize(ImVec2(std::min(frame.canvas_size.x * 0.9f, font * 30), 0), ImGuiCond_Appearing);
  if (ImGui::Begin("Resume the class session?", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (frame.probe) {
      const ImVec2 p = ImGui::GetWindowPos(), s = ImGui::GetWindowSize();
      (*frame.probe)["class.resume"] = ImVec4(p.x, p.y, p.x + s.x, p.y + s.y);
    }
    ImGui::TextWrapped("The class session %s was not ended: %d students, %d questions asked. Resume it under the same "
                       "code, at the step the class was on? Students' phones rejoin by themselves.",
                       offer->session.code().c_str(), offer->session.students(),
                       static_cast<int>(offer->session.asked().size()));
    if (ImGui::Button("Resume")) f.resume_offered();
    ImGui::SameLine();
    if (ImGui::Button("End it")) f.discard_offer();
  }
  ImGui::End();
}

void ClassFeatureView::draw(const PanelFrame& frame) {
  if (frame.as_slide) return;  // the corner and tally are the slide's part; the controls are the desk's
  const float font = ImGui::GetFontSize();
  // Beside the projector's corner (top right), not over it: at 1024x768 the
  // desk's canvas is 560 px wide.
  const ImVec2 size(std::min(font * 22, frame.canvas_size.x * 0.45f), std::min(font * 20, frame.canvas_size.y * 0.9f));
  const ImVec2 pos(frame.canvas_pos.x + font * 0.5f, frame.canvas_pos.y + font * 0.5f);
  if (!begin_panel("Class session", feature_.shown(), pos, size, frame.probe, "panel.class")) return;
  if (feature_.running()) draw_running(frame);
  else draw_start(frame);
  draw_csv(frame);
  if (!feature_.problem().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.9f, 0.3f, 0.25f, 1));
    ImGui::TextWrapped("%s", feature_.problem().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

void ClassFeatureView::draw_start(const PanelFrame& frame) {
  (void)frame;
  ImGui::TextWrapped("Every student answers the lesson's questions on their own phone or laptop, on this network: no "
                     "internet, no accounts, no install. The projector shows how to join and, once you lock the "
                     "answers, what the class answered.");
  if (!listed_) {
    interfaces_ = attn::platform::ipv4_interfaces();
    listed_ = true;
  }
  if (interfaces_.empty()) {
    ImGui::TextWrapped("No network interface is up.");
    return;
  }
  interface_ = std::clamp(interface_, 0, static_cast<int>(interfaces_.size()) - 1);
  auto label = [](const attn::platform::NetworkInterface& n) {
    return n.address + "  (" + n.name + (n.loopback ? ", this computer only" : n.default_route ? ", the usual network" : "") + ")";
  };
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  if (ImGui::BeginCombo("Network", label(interfaces_[static_cast<size_t>(interface_)]).c_str())) {
    for (int i = 0; i < static_cast<int>(interfaces_.size()); ++i)
      if (ImGui::Selectable(label(interfaces_[static_cast<size_t>(i)]).c_str(), i == interface_)) interface_ = i;
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt("Port", &port_, 0);
  port_ = std::clamp(port_, 1024, 65535);
  if (ImGui::Button("Start the class session")) {
    model::ClassStart how;
    how.address = interfaces_[static_cast<size_t>(interface_)].address;
    how.port = port_;
    feature_.start(std::move(how));
    listed_ = false;  // listed afresh next time
  }
}

void ClassFeatureView::draw_running(const PanelFrame& frame) {
  (void)frame;
  const model::ClassView& v = feature_.view();
  ImGui::TextWrapped("Students join at %s with the code %s. %d joined.", v.join_address.c_str(), v.code.c_str(), v.students);
  ImGui::Separator();
  if (!v.has_question) {
    ImGui::TextWrapped("%s", v.note.empty() ? "No question on this step: phones wait for the next one." : v.note.c_str());
  } else {
    ImGui::TextWrapped("Step %d: %s", v.question.step + 1, v.question.prompt.c_str());
    ImGui::TextWrapped("%d of %d answered (%s)", v.answered, v.students, model::phase_name(v.phase));
    const bool open = v.phase == model::QuestionPhase::Open;
    const bool locked = v.phase == model::QuestionPhase::Locked;
    ImGui::BeginDisabled(!open);
    if (ImGui::Button("Lock answers (B)")) feature_.request(model::ClassCommand::Lock);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!(open || locked));
    if (ImGui::Button("Reveal")) feature_.request(model::ClassCommand::Reveal);
    // A second row: two rows of buttons fit the 1024x768 desk.
    if (ImGui::Button("Skip")) feature_.request(model::ClassCommand::Skip);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(open);
    if (ImGui::Button("Re-open")) feature_.request(model::ClassCommand::Reopen);
    ImGui::EndDisabled();
  }
  ImGui::Separator();
  if (ImGui::Button("End the class session")) feature_.request(model::ClassCommand::End);
}

void ClassFeatureView::draw_csv(const PanelFrame& frame) {
  const model::ClassView& v = feature_.view();
  if (v.code.empty()) return;  // no session yet
  ImGui::Separator();
  if (csv_path_.empty())
    csv_path_ = model::files::start_folder(frame.state.files, model::files::Dialog::SaveScenario) + "/class-" + v.code + ".csv";
  ImGui::TextWrapped("Answers as CSV (a row per question):");
  char buffer[1024];
  std::snprintf(buffer, sizeof buffer, "%s", csv_path_.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##csv-path", buffer, sizeof buffer)) csv_path_ = buffer;
  ImGui::Checkbox("Include nicknames", &feature_.csv_nicknames);
  ImGui::SameLine();
  if (ImGui::Button("Save CSV")) feature_.save_csv(csv_path_);
  if (!feature_.csv_saved().empty()) ImGui::TextDisabled("%s", feature_.csv_saved().c_str());
}

}  // namespace viz
