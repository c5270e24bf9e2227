// Arrows read correctly: over every scene in assets/scenarios, several view
// sizes (different wrappings, stacked or side-by-side projections), all heads
// and one head, every arrow is an orthogonal path from its source's right side
// to just left of its target that crosses no grid (or title) it does not connect, and
// every input -> stage edge whose grids are both laid out has its arrow.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "model/layout/arrow_routes.hpp"
#include "model/layout/layout.hpp"

namespace {

std::string name_of(const attn::Trace& t, const model::GridBox& g) {
  const attn::Stage& s = t.stages[static_cast<size_t>(g.stage)];
  const std::string id = attn::to_string(s.id);
  return s.head >= 0 ? id + "[head " + std::to_string(s.head) + "]" : id;
}

std::string describe(const attn::Trace& t, const model::PipelineLayout& l, const model::ArrowRoute& a) {
  std::ostringstream out;
  out << "arrow " << name_of(t, l.grids[static_cast<size_t>(a.from)]) << " -> " << name_of(t, l.grids[static_cast<size_t>(a.to)])
      << " through";
  for (const model::Vec2d& p : a.points) out << " (" << p.x << ", " << p.y << ")";
  return out.str();
}

std::string describe(const attn::Trace& t, const model::GridBox& g) {
  std::ostringstream out;
  out << "grid " << name_of(t, g) << " box [" << g.box.x0 << ", " << g.box.x1 << ") x [" << g.box.y0 << ", " << g.box.y1 << ")";
  return out.str();
}

// Whether the segment a-b runs through the inside of r (touching an edge does not count).
bool crosses(model::Vec2d a, model::Vec2d b, const model::Rect& r) {
  return std::max(a.x, b.x) > r.x0 && std::min(a.x, b.x) < r.x1 && std::max(a.y, b.y) > r.y0 && std::min(a.y, b.y) < r.y1;
}

// The edges a reader expects, written from the articles' convention rather
// than from arrow_edges(): X -> W_Q -> Q for a product with a parameter.
std::set<std::pair<int, int>> expected_edges(const attn::Trace& t, const model::PipelineLayout& l) {
  std::set<std::pair<int, int>> out;
  auto grid = [&](const attn::StageRef& ref) {
    const model::GridBox* g = l.find(t.index_of(ref));
    return g ? static_cast<int>(g - l.grids.data()) : -1;
  };
  for (size_t k = 0; k < l.grids.size(); ++k) {
    const attn::Stage& s = t.stages[static_cast<size_t>(l.grids[k].stage)];
    int parameter = -1;
    for (const attn::StageRef& in : s.inputs)
      if (grid(in) >= 0 && model::is_parameter_stage(*t.find(in))) parameter = grid(in);
    for (const attn::StageRef& in : s.inputs) {
      if (grid(in) < 0) continue;
      if (parameter < 0 || model::is_parameter_stage(*t.find(in))) out.insert({grid(in), static_cast<int>(k)});
      else out.insert({grid(in), parameter});
    }
  }
  return out;
}

// Every failure names the scene, the view and the offending arrow and grid.
void check_arrows(const attn::Trace& t, const model::PipelineLayout& l, const std::string& where) {
  INFO(where << ", " << l.bands << " band(s)");
  std::set<std::pair<int, int>> drawn;
  for (const model::ArrowRoute& a : l.arrows) {
    const std::string arrow = describe(t, l, a);
    REQUIRE_MESSAGE(a.points.size() >= 2, arrow);
    drawn.insert({a.from, a.to});
    const model::GridBox& from = l.grids[static_cast<size_t>(a.from)];
    const model::GridBox& to = l.grids[static_cast<size_t>(a.to)];
    // Starts at the source's right side, ends just left of the target, heading right.
    const model::Vec2d first = a.points.front(), last = a.points.back(), before = a.points[a.points.size() - 2];
    CHECK_MESSAGE((first.x >= from.cells.x1 && first.x <= from.cells.x1 + 6 && first.y > from.cells.y0 && first.y < from.cells.y1),
                  arrow << " does not start at the right side of " << describe(t, from));
    CHECK_MESSAGE((last.x < to.box.x0 && last.x >= to.box.x0 - 6 && last.y > to.cells.y0 && last.y < to.cells.y1),
                  arrow << " does not end just left of " << describe(t, to));
    CHECK_MESSAGE((before.y == last.y && before.x < last.x), arrow << " does not enter its target from the left");
    for (size_t i = 1; i < a.points.size(); ++i) {
      const model::Vec2d p = a.points[i - 1], q = a.points[i];
      CHECK_MESSAGE((p.x == q.x || p.y == q.y), arrow << ": segment " << i << " is not horizontal or vertical");
      for (const model::GridBox& g : l.grids) {
        // Only the first segment may run inside the source (from its cells to its edge).
        if (&g == &from && i == 1) continue;
        CHECK_MESSAGE(!crosses(p, q, g.box), arrow << ": segment " << i << " crosses " << describe(t, g));
        // Titles run a little into the gap on their right: arrows keep off them too.
        CHECK_MESSAGE(!crosses(p, q, g.header), arrow << ": segment " << i << " crosses the title of " << describe(t, g));
      }
    }
  }
  for (const auto& [from, to] : expected_edges(t, l))
    CHECK_MESSAGE(drawn.count({from, to}) == 1, "no arrow " << name_of(t, l.grids[static_cast<size_t>(from)]) << " -> "
                                                            << name_of(t, l.grids[static_cast<size_t>(to)]));
  CHECK_MESSAGE(drawn.size() == l.arrows.size(), "duplicate arrows");
  CHECK_MESSAGE(drawn == expected_edges(t, l), "arrows that are not data-flow edges");
}

}  // namespace

