// The routing grid behind the layout's arrows: every crossing of a set of
// vertical and horizontal lines (the tracks through the gaps, and the port
// heights) that lies outside every obstacle, joined to its neighbours along
// a line when no obstacle lies between. Cheapest paths prefer few bends and
// keep off track stretches that unrelated arrows already use, so two arrows
// never run on top of each other when there is room, unless they share an end.
#pragma once

#include <utility>
#include <vector>

#include "model/layout/layout.hpp"

namespace model::routing {

// Lines of the routing grid, each sorted and without duplicates.
struct Tracks {
  std::vector<double> xs, ys;
};

// Tracks through the gaps of a layout: the middle of each gap and, where it
// is wide enough, one on either side (at most `spacing` away), all at least
// `clear` from every grid.
Tracks gap_tracks(const PipelineLayout& layout, const LayoutOptions& options, double spacing, double clear);
void sort_unique(std::vector<double>& v);

class RouteGraph {
 public:
  // xs and ys sorted, without duplicates; obstacles already grown by the clearance.
  RouteGraph(std::vector<double> xs, std::vector<double> ys, const std::vector<Rect>& obstacles);

  int node(int i, int j) const { return j * nx() + i; }
  int nx() const { return static_cast<int>(xs_.size()); }
  int ny() const { return static_cast<int>(ys_.size()); }
  Vec2d point(int node) const { return {xs_[static_cast<size_t>(node % nx())], ys_[static_cast<size_t>(node / nx())]}; }
  bool free(int node) const { return free_[static_cast<size_t>(node)]; }
  // Index of a line, or -1 when that coordinate is not one.
  int x_index(double x) const;
  int y_index(double y) const;

  // The cheapest path (a node list) from `start`, leaving rightwards, to
  // `goal`, arriving rightwards; empty when there is none. Cost: length, plus
  // `bend` per turn, plus `shared` times the length of stretches that an arrow
  // with another source and another target uses (branching from one source
  // or merging into one target reads fine; anything else looks like a false
  // connection). The path is then recorded as the arrow source -> target's.
  std::vector<int> route(int source, int target, int start, int goal, double bend, double shared);

 private:
  int neighbour(int node, int dir) const;  // -1 when blocked or off the grid
  int edge(int node, int dir) const;       // index into users_, for a free step

  std::vector<double> xs_, ys_;
  std::vector<bool> free_;                   // per node
  std::vector<bool> h_open_, v_open_;        // step to the right / downwards is clear
  std::vector<std::vector<std::pair<int, int>>> users_;  // per edge: (source, target) of the arrows on it
};

}  // namespace model::routing
