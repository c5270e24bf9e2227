// Internal: one cell of a KV-cache decode step being explained, and the
// labels every decode explanation writes (explain_decode.cpp,
// explain_decode_rows.cpp).
#pragma once

#include <stdexcept>
#include <string>

#include "attn/decode/decode.hpp"
#include "attn/explain/explain.hpp"
#include "attn/text/format_number.hpp"

namespace attn::detail::decode_explain {

using K = StageKind;

inline std::string at(K id, long r, long c) {
  return std::string(info_of(id).symbol) + "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

// Where cached row `row` came from, at step t.
inline std::string origin(int row, int t) {
  return row == t ? "computed this step" : "reused from the cache (computed at step " + std::to_string(row) + ")";
}

struct Cell {
  const DecodeStep& step;
  const Scenario& s;
  const Stage& st;
  int r, c;
  Explanation& e;
  const Mat& in(K id, int head) const {
    const Stage* p = step.find(id, head);
    if (!p) throw std::logic_error("decode step lacks stage " + std::string(name_of(id)));
    return p->value.stored();
  }
  void source(K id, int head, int r0, int r1, int c0, int c1) const {
    e.sources.push_back({{id, head}, r0, r1, c0, c1});
  }
  void single(const std::string& title, const std::string& label, double v) const {
    e.steps.push_back({title, {{label, v, "", "", 0, v}}, format_number(v), v});
  }
};

// The new row's q, k or v (with its RoPE turn), and a cache's row.
void projection(const Cell& x);
void cache_row(const Cell& x);

}  // namespace attn::detail::decode_explain
