// UI test helpers: process running with popen, PNG and JSON loading.
#include "ui_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <stb_image.h>
#include <sys/wait.h>

namespace ui_test {

viz::Rgba Image::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width || y >= height) return {0, 0, 0, 0};
  const unsigned char* p = rgb.data() + (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 3;
  return {p[0], p[1], p[2], 255};
}

Image load_png(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
  if (!data) {
    img.width = img.height = 0;
    return img;
  }
  img.rgb.assign(data, data + static_cast<size_t>(img.width) * static_cast<size_t>(img.height) * 3);
  stbi_image_free(data);
  return img;
}

nlohmann::json load_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception&) {
    return nullptr;
  }
}

int run(const std::string& command, std::string* out) {
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::string text;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, pipe)) text.append(buf, n);
  const int status = pclose(pipe);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string attnviz(const std::string& args) { return std::string("\"") + ATTNVIZ_BIN + "\" " + args; }

std::string temp_path(const std::string& name) { return std::string(UI_TEST_TMP) + "/" + name; }

int distance(viz::Rgba a, viz::Rgba b) {
  const int dr = std::abs(a.r - b.r), dg = std::abs(a.g - b.g), db = std::abs(a.b - b.b);
  return std::max(dr, std::max(dg, db));
}

const nlohmann::json* grid_of(const nlohmann::json& layout, const std::string& id, int head) {
  if (!layout.is_object() || !layout.contains("grids")) return nullptr;
  for (const nlohmann::json& g : layout["grids"])
    if (g["id"] == id && g["head"] == head) return &g;
  return nullptr;
}

void cell_point(const nlohmann::json& g, int r, int c, double fx, double fy, int* x, int* y) {
  // Cells are cell_w x cell_h (not square when a long axis is shortened).
  *x = static_cast<int>(g["x0"].get<double>() + (c + fx) * g["cell_w"].get<double>());
  *y = static_cast<int>(g["y0"].get<double>() + (r + fy) * g["cell_h"].get<double>());
}

}  // namespace ui_test
