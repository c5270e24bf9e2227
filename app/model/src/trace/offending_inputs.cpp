// Offending inputs: each stage's cell depends on whole rows and columns of
// the inputs (Q[i,j] on row i of X and column j of W_Q; a score on two rows
// of X and all of W_Q and W_K; the output on a row of every head and a column
// of W_O). Collect those entries, then keep the largest: an overflow comes
// from the huge ones, not from the 0.5 beside them.
#include "model/trace/offending_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace model {
namespace {

using attn::Mat;
using attn::Scenario;

struct Collector {
  const Scenario& s;
  std::vector<InputCell> cells;

  void block(attn::StageKind matrix, int head, const Mat& m, int r0, int r1, int c0, int c1) {
    r0 = std::max(r0, 0), c0 = std::max(c0, 0);
    r1 = std::min<int>(r1, static_cast<int>(m.rows())), c1 = std::min<int>(c1, static_cast<int>(m.cols()));
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) cells.push_back({matrix, head, r, c, m(r, c)});
  }
  void all(attn::StageKind matrix, int head, const Mat& m) { block(matrix, head, m, 0, 1 << 30, 0, 1 << 30); }
  void query_row(int i) { block(attn::StageKind::x, -1, s.x, i, i + 1, 0, 1 << 30); }
  void key_row(int j) {
    if (s.context) block(attn::StageKind::context, -1, *s.context, j, j + 1, 0, 1 << 30);
    else block(attn::StageKind::x, -1, s.x, j, j + 1, 0, 1 << 30);
  }
  void all_keys() {
    if (s.context) all(attn::StageKind::context, -1, *s.context);
    else all(attn::StageKind::x, -1, s.x);
  }
  bool has_head(int h) const { return h >= 0 && h < static_cast<int>(s.heads.size()); }
  // Column j of head h's output: every value row times column j of W_V.
  void head_output_col(int h, int j) {
    all_keys();
    if (has_head(h)) block(attn::StageKind::w_v, h, s.heads[static_cast<size_t>(h)].w_v, 0, 1 << 30, j, j + 1);
  }
  // Every head's output row i: all keys, all of every W_V.
  void concat_row(int i) {
    query_row(i);
    all_keys();
    for (size_t h = 0; h < s.heads.size(); ++h) all(attn::StageKind::w_v, static_cast<int>(h), s.heads[h].w_v);
  }
  void score(int h, int i, int j) {
    query_row(i);
    key_row(j);
    if (!has_head(h)) return;
    all(attn::StageKind::w_q, h, s.heads[static_cast<size_t>(h)].w_q);
    all(attn::StageKind::w_k, h, s.heads[static_cast<size_t>(h)].w_k);
  }
};

}  // namespace

std::vector<InputCell> offending_inputs(const Scenario& s, const attn::StageRef& stage, int row, int col, size_t limit) {
  Collector c{s, {}};
  const attn::StageKind id = stage.id;
  const int h = stage.head;
  if (id == attn::StageKind::x || id == attn::StageKind::x_raw) c.block(attn::StageKind::x, -1, s.x, row, row + 1, col, col + 1);
  else if ((id == attn::StageKind::context || id == attn::StageKind::context_raw) && s.context) c.block(attn::StageKind::context, -1, *s.context, row, row + 1, col, col + 1);
  else if (id == attn::StageKind::q) {
    c.query_row(row);
    if (c.has_head(h)) c.block(attn::StageKind::w_q, h, s.heads[static_cast<size_t>(h)].w_q, 0, 1 << 30, col, col + 1);
  } else if (id == attn::StageKind::k || id == attn::StageKind::v) {
    c.key_row(row);
    if (c.has_head(h)) c.block(id == attn::StageKind::k ? attn::StageKind::w_k : attn::StageKind::w_v, h, id == attn::StageKind::k ? s.heads[static_cast<size_t>(h)].w_k : s.heads[static_cast<size_t>(h)].w_v, 0, 1 << 30, col, col + 1);
  } else if (id == attn::StageKind::scores || id == attn::StageKind::scaled || id == attn::StageKind::biased || id == attn::StageKind::masked) {
    c.score(h, row, col);
  } else if (id == attn::StageKind::head_output) {
    c.query_row(row);
    c.head_output_col(h, col);
  } else if (id == attn::StageKind::concat || id == attn::StageKind::output) {
    c.concat_row(row);
    if (id == attn::StageKind::output && s.w_o) c.block(attn::StageKind::w_o, -1, *s.w_o, 0, 1 << 30, col, col + 1);
  } else if (id == attn::StageKind::w_o && s.w_o) {
    c.block(attn::StageKind::w_o, -1, *s.w_o, row, row + 1, col, col + 1);
  }
  std::vector<InputCell>& cells = c.cells;
  auto position = [](const InputCell& a) { return std::tie(a.matrix, a.head, a.row, a.col); };
  std::sort(cells.begin(), cells.end(), [&](const InputCell& a, const InputCell& b) { return position(a) < position(b); });
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  // Largest first; ties keep matrix order, so the report is stable.
  std::stable_sort(cells.begin(), cells.end(),
                   [](const InputCell& a, const InputCell& b) { return std::abs(a.value) > std::abs(b.value); });
  if (cells.empty() || cells.front().value == 0) return {};
  const double floor = std::abs(cells.front().value) * 1e-3;
  cells.erase(std::find_if(cells.begin(), cells.end(), [&](const InputCell& x) { return std::abs(x.value) < floor; }),
              cells.end());
  if (cells.size() > limit) cells.resize(limit);
  return cells;
}

std::string input_cell_name(const Scenario& s, const InputCell& cell) {
  std::string name = std::string(attn::info_of(cell.matrix).symbol) + "[" + std::to_string(cell.row) + "," +
                     std::to_string(cell.col) + "]";
  const bool sequence = cell.matrix == attn::StageKind::x || cell.matrix == attn::StageKind::context;
  const std::vector<std::string>& labels = cell.matrix == attn::StageKind::context ? s.context_tokens : s.tokens;
  if (sequence && cell.row < static_cast<int>(labels.size()))
    name += " (token \"" + labels[static_cast<size_t>(cell.row)] + "\")";
  else if (cell.head >= 0 && s.heads.size() > 1)
    name += " (head " + std::to_string(cell.head) + ")";
  return name;
}

}  // namespace model
