// Text cut to a width (fit_label.hpp).
#include "widgets/fit_label.hpp"

#include <imgui.h>

namespace viz {

std::string fit_label(const std::string& label, float width) {
  if (ImGui::CalcTextSize(label.c_str()).x <= width) return label;
  std::string cut = label;
  while (!cut.empty() && ImGui::CalcTextSize((cut + "…").c_str()).x > width) {
    cut.pop_back();
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();  // whole UTF-8 characters
    if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0xC0) cut.pop_back();
  }
  return cut + "…";
}

}  // namespace viz
