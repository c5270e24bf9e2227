// `attn why-scale [--dk N] [--samples S] [--seed S]`: the variance of q·k for
// random q, k with d_k unit-variance components, unscaled and divided by
// √d_k, for d_k = 1, 4, 16, 64, 256 (or one given width), plus how peaked a
// softmax over 8 such scores is. The numbers behind the app's Why-scale panel.
#include <cstdio>
#include <memory>
#include <vector>

#include "attn/explore/explore.hpp"
#include "commands/commands.hpp"

namespace attn::cli {

namespace {

struct WhyScaleArgs {
  int d_k = 0;  // 0: the default table
  int samples = 10000;
  unsigned long long seed = 1;
};

constexpr int kRow = 8;

int run_why_scale(const WhyScaleArgs& a) {
  const std::vector<int> widths = a.d_k > 0 ? std::vector<int>{a.d_k} : std::vector<int>{1, 4, 16, 64, 256};
  std::printf("q·k for random q, k with d_k components of mean 0 and variance 1 (%d pairs, seed %llu)\n", a.samples,
              a.seed);
  // Written out rather than padded by printf, which counts the bytes of "·" and "√".
  std::printf("   d_k      var(q·k)  var / d_k  var(q·k / √d_k)   softmax of 8, mean largest weight: raw / scaled\n");
  for (int d_k : widths) {
    const DotProductSamples raw = dot_product_samples(d_k, a.samples, a.seed, false);
    const DotProductSamples scaled = dot_product_samples(d_k, a.samples, a.seed, true);
    std::printf("%6d  %12.3f  %9.3f  %15.3f  %42.3f / %.3f\n", d_k, raw.stats.variance, raw.stats.variance / d_k,
                scaled.stats.variance, mean_row_max_weight(raw.values, kRow), mean_row_max_weight(scaled.values, kRow));
  }
  return 0;
}

}  // namespace

void add_why_scale_command(CLI::App& app, Action& action) {
  auto args = std::make_shared<WhyScaleArgs>();
  CLI::App* cmd = app.add_subcommand(
      "why-scale", "Print the variance of q·k over random vectors as d_k grows, unscaled and divided by √d_k.");
  cmd->add_option("--dk", args->d_k, "Only this width (default: 1, 4, 16, 64 and 256)")->check(CLI::Range(1, 4096));
  cmd->add_option("--samples", args->samples, "Random pairs per width (default 10000)")->check(CLI::Range(16, 200000));
  cmd->add_option("--seed", args->seed, "Seed of the random vectors (default 1)");
  cmd->callback([args, &action] { action = [args] { return run_why_scale(*args); }; });
}

}  // namespace attn::cli
