// Internal helpers shared by the scenario edit files: seeded fills, resizing
// that keeps the overlapping block, and W_O's per-head row blocks.
#pragma once

#include <cstdint>

#include "model/document/scenario_edit.hpp"

namespace model::edit::detail {

// Tags keep the seeded streams of different matrices independent.
enum Tag : std::uint64_t { kX = 1, kContext, kWq, kWk, kWv, kWo, kAddW, kAddU, kAddV };

constexpr std::uint64_t kFillSeed = 7;  // new rows/columns added by resizing

// Copies the overlapping block of m; new entries are seeded_value() * scale.
attn::Mat resized(const attn::Mat& m, int rows, int cols, std::uint64_t seed, std::uint64_t tag, double scale = 1.0);
attn::Mat seeded(int rows, int cols, std::uint64_t seed, std::uint64_t tag, double scale);
double fan_in_scale(int fan_in);
int d_ctx(const attn::Scenario& s);
// Rebuilds W_O's rows as per-head blocks of d_v rows, keeping what overlaps.
void reshape_w_o(attn::Scenario& s, int old_heads, int old_dv, int new_heads, int new_dv);

}  // namespace model::edit::detail
