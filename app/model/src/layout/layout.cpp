// Pipeline layout: columns follow the data flow (a stage sits right of its
// inputs), parameters sit just left of their consumer, heads get one lane
// each, and the slots of a lane line up across columns (W_K beside K, Q
// beside QKᵀ) so a row can be followed by eye from one grid to the next.
#include "model/layout/layout.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "model/layout/arrow_routes.hpp"

namespace model {
namespace {

// The grid and its row labels decide the width, with a modest minimum for the
// caption; a long title must not shrink every grid of the scene at fit.
double box_width(const attn::Stage& s, const LayoutOptions& o, double cells_w, double* row_label_w) {
  double widest = 0;
  for (const std::string& label : s.row_labels) widest = std::max(widest, label_width(label, o.char_w));
  *row_label_w = std::min(widest, 16 * o.char_w) + 8;
  return std::max(*row_label_w + cells_w, o.min_box_w);
}

double box_height(const LayoutOptions& o, double cells_h, bool captioned) {
  return o.title_h + o.col_label_h + cells_h + (captioned ? o.caption_h : o.legend_h);
}

}  // namespace

double drawn_cells(long long n, const attn::Trace& trace, int long_axis_cells) {
  const long long cap = std::max<long long>({long_axis_cells, trace.dims.n_q, trace.dims.n_k, 1});
  return static_cast<double>(std::min(n, cap));
}

PipelineLayout layout_pipeline(const attn::Trace& trace, const LayoutOptions& o) {
  PipelineLayout out = place_grids(trace, o);
  route_arrows(trace, o, out);
  return out;
}

PipelineLayout place_grids(const attn::Trace& trace, const LayoutOptions& options) {
  PipelineLayout out;
  LayoutOptions o = options;
  o.col_label_h = column_label_band(trace, options);
  const std::vector<int> column = o.side_by_side ? side_by_side_columns(trace, stage_columns(trace)) : stage_columns(trace);

  // Which stages are shown and in which lane.
  struct Item {
    int stage, column, lane;
    double cells_w, cells_h;  // long axes shortened (long_axis_cells)
    double w, h, row_label_w;
    bool captioned;  // later lanes repeat the first lane's captions: legend only
  };
  std::vector<Item> items;
  std::vector<int> lanes;  // head of each lane
  for (size_t i = 0; i < trace.stages.size(); ++i) {
    const attn::Stage& s = trace.stages[i];
    if (!shown_in_layout(trace, static_cast<int>(i), o)) continue;
    int lane = -1;
    if (s.head >= 0) {
      auto it = std::find(lanes.begin(), lanes.end(), s.head);
      lane = static_cast<int>(it - lanes.begin());
      if (it == lanes.end()) lanes.push_back(s.head);
    }
    Item item{static_cast<int>(i), column[i], lane, drawn_cells(s.value.cols(), trace, o.long_axis_cells) * o.cell,
              drawn_cells(s.value.rows(), trace, o.long_axis_cells) * o.cell, 0, 0, 0, o.captions && lane <= 0};
    item.w = box_width(s, o, item.cells_w, &item.row_label_w);
    item.h = box_height(o, item.cells_h, item.captioned);
    items.push_back(item);
  }
  if (items.empty()) return out;

  // Slots: the k-th stage of a (lane, column) pair goes in slot k of the lane;
  // a slot is as tall as its tallest grid so neighbours line up.
  std::vector<int> slot(items.size(), 0);
  std::map<std::pair<int, int>, int> used;  // (lane, column) -> stages so far
  for (size_t k = 0; k < items.size(); ++k) slot[k] = used[{items[k].lane, items[k].column}]++;
  std::vector<bool> names_rows(items.size(), true);
  if (o.share_row_labels && o.bands <= 1 && o.wrap_width <= 0) {
    // Nothing wraps, so a grid's left neighbour in its lane and slot is the
    // nearest lower column that has one; no other column lies between.
    std::set<int> columns_used;
    for (const Item& it : items) columns_used.insert(it.column);
    for (size_t k = 0; k < items.size(); ++k) {
      if (items[k].lane < 0) continue;
      int left = items[k].column - 1;
      while (left >= 0 && !columns_used.count(left)) --left;
      const attn::Stage& here = trace.stages[static_cast<size_t>(items[k].stage)];
      for (size_t j = 0; j < items.size(); ++j) {
        const attn::Stage& there = trace.stages[static_cast<size_t>(items[j].stage)];
        if (items[j].lane != items[k].lane || items[j].column != left || slot[j] != slot[k] ||
            items[j].cells_h != items[k].cells_h || there.row_labels != here.row_labels)
          continue;
        names_rows[k] = false;
        items[k].row_label_w = 8;  // a little air after the neighbour's last column
        items[k].w = std::max(items[k].row_label_w + items[k].cells_w, o.min_box_w);
      }
    }
  }

  // Column x positions; empty columns take no room.
  const int n_columns = 1 + std::max_element(items.begin(), items.end(), [](const Item& a, const Item& b) {
                              return a.column < b.column;
                            })->column;
  std::vector<double> col_w(static_cast<size_t>(n_columns), 0), col_x(static_cast<size_t>(n_columns), 0);
  for (const Item& it : items) col_w[static_cast<size_t>(it.column)] = std::max(col_w[static_cast<size_t>(it.column)], it.w);
  std::vector<int> col_band(static_cast<size_t>(n_columns), 0);
  // Greedy wrapping, like lines of text; returns the number of bands.
  auto wrap = [&](double wrap_width) {
    double x = 0;
    int band = 0;
    for (int c = 0; c < n_columns; ++c) {
      const double w = col_w[static_cast<size_t>(c)];
      if (w <= 0) continue;
      if (wrap_width > 0 && x > 0 && x + w > wrap_width) {
        ++band;
        x = 0;
      }
      col_x[static_cast<size_t>(c)] = x;
      col_band[static_cast<size_t>(c)] = band;
      x += w + o.gap_x;
    }
    return band + 1;
  };
  double wrap_width = o.wrap_width;
  if (wrap_width <= 0 && o.bands > 1) {
    // The narrowest width that still needs no more than o.bands bands.
    double lo = *std::max_element(col_w.begin(), col_w.end()), hi = 0;
    for (double w : col_w) hi += w > 0 ? w + o.gap_x : 0;
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (wrap(mid) <= o.bands ? hi : lo) = mid;
    }
    wrap_width = hi;
  }
  out.bands = wrap(wrap_width);

