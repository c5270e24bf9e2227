// The hand-written backward pass against central finite differences, entry
// by entry, and its independence from the thread count.
//
// Finite difference: the fourth-order central stencil
//   fd(h) = (-L(w+2h) + 8 L(w+h) - 8 L(w-h) + L(w-2h)) / (12 h),  h = 1e-4,
// whose truncation error (~h^4) is negligible and whose rounding error is
// about 1e-11 absolute (1e-16 L / h). Relative error per entry:
//   rel = |g - fd| / max(1e-5, |g| + |fd|),  required <= 1e-6,
// i.e. gradients below 1e-5 (e.g. exactly zero for an unused token's
// embedding) are held to 1e-11 absolute, about the rounding floor.
// A ReLU kink inside [w-2h, w+2h] makes the loss non-smooth there; such
// entries are recognised without looking at the analytic gradient (fd(h) and
// fd(h/2) disagree), skipped, and must stay rare (at most 2% of entries).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "train_helpers.hpp"

using namespace attn::train;
using namespace attn::train::testing;

namespace {

constexpr double kStep = 1e-4;
constexpr double kTolerance = 1e-6;
constexpr int kMaxEntriesPerParam = 120;  // larger parameters are checked on a random subset

struct Worst {
  double rel = 0;
  std::string where;
  double g = 0, fd = 0;
  long long checked = 0;
  long long kinks = 0;
};

double relative(double a, double b) { return std::abs(a - b) / std::max(1e-5, std::abs(a) + std::abs(b)); }

double loss_at(Model& model, const Batch& batch) { return loss_and_gradient(model, batch, nullptr, 1); }

Worst check_gradient(Model model, const Batch& batch) {
  Model grad;
  loss_and_gradient(model, batch, &grad, 1);
  std::vector<NamedParam> weights = parameters(model), grads = parameters(grad);
  REQUIRE(weights.size() == grads.size());
  std::mt19937_64 pick(7);
  Worst worst;
  for (size_t p = 0; p < weights.size(); ++p) {
    auto& w = weights[p].value;
    std::vector<Eigen::Index> entries(static_cast<size_t>(w.size()));
    for (Eigen::Index i = 0; i < w.size(); ++i) entries[static_cast<size_t>(i)] = i;
    if (entries.size() > kMaxEntriesPerParam) {
      std::shuffle(entries.begin(), entries.end(), pick);
      entries.resize(kMaxEntriesPerParam);
    }
    for (Eigen::Index i : entries) {
      const double original = w(i);
      auto at = [&](double offset) {
        w(i) = original + offset;
        return loss_at(model, batch);
      };
      auto stencil = [&](double h) { return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h); };
      const double fd = stencil(kStep), fd_half = stencil(kStep / 2);
      w(i) = original;
      if (relative(fd, fd_half) > kTolerance) {
        ++worst.kinks;
        continue;
      }
      const double g = grads[p].value(i);
      const double rel = relative(g, fd);
      ++worst.checked;
      if (rel >= worst.rel) {
        std::ostringstream where;
        where << weights[p].name << " entry (" << i % w.rows() << ", " << i / w.rows() << ")";
        worst.rel = rel;
        worst.where = where.str();
        worst.g = g;
        worst.fd = fd;
      }
    }
  }
  return worst;
}

void expect_gradient_matches(const TaskSpec& task, const ModelConfig& config, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Batch batch = make_batch(task, 3, rng);
  const Model model = init_model(config, seed);
  const Worst worst = check_gradient(model, batch);
  INFO(task_name(task.kind) << ", " << config.n_layers << " layer(s), "
                            << (config.learned_positions ? std::string("learned") : std::string("sinusoidal")) << " positions, "
                            << (config.mlp ? std::string("MLP") : std::string("no MLP")) << ": worst relative error " << worst.rel << " at "
                            << worst.where << " (analytic " << worst.g << ", finite difference " << worst.fd
                            << "), " << worst.checked << " entries checked, " << worst.kinks
                            << " skipped at a ReLU kink");
  CHECK(worst.checked > 0);
  CHECK(worst.kinks <= worst.checked / 50);
  CHECK(worst.rel <= kTolerance);
}

}  // namespace

TEST_CASE("gradient: every parameter matches finite differences, one layer, learned positions") {
  const TaskSpec task = task_of(TaskKind::Copy, 4, 3);
  expect_gradient_matches(task, config_for(task, 8, 2, 1, true, false), 11);
  expect_gradient_matches(task, config_for(task, 8, 2, 1, true, true, 6), 12);
}

TEST_CASE("gradient: every parameter matches finite differences, two layers, sinusoidal positions") {
  const TaskSpec induction = task_of(TaskKind::Induction, 5, 3, true);
  expect_gradient_matches(induction, config_for(induction, 8, 2, 2, false, false), 21);
  expect_gradient_matches(induction, config_for(induction, 8, 4, 2, false, true, 5), 22);
}

TEST_CASE("gradient: every parameter matches finite differences on the other tasks") {
  const TaskSpec prev = task_of(TaskKind::PreviousToken, 4, 5);
  expect_gradient_matches(prev, config_for(prev, 6, 3, 2, true, true, 4), 31);
  const TaskSpec kv = task_of(TaskKind::KeyValue, 6, 2);
  expect_gradient_matches(kv, config_for(kv, 8, 2, 2, true, false), 32);
  const TaskSpec sort = task_of(TaskKind::Sort, 5, 3);
  expect_gradient_matches(sort, config_for(sort, 8, 1, 1, false, true, 8), 33);
}

TEST_CASE("gradient: large parameters on a random subset of entries") {
  // d_model 24 makes the projections larger than kMaxEntriesPerParam.
  const TaskSpec task = task_of(TaskKind::Reverse, 6, 4);
  expect_gradient_matches(task, config_for(task, 24, 4, 2, true, true, 16), 41);
}

TEST_CASE("gradient: one and two threads give the same loss and gradient") {
  const TaskSpec task = task_of(TaskKind::Induction, 8, 5, true);
  const ModelConfig config = config_for(task, 16, 4, 2, true, true, 12);
  const Model model = init_model(config, 5);
  std::mt19937_64 rng(5);
  const Batch batch = make_batch(task, 7, rng);
  Model g1, g2;
  const double l1 = loss_and_gradient(model, batch, &g1, 1);
  const double l2 = loss_and_gradient(model, batch, &g2, 2);
  CHECK(std::abs(l1 - l2) <= 1e-12);
  std::vector<NamedParam> a = parameters(g1), b = parameters(g2);
  REQUIRE(a.size() == b.size());
  double worst = 0;
  std::string where = "none";
  for (size_t p = 0; p < a.size(); ++p) {
    Eigen::Index r = 0, c = 0;
    const double d = (a[p].value - b[p].value).cwiseAbs().maxCoeff(&r, &c);
    if (d > worst) {
      worst = d;
      where = a[p].name + " (" + std::to_string(r) + ", " + std::to_string(c) + ")";
    }
  }
  INFO("largest difference " << worst << " at " << where);
  CHECK(worst <= 1e-12);
  CHECK(loss_and_gradient(model, batch, nullptr, 2) == doctest::Approx(l1).epsilon(1e-14));
}
