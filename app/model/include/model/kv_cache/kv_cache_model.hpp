// The "KV cache" panel's data: the scene decoded one token at a time
// (attn::compute_decode), kept per step so any step can be shown, how far
// the decoded rows are from the full causal trace, and the explanation of
// the hovered cell. Decoding runs only when the trace changes, never in draw
// code; stepping and play only move an index.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/decode/decode.hpp"
#include "attn/explain/explain.hpp"
#include "model/kv_cache/kv_cache_choice.hpp"

namespace model {

// Each step keeps its own cache, so the kept bytes grow as tokens²: a panel
// that is read step by step needs no more than this.
constexpr int kKvMaxTokens = 64;
constexpr double kKvTokensPerSecond = 1.0;

// The step shown `seconds` after play started at `from`: one token a second,
// stopping at the last of `steps`.
int kv_play_step(int from, double seconds, int steps);

// Why `s` cannot be shown decoded token by token over `tokens` tokens, or ""
// when it can (the core's reason, or the panel's own cap).
std::string kv_refusal(const attn::Scenario& s, int tokens);

struct KvCacheView {
  bool ok = false;
  std::string error;             // when !ok: why, for the panel to say
  attn::DecodeTrace decode;      // one step per token
  std::vector<double> max_difference;  // per step t: max |decoded − full trace| over rows 0..t (head outputs, outputs)
  std::vector<std::string> tokens;
  bool has_w_o = false;
};

class KvCacheModel {
 public:
  // Decodes again when the trace generation changes; clamps the choice's
  // step and advances play by `dt` seconds; explains the hovered cell.
  void update(const attn::Trace& trace, const attn::Scenario& scenario, std::uint64_t generation, int view_head,
              KvCacheChoice& choice, double dt);

  const KvCacheView& view() const { return view_; }
  int head() const { return head_; }                 // the query head shown
  int steps() const { return static_cast<int>(view_.decode.steps.size()); }
  int step() const { return step_; }
  const attn::DecodeStep* current() const { return view_.ok && steps() > 0 ? &view_.decode.steps[static_cast<size_t>(step_)] : nullptr; }
  // The explanation of the choice's hovered cell, or null.
  const attn::Explanation* hovered() const { return hover_ok_ ? &hover_text_ : nullptr; }
  int builds() const { return builds_; }  // for tests

  // The panel's state for --dump-state.
  nlohmann::json dump(bool open) const;
  bool playing() const { return playing_; }

 private:
  void build(const attn::Trace& trace, const attn::Scenario& scenario);
  void explain_hover(const attn::Scenario& scenario, const KvCacheChoice& choice);

  KvCacheView view_;
  std::uint64_t generation_ = 0;
  int builds_ = 0;
  int head_ = 0, step_ = 0;
  bool playing_ = false;
  std::optional<KvCacheChoice::Hover> hover_key_;
  int hover_step_ = -1;
  bool hover_ok_ = false;
  attn::Explanation hover_text_;
};

}  // namespace model