TEST_CASE("arrows: every data-flow edge has an arrow, and no arrow crosses a grid it does not connect") {
  std::vector<std::filesystem::path> scenes;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios"))
    if (entry.path().extension() == ".json") scenes.push_back(entry.path());
  std::sort(scenes.begin(), scenes.end());
  REQUIRE(scenes.size() >= 20);
  // Canvas sizes from a small laptop window to a full HD one: they wrap into
  // different numbers of bands and pick stacked or side-by-side projections.
  const std::pair<double, double> views[] = {{600, 480}, {1024, 768}, {1400, 900}, {1920, 1080}};
  int wrapped = 0, side_by_side = 0;
  for (const std::filesystem::path& file : scenes) {
    const attn::Trace t = attn::compute_trace(attn::io::load_scenario(file.string()).scenario);
    model::LayoutOptions o;
    o.cell = model::auto_cell_size(t);
    for (const auto& [w, h] : views)
      for (const int head : {-1, t.dims.n_heads - 1}) {
        o.head = head;
        const model::PipelineLayout l = model::layout_for_view(t, o, w, h);
        std::ostringstream where;
        where << file.filename().string() << " in a " << w << "x" << h << " view, head " << head;
        check_arrows(t, l, where.str());
        wrapped += l.bands > 1;
        const model::GridBox* wq = l.find(t.index_of({attn::StageKind::w_q, 0})), *q = l.find(t.index_of({attn::StageKind::q, 0}));
        side_by_side += wq && q && wq->box.y0 == q->box.y0 && l.find(t.index_of({attn::StageKind::w_k, 0}))->box.y0 == q->box.y0;
      }
  }
  // The sweep must cover the hard cases, or it proves little.
  CHECK(wrapped > 10);
  CHECK(side_by_side > 3);
}

TEST_CASE("arrows: a wrapped layout links the head outputs to concat across the band gap") {
  const attn::Trace t = attn::compute_trace(
      attn::io::load_scenario(std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/four_heads.json").scenario);
  model::LayoutOptions o;
  o.cell = model::auto_cell_size(t);
  // Break the line right after the head outputs, as a narrow window does.
  o.wrap_width = model::place_grids(t, o).find(t.index_of({attn::StageKind::head_output, 0}))->box.x1 + 1;
  const model::PipelineLayout l = model::layout_pipeline(t, o);
  const model::GridBox* concat = l.find(t.index_of({attn::StageKind::concat, -1}));
  REQUIRE(concat != nullptr);
  int across = 0;
  for (int head = 0; head < 4; ++head) {
    const model::GridBox* out = l.find(t.index_of({attn::StageKind::head_output, head}));
    REQUIRE(out != nullptr);
    if (out->band == concat->band) continue;
    ++across;
    const auto arrow = std::find_if(l.arrows.begin(), l.arrows.end(), [&](const model::ArrowRoute& a) {
      return l.grids[static_cast<size_t>(a.from)].stage == out->stage && l.grids[static_cast<size_t>(a.to)].stage == concat->stage;
    });
    REQUIRE_MESSAGE(arrow != l.arrows.end(), "no arrow from head " << head << "'s output to concat");
    check_arrows(t, l, "four_heads.json in two bands");
  }
  CHECK(across == 4);
}
