// Loading and lookup helpers for the article scenario tests; paths come from
// the ATTNVIZ_ASSETS_DIR compile definition, never the working directory.
#include "scene_helpers.hpp"

#include <algorithm>
#include <stdexcept>

namespace scene {

attn::Mat Loaded::at(attn::StageKind id, int head) const {
  const attn::Stage* s = trace.find(id, head);
  if (!s) throw std::out_of_range("no stage " + attn::to_string(id) + " head " + std::to_string(head));
  return s->value.dense();
}

namespace {
int index_in(const std::vector<std::string>& v, const std::string& label) {
  const auto it = std::find(v.begin(), v.end(), label);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}
}  // namespace

int Loaded::token_index(const std::string& label) const { return index_in(scenario().tokens, label); }

int Loaded::context_index(const std::string& label) const {
  return scenario().is_cross() ? index_in(scenario().context_tokens, label) : token_index(label);
}

Loaded load(const std::string& name) {
  Loaded l;
  l.file = attn::io::load_scenario(ATTNVIZ_ASSETS_DIR "/scenarios/" + name + ".json");
  l.trace = attn::compute_trace(l.file.scenario);
  return l;
}

int argmax_in_row(const attn::Mat& m, int row) {
  Eigen::Index col = 0;
  m.row(row).maxCoeff(&col);
  return static_cast<int>(col);
}

}  // namespace scene