  const size_t n_lanes = lanes.size();
  std::vector<std::vector<double>> slot_h(n_lanes);
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].lane < 0) continue;
    std::vector<double>& h = slot_h[static_cast<size_t>(items[k].lane)];
    if (h.size() <= static_cast<size_t>(slot[k])) h.resize(static_cast<size_t>(slot[k]) + 1, 0);
    h[static_cast<size_t>(slot[k])] = std::max(h[static_cast<size_t>(slot[k])], items[k].h);
  }
  std::vector<double> lane_y(n_lanes, 0);
  double y = 0;
  for (size_t l = 0; l < n_lanes; ++l) {
    lane_y[l] = y;
    for (double h : slot_h[l]) y += h + o.gap_y;
    y += o.lane_gap - o.gap_y;
  }
  const double lanes_h = n_lanes ? y - o.lane_gap : 0;

  // Vertical placement in band-local coordinates. Lane stages go in their
  // slot. Shared stages without inputs (X, the context) stack centred on the
  // lanes they feed; shared stages computed from others (concat, output)
  // centre on their inputs; a shared parameter (W_O) sits level with the
  // stage that consumes it.
  std::vector<double> top(items.size(), 0);
  std::vector<bool> placed(items.size(), false);
  std::map<int, double> source_h;  // column -> height of its input stack
  for (const Item& it : items)
    if (it.lane < 0 && trace.stages[static_cast<size_t>(it.stage)].inputs.empty())
      source_h[it.column] += it.h + (source_h.count(it.column) ? o.gap_y : 0);
  std::map<int, double> source_y;
  for (const auto& [c, h] : source_h) source_y[c] = std::max(0.0, (lanes_h - h) / 2);
  std::map<int, size_t> item_of_stage;
  for (size_t k = 0; k < items.size(); ++k) item_of_stage[items[k].stage] = k;
  auto place_on = [&](size_t k, double centre) {
    top[k] = std::max(0.0, centre - items[k].h / 2);
    // Never overlap a shared stage already placed in the same column.
    for (size_t j = 0; j < items.size(); ++j)
      if (j != k && placed[j] && items[j].lane < 0 && items[j].column == items[k].column &&
          top[k] < top[j] + items[j].h + o.gap_y && top[j] < top[k] + items[k].h + o.gap_y)
        top[k] = top[j] + items[j].h + o.gap_y;
    placed[k] = true;
  };
  for (size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    const attn::Stage& s = trace.stages[static_cast<size_t>(it.stage)];
    if (it.lane >= 0) {
      top[k] = lane_y[static_cast<size_t>(it.lane)];
      const std::vector<double>& h = slot_h[static_cast<size_t>(it.lane)];
      for (int s2 = 0; s2 < slot[k]; ++s2) top[k] += h[static_cast<size_t>(s2)] + o.gap_y;
      placed[k] = true;
    } else if (s.inputs.empty() && !is_parameter_stage(s)) {
      top[k] = source_y[it.column];
      source_y[it.column] += it.h + o.gap_y;
      placed[k] = true;
    } else if (!s.inputs.empty()) {
      double lo = 1e300, hi = -1e300;
      for (const attn::StageRef& in : s.inputs) {
        const auto found = item_of_stage.find(trace.index_of(in));
        if (found == item_of_stage.end() || !placed[found->second]) continue;
        const size_t j = found->second;
        // Inputs in another band say nothing about height here.
        if (col_band[static_cast<size_t>(items[j].column)] != col_band[static_cast<size_t>(it.column)]) continue;
        lo = std::min(lo, top[j] + o.title_h + o.col_label_h);
        hi = std::max(hi, top[j] + o.title_h + o.col_label_h + items[j].cells_h);
      }
      if (lo > hi) {
        place_on(k, it.h / 2);  // top of its band, below what is already there
        continue;
      }
      place_on(k, (lo + hi) / 2 - (o.title_h + o.col_label_h - o.caption_h) / 2);
    }
  }
  // Shared parameters (W_O) line up with their consumer.
  for (size_t k = 0; k < items.size(); ++k) {
    if (placed[k]) continue;
    double centre = lanes_h / 2;
    for (size_t j = 0; j < items.size(); ++j)
      for (const attn::StageRef& in : trace.stages[static_cast<size_t>(items[j].stage)].inputs)
        if (trace.index_of(in) == items[k].stage && placed[j]) centre = top[j] + items[j].h / 2;
    place_on(k, centre);
  }

  // Bands stack downwards, each as tall as its tallest column.
  std::vector<double> band_h(static_cast<size_t>(out.bands), 0), band_y(static_cast<size_t>(out.bands), 0);
  for (size_t k = 0; k < items.size(); ++k) {
    double& h = band_h[static_cast<size_t>(col_band[static_cast<size_t>(items[k].column)])];
    h = std::max(h, top[k] + items[k].h);
  }
  for (int b = 1; b < out.bands; ++b)
    band_y[static_cast<size_t>(b)] = band_y[static_cast<size_t>(b - 1)] + band_h[static_cast<size_t>(b - 1)] + o.band_gap;

  for (size_t k = 0; k < items.size(); ++k) {
    const Item& it = items[k];
    const attn::Stage& s = trace.stages[static_cast<size_t>(it.stage)];
    GridBox g;
    g.stage = it.stage;
    g.rows = static_cast<int>(s.value.rows());
    g.cols = static_cast<int>(s.value.cols());
    g.column = it.column;
    g.lane = it.lane;
    g.band = col_band[static_cast<size_t>(it.column)];
    g.cell_w = it.cells_w / std::max(g.cols, 1);
    g.cell_h = it.cells_h / std::max(g.rows, 1);
    g.captioned = it.captioned;
    g.row_labels = names_rows[k];
    const double y0 = band_y[static_cast<size_t>(g.band)] + top[k];
    const double left = col_x[static_cast<size_t>(it.column)];
    g.box = {left, y0, left + it.w, y0 + it.h};
    g.header = {left, y0, left + it.w + o.title_overhang, y0 + o.title_h};
    g.cells.x0 = left + it.row_label_w;
    g.cells.y0 = y0 + o.title_h + o.col_label_h;
    g.cells.x1 = g.col_x(g.cols);  // the same arithmetic as every cell boundary
    g.cells.y1 = g.row_y(g.rows);
    out.bounds = out.grids.empty() ? g.box : united(out.bounds, g.box);
    out.grids.push_back(g);
  }
  return out;
}

}  // namespace model
