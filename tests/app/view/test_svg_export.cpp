// pipeline_svg read back by Python's xml.etree (an independent XML parser):
// one <rect class="cell"> per laid-out cell, each filled with exactly the
// colour the grid's ColourScale gives its value (masked cells: the hatch
// pattern), at the layout's place; numbers and titles are <text>.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "python_reader.hpp"
#include "scenes.hpp"
#include "model/export/svg_export.hpp"

namespace {

// Prints "stage head row col fill x y" per cell rect, then "texts N".
const char* kReadSvg = R"py(
import sys
import xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
for g in root.findall('s:g', ns):
    for r in g.findall('s:rect', ns):
        if r.get('class') == 'cell':
            print(g.get('data-stage'), g.get('data-head'), r.get('data-row'), r.get('data-col'), r.get('fill'), r.get('x'), r.get('y'))
print('texts', len(root.findall('.//s:text', ns)), 'background', len([r for r in root.findall('s:rect', ns) if r.get('class') == 'background']))
)py";

struct SvgCells {
  std::map<std::string, std::string> fill;  // "stage head row col" -> fill
  std::map<std::string, std::pair<double, double>> at;
  int cells = 0, texts = 0, backgrounds = 0;
};

std::optional<SvgCells> read_back(const std::string& svg, const std::string& name) {
  const std::string path = std::filesystem::temp_directory_path() / ("attnviz_test_" + name + ".svg");
  std::ofstream(path) << svg;
  const auto py = attn::test::run_python(kReadSvg, {path});
  std::filesystem::remove(path);
  if (!py.ran) {
    MESSAGE("skipped the xml.etree read-back: " << py.skip_reason);
    return std::nullopt;
  }
  REQUIRE(py.status == 0);
  SvgCells out;
  for (const std::string& line : py.lines) {
    std::istringstream in(line);
    std::string a, b, c, d, fill;
    in >> a >> b;
    if (a == "texts") {
      out.texts = std::stoi(b);
      in >> c >> d;
      out.backgrounds = std::stoi(d);
      continue;
    }
    double x = 0, y = 0;
    in >> c >> d >> fill >> x >> y;
    const std::string key = a + " " + b + " " + c + " " + d;
    out.fill[key] = fill;
    out.at[key] = {x, y};
    ++out.cells;
  }
  return out;
}

}  // namespace

TEST_CASE("SVG of the pipeline: a rect per cell, fills from the colour scale, masked cells hatched") {
  const attn::Trace trace = attn::compute_trace(test_scenes::small_projected());
  const model::PipelineLayout layout = model::layout_pipeline(trace);
  model::ColourOptions colour;
  colour.signed_map = model::ColourmapId::BlueWhiteOrange;
  const std::vector<model::ColourScale> scales = model::colour_scales(trace, colour);
  const auto got = read_back(model::pipeline_svg(trace, layout, scales, {}), "pipeline");
  if (!got) return;
  int expected_cells = 0, masked = 0;
  for (const model::GridBox& g : layout.grids) {
    const attn::Stage& s = trace.stages[static_cast<size_t>(g.stage)];
    expected_cells += g.rows * g.cols;
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.cols; ++c) {
        const std::string key = attn::to_string(s.id) + " " + std::to_string(s.head) + " " + std::to_string(r) + " " + std::to_string(c);
        CAPTURE(key);
        REQUIRE(got->fill.count(key) == 1);
        const std::string want = s.is_blocked(r, c) ? "url(#masked)"
                                                    : model::svg_colour(model::colour_of(scales[static_cast<size_t>(g.stage)], r, s.value(r, c)));
        masked += s.is_blocked(r, c);
        CHECK(got->fill.at(key) == want);
        CHECK(got->at.at(key).first == doctest::Approx(g.col_x(c)).epsilon(1e-3));
        CHECK(got->at.at(key).second == doctest::Approx(g.row_y(r)).epsilon(1e-3));
      }
  }
  CHECK(masked > 0);  // the causal scene has blocked cells to hatch
  CHECK(got->cells == expected_cells);
  CHECK(got->texts > expected_cells / 2);  // most cells print their number, plus titles and labels
  CHECK(got->backgrounds == 1);
}

TEST_CASE("SVG of one grid holds only that grid's cells and a transparent one has no background") {
  const attn::Trace trace = attn::compute_trace(test_scenes::small_projected());
  const model::PipelineLayout layout = model::layout_pipeline(trace);
  const std::vector<model::ColourScale> scales = model::colour_scales(trace, {});
  model::SvgOptions o;
  o.stage = trace.index_of({attn::StageKind::weights, 0});
  o.transparent = true;
  REQUIRE(o.stage >= 0);
  const auto got = read_back(model::pipeline_svg(trace, layout, scales, o), "one_grid");
  if (!got) return;
  const attn::Stage& w = trace.stages[static_cast<size_t>(o.stage)];
  CHECK(got->cells == w.value.rows() * w.value.cols());
  for (const auto& [key, fill] : got->fill) CHECK(key.rfind("weights 0 ", 0) == 0);
  CHECK(got->backgrounds == 0);
}

TEST_CASE("SVG: token column labels turn upright as on the canvas, and small values print in the canvas's compact form") {
  attn::Scenario sc = test_scenes::small_projected();
  sc.tokens.clear();
  for (Eigen::Index i = 0; i < sc.x.rows(); ++i) sc.tokens.push_back("token_" + std::to_string(i) + "_long");
  sc.x(0, 0) = 0.004;  // X[0][0]: printed as ".004" on the canvas, blank in the SVG before
  const attn::Trace trace = attn::compute_trace(sc);
  model::LayoutOptions lo;
  lo.cell = model::auto_cell_size(trace);
  const model::PipelineLayout layout = model::layout_pipeline(trace, lo);
  const std::string svg = model::pipeline_svg(trace, layout, model::colour_scales(trace, {}), {});
  // Every key label of the scores grid is drawn turned, not side by side.
  const size_t scores = svg.find("data-stage=\"scores\"");
  REQUIRE(scores != std::string::npos);
  const std::string grid = svg.substr(scores, svg.find("</g>", scores) - scores);
  for (size_t i = 0; i < sc.tokens.size(); ++i) {
    const size_t at = grid.find(">" + sc.tokens[i] + "</text>");
    CAPTURE(sc.tokens[i]);
    REQUIRE(at != std::string::npos);
  }
  size_t turned = 0;
  for (size_t at = grid.find("rotate(-90"); at != std::string::npos; at = grid.find("rotate(-90", at + 1)) ++turned;
  CHECK(turned == sc.tokens.size());
  // X's first cell holds ".004" (the canvas's form) in the SVG too.
  const size_t x = svg.find("data-stage=\"x\"");
  REQUIRE(x != std::string::npos);
  const std::string xgrid = svg.substr(x, svg.find("</g>", x) - x);
  CHECK_MESSAGE(xgrid.find(">.004</text>") != std::string::npos, xgrid.substr(0, 2000));
}
