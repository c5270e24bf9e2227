// Convex hulls, for "every output lies in the convex hull of the values":
// the distance from a point to the hull of a set of points in any dimension
// (0 inside), and the 2-D hull polygon the app draws when d_v = 2.
#pragma once

#include <vector>

#include "attn/base/matrix.hpp"

namespace attn {

// Euclidean distance from p (d) to the convex hull of the rows of points
// (m, d): 0 when p is a convex combination of them, up to rounding. Works
// when the hull is flat (fewer than d + 1 points, or all on a plane), where
// "inside" means on that flat piece. Wolfe's minimum-norm-point algorithm,
// exact up to rounding in a finite number of steps.
// Throws std::invalid_argument for no points or mismatched widths.
double hull_distance(const Mat& points, const Vec& p);

// hull_distance(points, p) <= tolerance.
bool in_convex_hull(const Mat& points, const Vec& p, double tolerance);

// Indices of the rows of points (m, 2) on the hull, counter-clockwise from
// the lowest-x point, without collinear points on edges. One index when all
// points coincide, two when they are collinear. Andrew's monotone chain.
// Throws std::invalid_argument when points does not have 2 columns.
std::vector<int> convex_hull_2d(const Mat& points);

}  // namespace attn
