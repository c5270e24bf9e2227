// The hull helpers against references that share no code with them: in 2-D
// brute force (inside some triangle of the points, else the nearest segment
// between two of them), in d dimensions a cube (distance = how far p sticks
// out of [0,1]^d) and a flat triangle in 5-D (distance = the offset from its
// plane). Tolerance 1e-9 on distances of order 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/explore/convex_hull.hpp"

namespace {

constexpr double kHullTol = 1e-9;

double segment_distance(const attn::Mat& pts, int a, int b, double px, double py) {
  const double ax = pts(a, 0), ay = pts(a, 1), dx = pts(b, 0) - ax, dy = pts(b, 1) - ay;
  const double len2 = dx * dx + dy * dy;
  const double t = len2 == 0 ? 0 : std::clamp(((px - ax) * dx + (py - ay) * dy) / len2, 0.0, 1.0);
  return std::hypot(px - ax - t * dx, py - ay - t * dy);
}

bool in_triangle(const attn::Mat& pts, int a, int b, int c, double px, double py) {
  auto side = [&](int i, int j) {
    return (pts(j, 0) - pts(i, 0)) * (py - pts(i, 1)) - (pts(j, 1) - pts(i, 1)) * (px - pts(i, 0));
  };
  const double s1 = side(a, b), s2 = side(b, c), s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

// Brute force: inside iff in some triangle of the points (Carathéodory);
// outside, the nearest hull point lies on a segment between two points.
double brute_distance_2d(const attn::Mat& pts, double px, double py) {
  const int n = static_cast<int>(pts.rows());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      for (int c = b + 1; c < n; ++c)
        if (in_triangle(pts, a, b, c, px, py)) return 0;
  double best = std::hypot(px - pts(0, 0), py - pts(0, 1));
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) best = std::min(best, segment_distance(pts, a, b, px, py));
  return best;
}

attn::Mat random_points(std::mt19937_64& rng, int n, int d, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  attn::Mat m(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) m(i, j) = u(rng);
  return m;
}

}  // namespace

TEST_CASE("hull: 2-D distances agree with brute force, inside and out") {
  std::mt19937_64 rng(11);
  double worst = 0;
  std::string where;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 7;
    const attn::Mat pts = random_points(rng, n, 2, -1, 1);
    const attn::Mat probe = random_points(rng, 1, 2, -1.5, 1.5);
    const double want = brute_distance_2d(pts, probe(0, 0), probe(0, 1));
    const double got = attn::hull_distance(pts, probe.row(0).transpose());
    if (std::abs(got - want) > worst) {
      worst = std::abs(got - want);
      where = "trial " + std::to_string(trial) + " (" + std::to_string(n) + " points): got " + std::to_string(got) +
              " want " + std::to_string(want);
    }
  }
  INFO("worst: " << where);
  CHECK(worst <= kHullTol);
}

TEST_CASE("hull: distance to a cube in 1 to 6 dimensions, with interior points mixed in") {
  std::mt19937_64 rng(5);
  double worst = 0;
  for (int d = 1; d <= 6; ++d) {
    const int corners = 1 << d;
    attn::Mat pts(corners + 20, d);
    for (int c = 0; c < corners; ++c)
      for (int k = 0; k < d; ++k) pts(c, k) = (c >> k) & 1;
    pts.bottomRows(20) = random_points(rng, 20, d, 0, 1);
    for (int trial = 0; trial < 40; ++trial) {
      const attn::Vec p = random_points(rng, 1, d, -1, 2).row(0).transpose();
      const double want = (p - p.cwiseMax(0.0).cwiseMin(1.0)).norm();
      const double got = attn::hull_distance(pts, p);
      INFO("d = " << d << ", trial " << trial << ": got " << got << " want " << want);
      CHECK(std::abs(got - want) <= kHullTol);
      worst = std::max(worst, std::abs(got - want));
    }
  }
  MESSAGE("largest cube distance error " << worst);
}

