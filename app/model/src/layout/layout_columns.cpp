// Layout building blocks: which column each stage goes in (data flow, with
// parameters just left of their consumer), grid titles and label widths.
#include <algorithm>
#include <map>

#include "model/layout/layout.hpp"

namespace model {

// Learned or fixed operands that feed one computation (W_Q, PE, ALiBi bias).
bool is_parameter_stage(const attn::Stage& s) {
  return s.inputs.empty() && attn::role_of(s.id) == attn::StageRole::Parameter;
}

LayoutOptions scaled_text(LayoutOptions o, double f) {
  o.title_h *= f;
  o.col_label_h *= f;
  o.char_w *= f;
  o.caption_h *= f;
  o.legend_h *= f;
  o.min_box_w *= f;
  return o;
}

Rect united(const Rect& a, const Rect& b) {
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

std::string grid_title(const attn::Stage& s) {
  return s.title + "  " + std::to_string(s.value.rows()) + "×" + std::to_string(s.value.cols());
}

std::string grid_subtitle(const attn::Stage& s, int n_heads) {
  return s.head >= 0 && n_heads > 1 ? "head " + std::to_string(s.head) + " · " + s.formula : s.formula;
}

double label_width(const std::string& text, double char_w) {
  int code_points = 0;
  for (unsigned char ch : text)
    if ((ch & 0xC0) != 0x80) ++code_points;
  return code_points * char_w;
}

bool same_layout_inputs(const attn::Trace& a, const attn::Trace& b) {
  if (a.stages.size() != b.stages.size() || a.dims.n_heads != b.dims.n_heads) return false;
  for (size_t i = 0; i < a.stages.size(); ++i) {
    const attn::Stage& x = a.stages[i];
    const attn::Stage& y = b.stages[i];
    if (x.id != y.id || x.head != y.head || x.kind != y.kind || x.value.rows() != y.value.rows() ||
        x.value.cols() != y.value.cols() || x.title != y.title || x.formula != y.formula ||
        !(x.inputs == y.inputs) || x.row_labels != y.row_labels || x.col_labels != y.col_labels)
      return false;
  }
  return true;
}

bool shown_in_layout(const attn::Trace& trace, int index, const LayoutOptions& o) {
  const attn::Stage& s = trace.stages[static_cast<size_t>(index)];
  if (o.head >= 0 && s.head >= 0 && s.head != o.head) return false;
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), index) != o.only.end();
}

std::vector<int> stage_with_inputs(const attn::Trace& trace, int stage) {
  std::vector<int> out{stage};
  if (stage < 0 || stage >= static_cast<int>(trace.stages.size())) return {};
  for (const attn::StageRef& in : trace.stages[static_cast<size_t>(stage)].inputs) {
    const int j = trace.index_of(in);
    if (j >= 0) out.push_back(j);
  }
  return out;
}

bool names_tokens(const std::vector<std::string>& labels) {
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i] != std::to_string(i)) return true;
  return false;
}

bool rotate_column_labels(const std::vector<std::string>& labels, double widest_label, double column_width) {
  return names_tokens(labels) && widest_label > column_width - 4;
}

double column_label_band(const attn::Trace& trace, const LayoutOptions& o) {
  double band = o.col_label_h;
  for (const attn::Stage& s : trace.stages) {
    if (!shown_in_layout(trace, static_cast<int>(&s - trace.stages.data()), o)) continue;
    double widest = 0;
    for (const std::string& l : s.col_labels) widest = std::max(widest, label_width(l, o.char_w));
    if (rotate_column_labels(s.col_labels, widest, o.cell))
      band = std::max(band, std::min(widest, o.rotated_label_chars * o.char_w) + 8);
  }
  return band;
}

std::vector<int> stage_columns(const attn::Trace& trace) {
  const int n = static_cast<int>(trace.stages.size());
  std::vector<int> column(static_cast<size_t>(n), 0);
  std::vector<bool> parameter(static_cast<size_t>(n), false);
  for (int i = 0; i < n; ++i) parameter[static_cast<size_t>(i)] = is_parameter_stage(trace.stages[static_cast<size_t>(i)]);
  // Trace order is computation order, so inputs are placed before consumers.
  for (int i = 0; i < n; ++i) {
    const attn::Stage& s = trace.stages[static_cast<size_t>(i)];
    if (s.inputs.empty()) continue;
    int base = 0;
    bool has_parameter = false;
    for (const attn::StageRef& in : s.inputs) {
      const int j = trace.index_of(in);
      if (j < 0) continue;
      if (parameter[static_cast<size_t>(j)]) has_parameter = true;
      else base = std::max(base, column[static_cast<size_t>(j)]);
    }
    column[static_cast<size_t>(i)] = base + (has_parameter ? 2 : 1);
  }
  for (int i = 0; i < n; ++i) {
    if (!parameter[static_cast<size_t>(i)]) continue;
    int best = -1;
    for (int k = 0; k < n; ++k)
      for (const attn::StageRef& in : trace.stages[static_cast<size_t>(k)].inputs)
        if (trace.index_of(in) == i) {
          const int c = column[static_cast<size_t>(k)] - 1;
          best = best < 0 ? c : std::min(best, c);
        }
    column[static_cast<size_t>(i)] = std::max(best, 0);
  }
  return column;
}

std::vector<int> side_by_side_columns(const attn::Trace& trace, std::vector<int> column) {
  const size_t n = trace.stages.size();
  // Projections by column, and their rank within their lane in that column.
  std::vector<int> parameter_of(n, -1), rank(n, 0);
  std::map<int, int> pairs;                  // projection column -> most pairs in one lane
  std::map<std::pair<int, int>, int> count;  // (head, column) -> projections so far
  for (size_t i = 0; i < n; ++i) {
    const attn::Stage& s = trace.stages[i];
    if (s.head < 0) continue;
    for (const attn::StageRef& in : s.inputs) {
      const int j = trace.index_of(in);
      if (j >= 0 && trace.stages[static_cast<size_t>(j)].head == s.head && is_parameter_stage(trace.stages[static_cast<size_t>(j)]))
        parameter_of[i] = j;
    }
    if (parameter_of[i] < 0) continue;
    rank[i] = count[{s.head, column[i]}]++;
    pairs[column[i]] = std::max(pairs[column[i]], rank[i] + 1);
  }
  // Every column right of a projection column moves by the pairs added there.
  auto shifted = [&](int c) {
    int extra = 0;
    for (const auto& [p, k] : pairs)
      if (c > p) extra += 2 * (k - 1);
    return c + extra;
  };
  std::vector<int> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = shifted(column[i]);
  for (size_t i = 0; i < n; ++i) {
    if (parameter_of[i] < 0) continue;
    out[i] = shifted(column[i]) + 2 * rank[i];
    out[static_cast<size_t>(parameter_of[i])] = out[i] - 1;
  }
  return out;
}

}  // namespace model
