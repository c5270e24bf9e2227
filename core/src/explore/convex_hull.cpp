// Hull distance by Wolfe's minimum-norm-point algorithm (Wolfe 1976): seen
// from p, the distance to the hull is the norm of the hull's point nearest
// the origin. A small "corral" of affinely independent points holds that
// point as a convex combination; each major step adds the point that most
// undercuts the current one, each minor step drops points whose weight would
// go negative. The 2-D polygon is Andrew's monotone chain.
#include "attn/explore/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

// Coefficients (summing to 1) of the point of the corral's affine hull
// nearest the origin: minimise |Bᵀv|² with Σv = 1. With G = B Bᵀ the
// solution is v ∝ (G + 1 1ᵀ)⁻¹ 1; adding 1 1ᵀ keeps the system invertible
// while the corral is affinely independent.
Vec affine_minimizer(const Mat& y, const std::vector<int>& corral) {
  const Eigen::Index s = static_cast<Eigen::Index>(corral.size());
  Mat b(s, y.cols());  // (s, d)
  for (Eigen::Index k = 0; k < s; ++k) b.row(k) = y.row(corral[static_cast<size_t>(k)]);
  Mat g = b * b.transpose();  // (s, s)
  g.array() += 1.0;
  const Vec u = g.ldlt().solve(Vec::Ones(s));
  return u / u.sum();
}

Vec combination(const Mat& y, const std::vector<int>& corral, const Vec& w) {
  Vec x = Vec::Zero(y.cols());
  for (size_t k = 0; k < corral.size(); ++k) x += w(static_cast<Eigen::Index>(k)) * y.row(corral[k]).transpose();
  return x;
}

// One minor loop: after adding a point, move the weights towards the affine
// minimiser, dropping points whose weight reaches 0, until every weight of
// the minimiser is positive. Returns false if the numbers stop making sense.
bool settle_corral(const Mat& y, std::vector<int>& corral, Vec& w) {
  for (size_t guard = 0; guard <= 2 * corral.size() + 2; ++guard) {
    const Vec v = affine_minimizer(y, corral);
    if (!v.allFinite()) return false;
    if ((v.array() > 0).all()) {
      w = v;
      return true;
    }
    double theta = 1;
    for (Eigen::Index k = 0; k < v.size(); ++k)
      if (v(k) <= 0 && w(k) - v(k) > 0) theta = std::min(theta, w(k) / (w(k) - v(k)));
    w = theta * v + (1 - theta) * w;
    std::vector<int> kept;
    std::vector<double> kept_w;
    for (Eigen::Index k = 0; k < w.size(); ++k)
      if (w(k) > 1e-15) kept.push_back(corral[static_cast<size_t>(k)]), kept_w.push_back(w(k));
    if (kept.empty()) return false;
    corral = kept;
    w = Eigen::Map<const Vec>(kept_w.data(), static_cast<Eigen::Index>(kept_w.size()));
    w /= w.sum();
  }
  return true;
}

}  // namespace

double hull_distance(const Mat& points, const Vec& p) {
  if (points.rows() == 0) throw std::invalid_argument("hull_distance: no points");
  if (points.cols() != p.size())
    throw std::invalid_argument("hull_distance: points have " + std::to_string(points.cols()) +
                                " coordinates, the point has " + std::to_string(p.size()));
  const Mat y = points.rowwise() - p.transpose();  // (m, d): the points seen from p
  const Vec norms = y.rowwise().squaredNorm();
  const double big = norms.maxCoeff();
  if (big == 0) return 0;
  // Below this the point is inside up to rounding (about 1e-13 of the spread).
  const double floor2 = 1e-26 * big;

  Eigen::Index first = 0;
  norms.minCoeff(&first);
  std::vector<int> corral{static_cast<int>(first)};
  Vec w = Vec::Ones(1);
  Vec x = y.row(first).transpose();
  double xx = x.squaredNorm();
  const long max_steps = 10L * (points.rows() + points.cols()) + 100;
  for (long step = 0; step < max_steps && xx > floor2; ++step) {
    Eigen::Index j = 0;
    const double lowest = (y * x).minCoeff(&j);
    // Every point lies beyond the plane through x normal to x (within a
    // relative 1e-12), so x is the nearest point: the distance is |x|.
    if (xx - lowest <= 1e-12 * xx) break;
    if (std::find(corral.begin(), corral.end(), static_cast<int>(j)) != corral.end()) break;  // rounding
    corral.push_back(static_cast<int>(j));
    w.conservativeResize(w.size() + 1);
    w(w.size() - 1) = 0;
    if (!settle_corral(y, corral, w)) break;
    const Vec next = combination(y, corral, w);
    const double next_xx = next.squaredNorm();
    if (!(next_xx < xx)) break;  // no progress left at this precision
    x = next;
    xx = next_xx;
  }
  return std::sqrt(xx);
}

bool in_convex_hull(const Mat& points, const Vec& p, double tolerance) { return hull_distance(points, p) <= tolerance; }

std::vector<int> convex_hull_2d(const Mat& points) {
  if (points.cols() != 2)
    throw std::invalid_argument("convex_hull_2d: points need 2 coordinates, got " + std::to_string(points.cols()));
  const int n = static_cast<int>(points.rows());
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  auto less = [&](int a, int b) {
    return points(a, 0) < points(b, 0) || (points(a, 0) == points(b, 0) && points(a, 1) < points(b, 1));
  };
  auto same = [&](int a, int b) { return points(a, 0) == points(b, 0) && points(a, 1) == points(b, 1); };
  std::sort(order.begin(), order.end(), less);
  order.erase(std::unique(order.begin(), order.end(), same), order.end());
  if (order.size() < 3) return order;
  // > 0 when o -> a -> b turns left (counter-clockwise).
  auto cross = [&](int o, int a, int b) {
    return (points(a, 0) - points(o, 0)) * (points(b, 1) - points(o, 1)) -
           (points(a, 1) - points(o, 1)) * (points(b, 0) - points(o, 0));
  };
  std::vector<int> hull;
  for (int pass = 0; pass < 2; ++pass) {  // lower chain left to right, then upper chain back
    const size_t start = hull.size();
    for (int i : order) {
      while (hull.size() >= start + 2 && cross(hull[hull.size() - 2], hull.back(), i) <= 0) hull.pop_back();
      hull.push_back(i);
    }
    hull.pop_back();  // the chain's last point starts the other chain
    std::reverse(order.begin(), order.end());
  }
  return hull;
}

}  // namespace attn
