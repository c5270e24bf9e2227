// What `attn flash` prints: the tiles of one head (all of them, or one), the
// check against the plain head output, and the slow-memory counts, as text
// for people or as JSON for scripts. Kept apart from the command's option
// parsing so the two formats are written from the same pieces.
#pragma once

#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "attn/flash/flash.hpp"
#include "attn/flash/flash_io.hpp"

namespace attn::cli {

// The slow-memory counts for the current scene: standard attention, the
// user's blocks in both loop orders, and the paper's blocks for M elements.
struct FlashTraffic {
  long long sram = 0;
  HbmTraffic standard, queries_outer, keys_outer;
  FlashBlocks paper;
  HbmTraffic paper_keys_outer, paper_queries_outer;
};
FlashTraffic flash_traffic(const FlashAttention& fa, int d_k, long long sram);

struct TileChoice {
  int i = 0, j = 0;
};

// `only`: print just that tile (and its block's output after the last key block).
void print_flash(std::ostream& out, const FlashAttention& fa, const FlashTraffic& io, std::optional<TileChoice> only);
// −∞ (a blocked score; m before any open key) is null: JSON has no infinity.
nlohmann::json flash_json(const FlashAttention& fa, const FlashTraffic& io, std::optional<TileChoice> only);

}  // namespace attn::cli
