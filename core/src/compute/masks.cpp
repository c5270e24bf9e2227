// The mask kinds (see attn/compute/masks.hpp).
#include "attn/compute/masks.hpp"

#include <algorithm>
#include <vector>

namespace attn {

namespace {

bool kind_blocks(const Scenario& s, int i, int j) {
  // Under the causal rules no key past the query is seen, so any n_k past
  // both i and j gives the same span.
  const int n_k = std::max(i, j) + 1;
  switch (s.mask) {
    case MaskKind::None: return false;
    case MaskKind::Causal: return !visible_keys(i, n_k, true, 0).contains(j);
    case MaskKind::Custom: return s.custom_mask(i, j);
    case MaskKind::SlidingWindow:
      if (j > i) return true;
      return !visible_keys(i, n_k, true, s.window).contains(j) && j >= s.sinks;
    case MaskKind::Strided:
      if (j > i) return true;
      return i - j >= s.stride && (i - j) % s.stride != 0;
  }
  return false;
}

}  // namespace

KeySpan visible_keys(int i, int n_k, bool causal, int window) {
  KeySpan span;
  span.last = causal ? i : n_k - 1;
  span.first = window > 0 ? std::max(0, i - window + 1) : 0;
  return span;
}

bool mask_blocks(const Scenario& s, int i, int j) {
  if (!s.key_padding.empty() && s.key_padding[static_cast<size_t>(j)]) return true;
  return kind_blocks(s, i, j);
}

int receptive_field(const Scenario& s, int n, int layers) {
  if (s.mask == MaskKind::Custom)  // its own size: no cell past it exists
    n = std::min<int>(n, static_cast<int>(std::min(s.custom_mask.rows(), s.custom_mask.cols())));
  if (n <= 0) return 0;
  // reach[p]: whether position p's token has reached the last position yet,
  // walked backwards one layer at a time (each layer, p reaches a query that
  // sees it and that itself reaches the last). Without a mask everything is
  // one layer away.
  std::vector<char> reach(static_cast<size_t>(n), 0);
  reach[static_cast<size_t>(n - 1)] = 1;
  for (int l = 0; l < layers; ++l) {
    std::vector<char> next = reach;
    for (int q = 0; q < n; ++q) {
      if (!reach[static_cast<size_t>(q)]) continue;
      for (int k = 0; k < n; ++k)
        if (!kind_blocks(s, q, k)) next[static_cast<size_t>(k)] = 1;
    }
    reach = std::move(next);
  }
  for (int p = 0; p < n; ++p)
    if (reach[static_cast<size_t>(p)]) return n - 1 - p;
  return 0;
}

long long window_reach(const Scenario& s, int layers) {
  if (layers < 1) return 0;
  switch (s.mask) {
    case MaskKind::SlidingWindow: return static_cast<long long>(layers) * (s.window - 1);
    case MaskKind::Strided: return s.stride <= 1 || layers >= 2 ? -1 : s.stride - 1;
    case MaskKind::None:
    case MaskKind::Causal:
    case MaskKind::Custom: break;
  }
  return -1;
}

}  // namespace attn