TEST_CASE("hull: a flat triangle in 5-D: inside means on it, off it the distance is the offset") {
  attn::Mat tri = attn::Mat::Zero(3, 5);
  tri(0, 0) = 0, tri(0, 1) = 0;
  tri(1, 0) = 2, tri(1, 1) = 0;
  tri(2, 0) = 0, tri(2, 1) = 2;
  attn::Vec on(5), off(5);
  on << 0.5, 0.5, 0, 0, 0;
  off << 0.5, 0.5, 0.3, -0.4, 0;  // above the same point, 0.5 away from the plane
  CHECK(attn::hull_distance(tri, on) <= kHullTol);
  CHECK(attn::hull_distance(tri, off) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(attn::in_convex_hull(tri, on, kHullTol));
  CHECK_FALSE(attn::in_convex_hull(tri, off, kHullTol));
  // Any convex combination is inside, up to rounding.
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const attn::Mat pts = random_points(rng, 4, 5, -3, 3);
    attn::Vec w = random_points(rng, 1, 4, 0, 1).row(0).transpose();
    w /= w.sum();
    const attn::Vec p = pts.transpose() * w;
    CHECK(attn::hull_distance(pts, p) <= kHullTol);
  }
  CHECK_THROWS_AS(attn::hull_distance(attn::Mat(0, 2), attn::Vec::Zero(2)), std::invalid_argument);
  CHECK_THROWS_AS(attn::hull_distance(tri, attn::Vec::Zero(2)), std::invalid_argument);
}

TEST_CASE("hull: the 2-D polygon is counter-clockwise and drops inner and edge points") {
  attn::Mat pts(7, 2);
  pts << 0, 0,   // 0 corner
      2, 0,      // 1 corner
      2, 2,      // 2 corner
      0, 2,      // 3 corner
      1, 1,      // 4 inside
      1, 0,      // 5 on an edge
      2, 2;      // 6 duplicate of 2
  const std::vector<int> hull = attn::convex_hull_2d(pts);
  CHECK(hull == std::vector<int>{0, 1, 2, 3});
  // Signed area (shoelace) is positive: counter-clockwise.
  double area = 0;
  for (size_t k = 0; k < hull.size(); ++k) {
    const int a = hull[k], b = hull[(k + 1) % hull.size()];
    area += pts(a, 0) * pts(b, 1) - pts(b, 0) * pts(a, 1);
  }
  CHECK(area / 2 == doctest::Approx(4.0));
  attn::Mat line(3, 2);
  line << 0, 0, 2, 2, 1, 1;
  CHECK(attn::convex_hull_2d(line) == std::vector<int>{0, 1});
  attn::Mat one(2, 2);
  one << 1, 1, 1, 1;
  CHECK(attn::convex_hull_2d(one).size() == 1);
  CHECK_THROWS_AS(attn::convex_hull_2d(attn::Mat::Zero(3, 3)), std::invalid_argument);
}

TEST_CASE("hull: every point of random 2-D sets is inside or on the drawn polygon") {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < 100; ++trial) {
    const attn::Mat pts = random_points(rng, 3 + trial % 9, 2, -1, 1);
    const std::vector<int> hull = attn::convex_hull_2d(pts);
    REQUIRE(hull.size() >= 3);
    for (int i = 0; i < pts.rows(); ++i)
      for (size_t k = 0; k < hull.size(); ++k) {
        const int a = hull[k], b = hull[(k + 1) % hull.size()];
        const double turn = (pts(b, 0) - pts(a, 0)) * (pts(i, 1) - pts(a, 1)) -
                            (pts(b, 1) - pts(a, 1)) * (pts(i, 0) - pts(a, 0));
        CHECK_MESSAGE(turn >= -1e-12, "trial " << trial << ": point " << i << " right of edge " << a << "->" << b);
      }
  }
}
