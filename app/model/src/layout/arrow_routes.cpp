// Arrow routing for a layout: which arrows there are (products with a
// parameter read "X -> W_Q -> Q"), where they attach (one port per source;
// the inputs of a target spread over its height in the order they arrive, so
// they need not cross), and the tracks through every gap between columns,
// grids and bands that the routing grid (route_graph.hpp) is made of.
#include "model/layout/arrow_routes.hpp"

#include <algorithm>
#include <map>

#include "route_graph.hpp"

namespace model {
namespace {

using Edges = std::vector<std::pair<int, int>>;
using Ports = std::map<std::pair<int, int>, double>;  // (from, to) -> height where the arrow enters

double mid_y(const GridBox& g) { return (g.cells.y0 + g.cells.y1) / 2; }

// Drops points that continue a straight line, so each corner is one point.
std::vector<Vec2d> corners_only(const std::vector<Vec2d>& p) {
  std::vector<Vec2d> out;
  for (const Vec2d& v : p) {
    if (!out.empty() && out.back().x == v.x && out.back().y == v.y) continue;
    if (out.size() >= 2) {
      const Vec2d& a = out[out.size() - 2];
      const Vec2d& b = out.back();
      if ((a.x == b.x && b.x == v.x) || (a.y == b.y && b.y == v.y)) out.pop_back();
    }
    out.push_back(v);
  }
  return out;
}

// Spreads the inputs of each target over its left side, in the order `before` gives.
template <class Before>
Ports spread_ports(const PipelineLayout& l, const Edges& edges, Before before) {
  std::map<int, std::vector<int>> inputs;  // target -> sources
  for (const auto& [from, to] : edges) inputs[to].push_back(from);
  Ports ports;
  for (auto& [to, from] : inputs) {
    std::stable_sort(from.begin(), from.end(), [&, to = to](int a, int b) { return before(a, b, to); });
    const GridBox& g = l.grids[static_cast<size_t>(to)];
    for (size_t k = 0; k < from.size(); ++k)
      ports[{from[k], to}] = g.cells.y0 + g.cells.height() * static_cast<double>(k + 1) / static_cast<double>(from.size() + 1);
  }
  return ports;
}

// Where an arrow comes from as it reaches its target, for ordering ports so
// that arrows into one grid need not cross: from above, the one on the track
// nearest the target enters highest; from below, lowest; level ones between,
// in the order of their sources' heights.
struct Approach {
  int side = 1;  // 0 above, 1 level, 2 below
  double key = 0;
};
Approach approach_of(const ArrowRoute& a, const GridBox& source) {
  const std::vector<Vec2d>& p = a.points;
  if (p.size() < 3) return {1, mid_y(source)};
  const Vec2d turn = p[p.size() - 2], above = p[p.size() - 3];  // the last vertical run, into the final one
  if (above.x != turn.x) return {1, mid_y(source)};
  return above.y < turn.y ? Approach{0, -turn.x} : Approach{2, turn.x};
}

// Proper crossings between arrows (touching ends and shared stretches do not count).
int crossings(const std::vector<ArrowRoute>& arrows) {
  int n = 0;
  for (size_t i = 0; i < arrows.size(); ++i)
    for (size_t j = i + 1; j < arrows.size(); ++j)
      for (size_t a = 1; a < arrows[i].points.size(); ++a)
        for (size_t b = 1; b < arrows[j].points.size(); ++b) {
          Vec2d h0 = arrows[i].points[a - 1], h1 = arrows[i].points[a];
          Vec2d v0 = arrows[j].points[b - 1], v1 = arrows[j].points[b];
          if (h0.y != h1.y) std::swap(h0, v0), std::swap(h1, v1);
          if (h0.y != h1.y || v0.x != v1.x) continue;  // not one horizontal and one vertical
          n += std::min(h0.x, h1.x) < v0.x && v0.x < std::max(h0.x, h1.x) && std::min(v0.y, v1.y) < h0.y &&
               h0.y < std::max(v0.y, v1.y);
        }
  return n;
}

// Every arrow, one search each in edge order; an arrow keeps off the tracks
// of earlier arrows it shares no end with.
std::vector<ArrowRoute> route_all(const PipelineLayout& l, const LayoutOptions& o, const Edges& edges, const Ports& ports) {
  const double clear = 0.15 * o.gap_y, tip = 0.75 * clear;
  routing::Tracks t = routing::gap_tracks(l, o, 0.6 * o.gap_y, clear);
  for (const auto& [edge, y] : ports) t.ys.push_back(y);
  for (const GridBox& g : l.grids) t.ys.push_back(mid_y(g));
  routing::sort_unique(t.ys);
  std::vector<Rect> obstacles;
  for (const GridBox& g : l.grids)
    for (const Rect& r : {g.box, g.header}) obstacles.push_back({r.x0 - clear, r.y0 - clear, r.x1 + clear, r.y1 + clear});
  routing::RouteGraph graph(t.xs, t.ys, obstacles);
  std::vector<ArrowRoute> out;
  for (const auto& [from, to] : edges) {
    const GridBox &s = l.grids[static_cast<size_t>(from)], &target = l.grids[static_cast<size_t>(to)];
    const double y_from = mid_y(s), y_to = ports.at({from, to});
    const auto exit = std::lower_bound(t.xs.begin(), t.xs.end(), s.box.x1 + clear);
    const auto entry = std::upper_bound(t.xs.begin(), t.xs.end(), target.box.x0 - clear);
    const int start = exit == t.xs.end() ? -1 : graph.node(static_cast<int>(exit - t.xs.begin()), graph.y_index(y_from));
    const int goal = entry == t.xs.begin() ? -1 : graph.node(static_cast<int>(entry - t.xs.begin()) - 1, graph.y_index(y_to));
    std::vector<Vec2d> p{{s.cells.x1 + tip, y_from}};
    for (int n : graph.route(from, to, start, goal, 0.6 * o.gap_x, 4.0)) p.push_back(graph.point(n));
    p.push_back({target.box.x0 - tip, y_to});
    out.push_back({from, to, corners_only(p)});
  }
  return out;
}

}  // namespace

std::vector<std::pair<int, int>> arrow_edges(const attn::Trace& trace, const PipelineLayout& layout) {
  std::vector<std::pair<int, int>> out;
  std::map<int, int> grid_of;  // stage -> grid
  for (size_t k = 0; k < layout.grids.size(); ++k) grid_of[layout.grids[k].stage] = static_cast<int>(k);
  auto laid_out = [&](const attn::StageRef& ref) {
    const auto it = grid_of.find(trace.index_of(ref));
    return it == grid_of.end() ? -1 : it->second;
  };
  for (size_t k = 0; k < layout.grids.size(); ++k) {
    const attn::Stage& s = trace.stages[static_cast<size_t>(layout.grids[k].stage)];
    int parameter = -1;
    for (const attn::StageRef& in : s.inputs)
      if (laid_out(in) >= 0 && is_parameter_stage(*trace.find(in))) parameter = laid_out(in);
    for (const attn::StageRef& in : s.inputs) {
      const int from = laid_out(in);
      if (from < 0) continue;
      const int to = parameter >= 0 && !is_parameter_stage(*trace.find(in)) ? parameter : static_cast<int>(k);
      if (std::find(out.begin(), out.end(), std::make_pair(from, to)) == out.end()) out.push_back({from, to});
    }
  }
  return out;
}

void route_arrows(const attn::Trace& trace, const LayoutOptions& o, PipelineLayout& l) {
  l.arrows.clear();
  const Edges edges = arrow_edges(trace, l);
  if (edges.empty()) return;
  // First guess at port order: earlier bands, then higher sources, enter higher.
  const Ports guess = spread_ports(l, edges, [&](int a, int b, int) {
    const GridBox &ga = l.grids[static_cast<size_t>(a)], &gb = l.grids[static_cast<size_t>(b)];
    return ga.band != gb.band ? ga.band < gb.band : mid_y(ga) < mid_y(gb);
  });
  l.arrows = route_all(l, o, edges, guess);
  // Then the order the routes actually arrive in; keep whichever crosses less.
  std::map<std::pair<int, int>, Approach> seen;
  for (const ArrowRoute& a : l.arrows) seen[{a.from, a.to}] = approach_of(a, l.grids[static_cast<size_t>(a.from)]);
  const Ports arrived = spread_ports(l, edges, [&](int a, int b, int to) {
    const Approach &pa = seen[{a, to}], &pb = seen[{b, to}];
    return pa.side != pb.side ? pa.side < pb.side : pa.key < pb.key;
  });
  if (arrived != guess) {
    std::vector<ArrowRoute> again = route_all(l, o, edges, arrived);
    if (crossings(again) < crossings(l.arrows)) l.arrows = std::move(again);
  }
  for (const ArrowRoute& a : l.arrows)
    for (const Vec2d& v : a.points) l.bounds = united(l.bounds, {v.x, v.y, v.x, v.y});
}

}  // namespace model
