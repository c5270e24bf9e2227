// The grid-wide number decision (issue 6): a grid shows a number in every
// cell or in none, and hides them only when some value's narrowest form
// cannot fit at the smallest readable size. Text is measured with a fake
// font whose advances are DejaVu Sans' (in em), so widths are realistic
// and independent of the code under test.
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <doctest/doctest.h>

#include "model/layout/cell_format.hpp"
#include "model/layout/cell_text_plan.hpp"

using model::CellSize;
using model::CellTextPlan;

namespace {

double advance_em(char32_t c) {
  if (c >= '0' && c <= '9') return 0.636;
  switch (c) {
    case '.': return 0.318;
    case '-': return 0.361;
    case 'e': return 0.615;
    case 'N': return 0.748;
    case 'a': return 0.613;
    case U'≈':
    case U'−': return 0.838;
    case U'∞': return 0.833;
    default: return 0.6;
  }
}

// Sum of advances over the UTF-8 code points of s, times px.
double fake_width(const std::string& s, double px) {
  double em = 0;
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t c = len == 1 ? b : b & (0x3F >> (len - 1));
    for (int k = 1; k < len && i + static_cast<size_t>(k) < s.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
    em += advance_em(c);
    i += static_cast<size_t>(len);
  }
  return em * px;
}

const model::TextWidth kWidth = fake_width;

// Every value gets a label that fits its cell at the plan's size and reads as
// the value; returns the first broken value, described, or "".
std::string check_every_cell(const std::vector<double>& values, const CellTextPlan& plan, CellSize cell) {
  for (double v : values) {
    const std::string label = model::cell_label(v, plan, cell, kWidth);
    std::ostringstream why;
    why.precision(17);
    if (label.empty()) why << "blank";
    else if (fake_width(label, plan.px) > cell.w - 3 + 1e-9)
      why << "\"" << label << "\" is " << fake_width(label, plan.px) << " px wide in a " << cell.w << " px cell";
    else if (label == "≈0" && !(v != 0 && std::fabs(v) < plan.near_zero)) why << "≈0 above the bound";
    // A coarse sanity check; test_cell_format.cpp checks read-back exactly.
    else if (label != "≈0" && label != "−∞" &&
             std::fabs(std::strtold(label.c_str(), nullptr) - v) > 0.5L * std::fabs(static_cast<long double>(v)))
      why << "\"" << label << "\" does not read as it";
    if (!why.str().empty()) {
      std::ostringstream out;
      out.precision(17);
      out << v << ": " << why.str() << " (px " << plan.px << ")";
      return out.str();
    }
  }
  return "";
}

// The stage of issue 6: blanks appeared beside ordinary numbers.
const std::vector<double> kIssueStage{0.5, -0.006, 0.25, 1.8e-13, 0.125, -0.42, 0.0, -INFINITY};

}  // namespace

TEST_CASE("cell text plan: -0.006 and 1.8e-13 get numbers at the default lesson's cell size") {
  const CellSize cell{27.2, 27.2};  // the default lesson at fit, 1600x1000
  const CellTextPlan plan = model::plan_cell_text(kIssueStage, cell, 1.0, kWidth);
  REQUIRE(plan.numbers);
  CHECK(plan.px >= model::kMinReadablePx);
  CHECK(plan.px <= 0.4 * 27.2 + 1e-9);
  const std::string broken = check_every_cell(kIssueStage, plan, cell);
  CHECK_MESSAGE(broken.empty(), broken);
  CHECK(model::cell_label(-0.006, plan, cell, kWidth) == "-.006");
  CHECK(model::cell_label(1.8e-13, plan, cell, kWidth) == "≈0");  // ".25" shows hundredths
  CHECK(model::cell_label(0.0, plan, cell, kWidth) == "0");
  CHECK(model::cell_label(-INFINITY, plan, cell, kWidth) == "−∞");
}

TEST_CASE("cell text plan: -1e30 hides the whole grid's numbers where it cannot fit, and shows them zoomed in") {
  std::vector<double> values = kIssueStage;
  values.push_back(-1e30);
  // "-1e30" is 2.88 em: 24.5 px at 8.5 px, more than a 27 px cell leaves free.
  const CellTextPlan small = model::plan_cell_text(values, {27.2, 27.2}, 1.0, kWidth);
  CHECK_FALSE(small.numbers);
  CHECK(small.px == 0);
  CHECK(model::cell_label(0.5, small, {27.2, 27.2}, kWidth).empty());  // none, not some

  const CellSize big{40, 40};
  const CellTextPlan plan = model::plan_cell_text(values, big, 1.0, kWidth);
  REQUIRE(plan.numbers);
  const std::string broken = check_every_cell(values, plan, big);
  CHECK_MESSAGE(broken.empty(), broken);
  CHECK(model::cell_label(-1e30, plan, big, kWidth) == "-1e30");
  CHECK(model::cell_label(1.8e-13, plan, big, kWidth) == "2e-13");  // room for it now
  CHECK(plan.px < 16);  // shrunk from 40% of the cell so "-1e30" fits
}

