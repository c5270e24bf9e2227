// The tracks the arrows' routing grid is made of: lines through every gap
// between columns, between the grids of a column, around them, and between
// bands, so arrows run in the free space a reader sees between grids.
#include <algorithm>
#include <map>

#include "route_graph.hpp"

namespace model::routing {
namespace {

// Tracks through a free interval (lo, hi): its centre and, when it is wide
// enough, one on either side, a quarter of the gap apart (at most
// `spacing`) so parallel arrows stay apart when zoomed out; all at least
// `clear` from the grids.
void add_tracks(std::vector<double>& out, double lo, double hi, double spacing, double clear) {
  if (hi - lo <= 2 * clear) return;
  const double mid = (lo + hi) / 2, apart = std::min((hi - lo) / 4, spacing);
  out.push_back(mid);
  if (mid - apart >= lo + clear) {
    out.push_back(mid - apart);
    out.push_back(mid + apart);
  }
}

// The grids of each (band, column), for the gaps between and inside columns.
std::map<std::pair<int, int>, std::vector<const GridBox*>> columns_of(const PipelineLayout& l) {
  std::map<std::pair<int, int>, std::vector<const GridBox*>> out;
  for (const GridBox& g : l.grids) out[{g.band, g.column}].push_back(&g);
  for (auto& [key, grids] : out)
    std::sort(grids.begin(), grids.end(), [](const GridBox* a, const GridBox* b) { return a->box.y0 < b->box.y0; });
  return out;
}

}  // namespace

void sort_unique(std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

Tracks gap_tracks(const PipelineLayout& l, const LayoutOptions& o, double spacing, double clear) {
  Tracks t;
  std::map<int, std::vector<std::pair<double, double>>> spans;  // band -> x span of each column
  std::map<int, std::pair<double, double>> heights;             // band -> y span
  for (const auto& [key, grids] : columns_of(l)) {
    double x0 = grids.front()->box.x0, x1 = grids.front()->box.x1;
    for (const GridBox* g : grids) x0 = std::min(x0, g->box.x0), x1 = std::max(x1, g->box.x1);
    spans[key.first].push_back({x0, x1});
    // Between the grids of a column, and just above and below them.
    add_tracks(t.ys, grids.front()->box.y0 - o.gap_y, grids.front()->box.y0, spacing, clear);
    for (size_t k = 1; k < grids.size(); ++k) add_tracks(t.ys, grids[k - 1]->box.y1, grids[k]->box.y0, spacing, clear);
    add_tracks(t.ys, grids.back()->box.y1, grids.back()->box.y1 + o.gap_y, spacing, clear);
    auto [it, fresh] = heights.insert({key.first, {grids.front()->box.y0, grids.back()->box.y1}});
    if (!fresh) it->second = {std::min(it->second.first, grids.front()->box.y0), std::max(it->second.second, grids.back()->box.y1)};
  }
  for (auto& [band, cols] : spans) {
    std::sort(cols.begin(), cols.end());
    add_tracks(t.xs, cols.front().first - o.gap_x, cols.front().first, spacing, clear);
    for (size_t k = 1; k < cols.size(); ++k) add_tracks(t.xs, cols[k - 1].second, cols[k].first, spacing, clear);
    add_tracks(t.xs, cols.back().second, cols.back().second + o.gap_x, spacing, clear);
  }
  // Between bands: the way from the end of one band to the start of the next.
  for (auto it = heights.begin(); it != heights.end(); ++it) {
    const auto next = std::next(it);
    if (next != heights.end()) add_tracks(t.ys, it->second.second, next->second.first, spacing, clear);
  }
  sort_unique(t.xs);
  sort_unique(t.ys);
  return t;
}

}  // namespace model::routing
