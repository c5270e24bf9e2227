// What compute_flash refuses (attn/flash/flash.hpp), checked before anything is
// allocated: each message says why the request cannot be tiled, or how to
// make it fit.
#include "flash/flash_limits.hpp"

#include <stdexcept>
#include <string>

namespace attn {
namespace {

int blocks_of(int n, int b) { return (n + b - 1) / b; }

}  // namespace

void check_flash_options(const Trace& trace, const FlashOptions& o) {
  const int heads = trace.dims.n_heads;
  if (o.head < 0 || o.head >= heads)
    throw std::invalid_argument("head " + std::to_string(o.head) + " is out of range (the scene has " +
                                (heads == 1 ? std::string("only head 0") : std::to_string(heads) + " heads, 0 to " + std::to_string(heads - 1)) + ")");
  if (trace.score == ScoreFn::Additive)
    throw std::invalid_argument(
        "FlashAttention tiles the product Q·Kᵀ; additive scores (v · tanh(q W + k U)) are no such product: use dot-product scores");
  if (trace.softmax_axis == SoftmaxAxis::Queries)
    throw std::invalid_argument(
        "FlashAttention's online softmax runs along each query's keys, one key block at a time; a softmax over queries "
        "(each column sums to 1) would need every query block of a column first");
  if (trace.mask_mode == MaskMode::AfterSoftmax)
    throw std::invalid_argument(
        "FlashAttention folds the mask into the scores (−∞ before the exponent); a mask applied after the softmax needs "
        "each row's whole softmax first: use the mask before softmax");
  const int n_q = trace.dims.n_q, n_k = trace.dims.n_k;
  if (o.block_rows < 1 || o.block_cols < 1)
    throw std::invalid_argument("block sizes must be at least 1, got B_r = " + std::to_string(o.block_rows) +
                                ", B_c = " + std::to_string(o.block_cols));
  if (o.block_rows > n_q)
    throw std::invalid_argument("B_r = " + std::to_string(o.block_rows) + " is larger than the " + std::to_string(n_q) +
                                " queries: a tile can be at most the whole sequence");
  if (o.block_cols > n_k)
    throw std::invalid_argument("B_c = " + std::to_string(o.block_cols) + " is larger than the " + std::to_string(n_k) +
                                " keys: a tile can be at most the whole sequence");
  const long long t_r = blocks_of(n_q, o.block_rows), t_c = blocks_of(n_k, o.block_cols);
  if (t_r * t_c > kMaxFlashTiles)
    throw std::invalid_argument(std::to_string(t_r) + " × " + std::to_string(t_c) + " = " + std::to_string(t_r * t_c) +
                                " tiles is more than the " + std::to_string(kMaxFlashTiles) +
                                " kept for viewing: choose larger blocks (B_r, B_c)");
  const long long cells = 2LL * n_q * n_k + t_c * n_q * (trace.dims.d_v + 4LL) + 2LL * n_q * trace.dims.d_v;
  if (cells > kMaxFlashCells)
    throw std::invalid_argument("the tiles would hold " + std::to_string(cells) + " numbers, more than the " +
                                std::to_string(kMaxFlashCells) + " kept for viewing: choose larger key blocks (B_c) or a shorter scene");
}

}  // namespace attn
