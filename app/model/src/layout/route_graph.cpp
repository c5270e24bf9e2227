// Orthogonal routing grid and its cheapest-path search (Dijkstra over
// (node, heading) states, so that turns can cost extra and a path never
// doubles back on itself).
#include "route_graph.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace model::routing {
namespace {

enum Dir { kRight = 0, kLeft = 1, kDown = 2, kUp = 3 };
int opposite(int d) { return d ^ 1; }

int index_of(const std::vector<double>& v, double x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  return it != v.end() && *it == x ? static_cast<int>(it - v.begin()) : -1;
}

}  // namespace

RouteGraph::RouteGraph(std::vector<double> xs, std::vector<double> ys, const std::vector<Rect>& obstacles)
    : xs_(std::move(xs)), ys_(std::move(ys)) {
  const size_t n = xs_.size() * ys_.size();
  free_.assign(n, true);
  h_open_.assign(n, true);
  v_open_.assign(n, true);
  users_.assign(2 * n, {});
  for (int j = 0; j < ny(); ++j) h_open_[static_cast<size_t>(node(nx() - 1, j))] = false;
  for (int i = 0; i < nx(); ++i) v_open_[static_cast<size_t>(node(i, ny() - 1))] = false;
  auto first_above = [](const std::vector<double>& v, double x) {  // first index with v[i] > x
    return static_cast<int>(std::upper_bound(v.begin(), v.end(), x) - v.begin());
  };
  auto first_from = [](const std::vector<double>& v, double x) {  // first index with v[i] >= x
    return static_cast<int>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
  };
  for (const Rect& o : obstacles) {
    // Lines strictly inside the obstacle's span; a line along its edge is clear.
    const int i0 = first_above(xs_, o.x0), i1 = first_from(xs_, o.x1);
    const int j0 = first_above(ys_, o.y0), j1 = first_from(ys_, o.y1);
    for (int j = j0; j < j1; ++j) {
      for (int i = i0; i < i1; ++i) free_[static_cast<size_t>(node(i, j))] = false;
      // Steps i -> i + 1 that overlap (x0, x1): xs[i] < x1 and xs[i + 1] > x0.
      for (int i = std::max(0, i0 - 1); i <= std::min(i1 - 1, nx() - 2); ++i) h_open_[static_cast<size_t>(node(i, j))] = false;
    }
    for (int i = i0; i < i1; ++i)
      for (int j = std::max(0, j0 - 1); j <= std::min(j1 - 1, ny() - 2); ++j) v_open_[static_cast<size_t>(node(i, j))] = false;
  }
}

int RouteGraph::x_index(double x) const { return index_of(xs_, x); }
int RouteGraph::y_index(double y) const { return index_of(ys_, y); }

int RouteGraph::neighbour(int at, int dir) const {
  const int i = at % nx(), j = at / nx();
  switch (dir) {
    case kRight: return h_open_[static_cast<size_t>(at)] ? at + 1 : -1;
    case kLeft: return i > 0 && h_open_[static_cast<size_t>(at - 1)] ? at - 1 : -1;
    case kDown: return v_open_[static_cast<size_t>(at)] ? at + nx() : -1;
    default: return j > 0 && v_open_[static_cast<size_t>(at - nx())] ? at - nx() : -1;
  }
}

int RouteGraph::edge(int at, int dir) const {
  const int n = nx() * ny();
  switch (dir) {
    case kRight: return at;
    case kLeft: return at - 1;
    case kDown: return n + at;
    default: return n + at - nx();
  }
}

std::vector<int> RouteGraph::route(int source, int target, int start, int goal, double bend, double shared) {
  if (start < 0 || goal < 0 || !free(start) || !free(goal)) return {};
  const double inf = std::numeric_limits<double>::infinity();
  const size_t states = 4 * xs_.size() * ys_.size();
  std::vector<double> dist(states, inf);
  std::vector<int> prev(states, -1);
  // A*: the straight-line (Manhattan) distance never overestimates what is left.
  const Vec2d to = point(goal);
  auto estimate = [&](int at) { return std::abs(point(at).x - to.x) + std::abs(point(at).y - to.y); };
  using Entry = std::pair<double, int>;  // (cost so far + estimate, state)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  dist[static_cast<size_t>(4 * start + kRight)] = 0;
  open.push({estimate(start), 4 * start + kRight});
  double best = inf;
  int best_state = -1;
  while (!open.empty()) {
    const auto [priority, state] = open.top();
    open.pop();
    if (priority >= best) break;  // nothing left can beat the path found
    const int at = state / 4, dir = state % 4;
    const double cost = dist[static_cast<size_t>(state)];
    if (priority > cost + estimate(at)) continue;  // a stale entry
    if (at == goal && dir != kLeft) {
      const double arrive = cost + (dir == kRight ? 0 : bend);  // the last step into the target goes right
      if (arrive < best) best = arrive, best_state = state;
    }
    for (int next_dir = 0; next_dir < 4; ++next_dir) {
      if (next_dir == opposite(dir)) continue;
      const int next = neighbour(at, next_dir);
      if (next < 0) continue;
      const Vec2d a = point(at), b = point(next);
      const double length = std::abs(b.x - a.x) + std::abs(b.y - a.y);
      bool crowded = false;
      for (const auto& [s, t] : users_[static_cast<size_t>(edge(at, next_dir))]) crowded = crowded || (s != source && t != target);
      const double c = cost + length + (crowded ? shared * length : 0) + (next_dir == dir ? 0 : bend);
      const int s = 4 * next + next_dir;
      if (c < dist[static_cast<size_t>(s)]) {
        dist[static_cast<size_t>(s)] = c;
        prev[static_cast<size_t>(s)] = state;
        open.push({c + estimate(next), s});
      }
    }
  }
  std::vector<int> path;
  for (int s = best_state; s >= 0; s = prev[static_cast<size_t>(s)]) path.push_back(s / 4);
  std::reverse(path.begin(), path.end());
  for (size_t p = 1; p < path.size(); ++p) {
    const int a = path[p - 1], b = path[p];
    const int dir = b == a + 1 ? kRight : b == a - 1 ? kLeft : b > a ? kDown : kUp;
    users_[static_cast<size_t>(edge(a, dir))].push_back({source, target});
  }
  return path;
}

}  // namespace model::routing