TEST_CASE("cell text plan: a cell has room exactly when the narrowest form fits at the smallest size") {
  const std::vector<double> values{0.5, -0.006};
  const double needed = fake_width("-.006", model::kMinReadablePx) + 3;
  CHECK(model::plan_cell_text(values, {needed + 0.01, 30}, 1.0, kWidth).numbers);
  CHECK_FALSE(model::plan_cell_text(values, {needed - 0.01, 30}, 1.0, kWidth).numbers);
  // Too short for text of the smallest size, however wide.
  CHECK_FALSE(model::plan_cell_text(values, {200, model::kMinReadablePx + 2.9}, 1.0, kWidth).numbers);
  CHECK(model::plan_cell_text(values, {200, model::kMinReadablePx + 3}, 1.0, kWidth).numbers);
  // Whether any number could fit at all (one digit), before looking at values.
  const double digit = fake_width("0", model::kMinReadablePx) + 3;
  CHECK(model::cell_fits_text({digit + 1e-9, model::kMinReadablePx + 3}, kWidth));
  CHECK_FALSE(model::cell_fits_text({digit - 0.01, 30}, kWidth));
  CHECK_FALSE(model::cell_fits_text({30, model::kMinReadablePx + 2.99}, kWidth));
}

TEST_CASE("cell text plan: across sizes, numbers everywhere or nowhere, and zooming in never hides them") {
  // Values over the whole double range, several grids.
  const std::vector<std::vector<double>> grids{
      kIssueStage,
      {-1e30, 0.5, 0.25, 1.8e-13},
      {-1.7976931348623157e308, 4.9e-324, -2.2250738585072014e-308, 1, 0},
      {12345.678, -0.000123, 1e-300, 7},
      {1, 0, 0, 0},
  };
  for (size_t gi = 0; gi < grids.size(); ++gi) {
    const std::vector<double>& values = grids[gi];
    bool shown_before = false;
    double shown_from = 0;
    for (double side = 4; side <= 200; side += 0.5) {
      const CellSize cell{side, side * 0.8};  // non-square cells too
      const CellTextPlan plan = model::plan_cell_text(values, cell, 1.0, kWidth);
      INFO("grid " << gi << ", cell " << cell.w << " x " << cell.h);
      if (plan.numbers) {
        const std::string broken = check_every_cell(values, plan, cell);
        CHECK_MESSAGE(broken.empty(), broken);
        CHECK(plan.px >= model::kMinReadablePx);
        CHECK(plan.px <= cell.h - 3 + 1e-9);
        if (!shown_before) shown_from = side;
        shown_before = true;
      } else {
        CHECK_MESSAGE(!shown_before, "hidden again at " << side << " after showing from " << shown_from);
        // Hidden only when necessary: some narrowest form does not fit at the smallest size.
        bool some_too_wide = cell.h - 3 < model::kMinReadablePx;
        const double bound = model::near_zero_bound(values, plan.max_sig);
        for (double v : values)
          some_too_wide |= fake_width(model::narrowest_candidate(v, bound), model::kMinReadablePx) > cell.w - 3;
        CHECK_MESSAGE(some_too_wide, "numbers hidden although every value fits");
      }
    }
    CHECK_MESSAGE(shown_before, "grid " << gi << " never shows numbers, even with 200 px cells");
  }
}

TEST_CASE("cell text plan: text grows with the cell up to its cap, and presentation mode raises the cap") {
  const std::vector<double> values{0.5, 0.25};
  CHECK(model::plan_cell_text(values, {30, 30}, 1.0, kWidth).px == doctest::Approx(12));
  CHECK(model::plan_cell_text(values, {100, 100}, 1.0, kWidth).px == doctest::Approx(17));
  CHECK(model::plan_cell_text(values, {100, 100}, 2.0, kWidth).px == doctest::Approx(34));
  CHECK(model::plan_cell_text(values, {30, 30}, 1.0, kWidth).max_sig == 2);
  CHECK(model::plan_cell_text(values, {44, 44}, 1.0, kWidth).max_sig == 3);
  CHECK(model::cell_label(0.1834, model::plan_cell_text({0.1834}, {60, 60}, 1.0, kWidth), {60, 60}, kWidth) == ".183");
}

TEST_CASE("cell text plan: presenting, a grid prints numbers at 16 px or none at all") {
  REQUIRE(model::kProjectorMinPx == 16);  // issue 40's rule for the back row at 1024×768
  const std::vector<double> values = {0.25, 0.5, -0.125, 1.0};
  // A 24 px cell prints these on screen, at 9.6 px (40%)...
  const CellTextPlan screen = model::plan_cell_text(values, {24, 24}, 1.5, kWidth);
  REQUIRE(screen.numbers);
  CHECK(screen.px < model::kProjectorMinPx);
  // ...but not on a projector, where 9.6 px cannot be read from the back.
  const CellTextPlan projector = model::plan_cell_text(values, {24, 24}, 1.5, kWidth, model::kProjectorMinPx);
  CHECK_FALSE(projector.numbers);
  CHECK_FALSE(model::cell_fits_text({14, 14}, kWidth, model::kProjectorMinPx));
  // A cell large enough prints every value, none below 16 px.
  const CellSize big{90, 90};
  const CellTextPlan large = model::plan_cell_text(values, big, 1.5, kWidth, model::kProjectorMinPx);
  REQUIRE(large.numbers);
  CHECK(large.px >= model::kProjectorMinPx);
  const std::string broken = check_every_cell(values, large, big);
  CHECK_MESSAGE(broken.empty(), broken);
}
