// The vocabulary of stages: every kind of intermediate a trace can hold, and
// one table that says what each is (its name in files and on the command
// line, its symbol in explanations, its usual title and formula, its shape
// and its role). The core, the CLI, the exports and the app all read this
// table, so a new stage (RoPE, a KV cache, FlashAttention tiles) is added
// here and to the computation, and nowhere else by name.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "attn/scenario/scenario.hpp"

namespace attn {

// In computation order: inputs (with their positional encoding), the heads'
// stages, then what combines the heads. The order is the table's order.
enum class StageKind : std::uint8_t {
  x_raw, pe, x,                          // queries' side: embeddings + PE = X
  context_raw, pe_context, context,      // keys' side, when there is a context
  w_q, w_k, w_v,                         // per head: learned projections
  q, k, v,                               // per head: projected tokens
  q_rope, k_rope,                        // per head: turned by their positions (RoPE)
  scores, scaled, alibi, biased, masked,  // per head: logits, queries × keys
  softmax, weights,                      // per head: probabilities
  head_output,                           // per head: weights · V
  concat, w_o, output,                   // all heads together
  // FlashAttention's tiles (attn/flash/flash.hpp): never in a Trace, one grid per
  // tile (query block i × key block j) of one head.
  flash_scores, flash_max_old, flash_max, flash_rescale, flash_p, flash_sum, flash_o, flash_block_output,
  flash_output,
  // The KV cache, one token at a time (attn/decode/decode.hpp): stages of one
  // decode step, never part of a Trace. Rows are the one new token, except
  // the caches, which hold every token so far.
  step_q, step_k, step_v,                // the new token's query, key and value rows
  k_cache, v_cache,                      // per key/value head: cached rows + the new one
  step_scores, step_logits, step_weights,  // the new query against the cache
  step_head_output, step_output,         // weights · V_cache, then W_O
};

// What a stage is to the pipeline. The animation, the layout and the canvas
// decide from the role, not from the name, what to do with a stage.
enum class StageRole : std::uint8_t {
  Sequence,       // the tokens as the heads read them (X, the context, raw embeddings)
  Parameter,      // given, fixed or learned, feeds one computation (W_Q, PE, ALiBi bias)
  Projection,     // tokens × a weight (Q, K, V)
  Rotation,       // tokens turned pair by pair by their positions (RoPE's Q and K)
  Logits,         // queries × keys, before the softmax (scores, scaled, biased, masked)
  Probabilities,  // queries × keys, after the softmax (softmax, weights)
  WeightedSum,    // weights · V (a head's output)
  Concat,         // the heads side by side
  Output,         // the heads mixed by W_O
  FlashTile,      // one tile of FlashAttention's loop (attn/flash/flash.hpp); never in a Trace
  Cache,          // keys or values kept from earlier steps, plus this step's row (KV cache)
};

// One extent of a stage's shape, in terms of the scene's dimensions.
// block_rows, block_cols: a FlashAttention tile's rows (B_r queries) and
// columns (B_c keys); the last block may be shorter, and neither follows
// from the scene's dimensions (extent_of gives 0). one: a single value per
// row (a tile's running max and sum) or a single row (a decode step's new
// token). cached: the tokens a KV cache holds after a step (t + 1 at step
// t), which the scene's dimensions cannot tell either (extent_of gives 0).
enum class Extent : std::uint8_t { n_q, n_k, d_model, d_ctx, d_k, d_v, heads_d_v, d_out, block_rows, block_cols, one, cached };

struct StageInfo {
  StageKind kind;
  std::string_view name;     // in files, exports and on the command line: "scores"
  std::string_view symbol;   // in explanations: "S"
  std::string_view title;    // above its grid, in the plain case: "QKᵀ"
  std::string_view formula;  // under its title, in the plain case: "scores = Q · Kᵀ"
  bool per_head;             // one grid per head (Stage::head >= 0)
  Extent rows, cols;         // its shape: (n_q, n_k) for scores
  StageRole role;
};

inline constexpr std::array<StageInfo, 44> kStages = {{
    {StageKind::x_raw, "x_raw", "E", "X (embeddings)", "X (input)", false, Extent::n_q, Extent::d_model,
     StageRole::Sequence},
    {StageKind::pe, "pe", "PE", "positional encoding", "PE(pos,2i)=sin(pos/10000^(2i/d)), PE(pos,2i+1)=cos(…)", false,
     Extent::n_q, Extent::d_model, StageRole::Parameter},
    {StageKind::x, "x", "X", "X", "X (input)", false, Extent::n_q, Extent::d_model, StageRole::Sequence},
    {StageKind::context_raw, "context_raw", "E_C", "C (embeddings)", "C (input)", false, Extent::n_k, Extent::d_ctx,
     StageRole::Sequence},
    {StageKind::pe_context, "pe_context", "PE_C", "positional encoding",
     "PE(pos,2i)=sin(pos/10000^(2i/d)), PE(pos,2i+1)=cos(…)", false, Extent::n_k, Extent::d_ctx, StageRole::Parameter},
    {StageKind::context, "context", "C", "C", "C (input)", false, Extent::n_k, Extent::d_ctx, StageRole::Sequence},
    {StageKind::w_q, "w_q", "W_Q", "W_Q", "W_Q (learned)", true, Extent::d_model, Extent::d_k, StageRole::Parameter},
    {StageKind::w_k, "w_k", "W_K", "W_K", "W_K (learned)", true, Extent::d_ctx, Extent::d_k, StageRole::Parameter},
    {StageKind::w_v, "w_v", "W_V", "W_V", "W_V (learned)", true, Extent::d_ctx, Extent::d_v, StageRole::Parameter},
    {StageKind::q, "q", "Q", "Q", "Q = X · W_Q", true, Extent::n_q, Extent::d_k, StageRole::Projection},
    {StageKind::k, "k", "K", "K", "K = X · W_K", true, Extent::n_k, Extent::d_k, StageRole::Projection},
    {StageKind::v, "v", "V", "V", "V = X · W_V", true, Extent::n_k, Extent::d_v, StageRole::Projection},
    {StageKind::q_rope, "q_rope", "Q_rot", "Q rotated", "Q_rot = RoPE(Q, position)", true, Extent::n_q, Extent::d_k,
     StageRole::Rotation},
    {StageKind::k_rope, "k_rope", "K_rot", "K rotated", "K_rot = RoPE(K, position)", true, Extent::n_k, Extent::d_k,
     StageRole::Rotation},
    {StageKind::scores, "scores", "S", "QKᵀ", "scores = Q · Kᵀ", true, Extent::n_q, Extent::n_k, StageRole::Logits},
    {StageKind::scaled, "scaled", "scaled", "scaled", "scaled = scores / √d_k", true, Extent::n_q, Extent::n_k,
     StageRole::Logits},
    {StageKind::alibi, "alibi", "bias", "ALiBi bias", "bias[i,j] = -m·|i - j|, m = 2^(-8(h+1)/heads)", true,
     Extent::n_q, Extent::n_k, StageRole::Parameter},
    {StageKind::biased, "biased", "biased", "scaled + bias", "biased = scaled + ALiBi bias", true, Extent::n_q,
     Extent::n_k, StageRole::Logits},
    {StageKind::masked, "masked", "masked", "masked", "masked = blocked ? −∞ : logits", true, Extent::n_q, Extent::n_k,
     StageRole::Logits},
    {StageKind::softmax, "softmax", "softmax", "softmax (unmasked)", "softmax(logits)", true, Extent::n_q, Extent::n_k,
     StageRole::Probabilities},
    {StageKind::weights, "weights", "A", "softmax weights", "weights = softmax(masked)", true, Extent::n_q,
     Extent::n_k, StageRole::Probabilities},
    {StageKind::head_output, "head_output", "Z", "weights · V", "head_output = weights · V", true, Extent::n_q,
     Extent::d_v, StageRole::WeightedSum},
    {StageKind::concat, "concat", "concat", "concat", "concat = [head_0 | head_1 | …]", false, Extent::n_q,
     Extent::heads_d_v, StageRole::Concat},
    {StageKind::w_o, "w_o", "W_O", "W_O", "W_O (learned)", false, Extent::heads_d_v, Extent::d_out,
     StageRole::Parameter},
    {StageKind::output, "output", "Y", "output", "output = concat · W_O", false, Extent::n_q, Extent::d_out,
     StageRole::Output},
    // FlashAttention's tiles
    {StageKind::flash_scores, "flash_scores", "S_ij", "tile scores S_ij",
     "S_ij = Q_i · K_jᵀ / √d_k (+ bias), −∞ where blocked", true, Extent::block_rows, Extent::block_cols,
     StageRole::FlashTile},
    {StageKind::flash_max_old, "flash_max_old", "m_old", "row max before", "m_old = m after key block j − 1 (−∞ at j = 0)",
     true, Extent::block_rows, Extent::one, StageRole::FlashTile},
    {StageKind::flash_max, "flash_max", "m_new", "row max after", "m_new = max(m_old, rowmax(S_ij))", true,
     Extent::block_rows, Extent::one, StageRole::FlashTile},
    {StageKind::flash_rescale, "flash_rescale", "α", "rescale", "α = exp(m_old − m_new)", true, Extent::block_rows,
     Extent::one, StageRole::FlashTile},
    {StageKind::flash_p, "flash_p", "P_ij", "P_ij (before ÷ ℓ)", "P_ij = exp(S_ij − m_new)", true, Extent::block_rows,
     Extent::block_cols, StageRole::FlashTile},
    {StageKind::flash_sum, "flash_sum", "ℓ", "running sum ℓ", "ℓ = α · ℓ_old + rowsum(P_ij)", true,
     Extent::block_rows, Extent::one, StageRole::FlashTile},
    {StageKind::flash_o, "flash_o", "O_i", "partial output O_i", "O_i = α · O_old + P_ij · V_j", true,
     Extent::block_rows, Extent::d_v, StageRole::FlashTile},
    {StageKind::flash_block_output, "flash_block_output", "O_i/ℓ", "block output", "O_i / ℓ (after the last key block)",
     true, Extent::block_rows, Extent::d_v, StageRole::FlashTile},
    {StageKind::flash_output, "flash_output", "Z_flash", "FlashAttention output", "the blocks' O_i / ℓ, stacked",
     true, Extent::n_q, Extent::d_v, StageRole::FlashTile},
    // The KV cache, one token at a time
    {StageKind::step_q, "step_q", "q_t", "new query row", "q_t = x_t · W_Q", true, Extent::one, Extent::d_k,
     StageRole::Projection},
    {StageKind::step_k, "step_k", "k_t", "new key row", "k_t = x_t · W_K", true, Extent::one, Extent::d_k,
     StageRole::Projection},
    {StageKind::step_v, "step_v", "v_t", "new value row", "v_t = x_t · W_V", true, Extent::one, Extent::d_v,
     StageRole::Projection},
    {StageKind::k_cache, "k_cache", "K_cache", "K cache", "K_cache = [K_cache; k_t]", true, Extent::cached,
     Extent::d_k, StageRole::Cache},
    {StageKind::v_cache, "v_cache", "V_cache", "V cache", "V_cache = [V_cache; v_t]", true, Extent::cached,
     Extent::d_v, StageRole::Cache},
    {StageKind::step_scores, "step_scores", "s_t", "score row", "s_t = q_t · K_cacheᵀ", true, Extent::one,
     Extent::cached, StageRole::Logits},
    {StageKind::step_logits, "step_logits", "l_t", "masked logit row", "l_t = blocked ? −∞ : s_t / √d_k", true,
     Extent::one, Extent::cached, StageRole::Logits},
    {StageKind::step_weights, "step_weights", "a_t", "weight row", "a_t = softmax(l_t)", true, Extent::one,
     Extent::cached, StageRole::Probabilities},
    {StageKind::step_head_output, "step_head_output", "z_t", "head output row", "z_t = a_t · V_cache", true,
     Extent::one, Extent::d_v, StageRole::WeightedSum},
    {StageKind::step_output, "step_output", "y_t", "output row", "y_t = [z_t of every head] · W_O", false,
     Extent::one, Extent::d_out, StageRole::Output},
}};

// The table's entry for `kind` (the table is indexed by kind).
constexpr const StageInfo& info_of(StageKind kind) { return kStages[static_cast<std::size_t>(kind)]; }
constexpr std::string_view name_of(StageKind kind) { return info_of(kind).name; }
constexpr StageRole role_of(StageKind kind) { return info_of(kind).role; }
// The name as a string, for messages: "stage \"" + to_string(kind) + "\"".
inline std::string to_string(StageKind kind) { return std::string(name_of(kind)); }

// The kind a file or the command line names ("weights"); nullopt for a name
// that is no stage.
std::optional<StageKind> stage_kind_named(std::string_view name);

// How many rows or columns `e` is in a scene of dimensions `d`.
int extent_of(Extent e, const Dims& d);

// A stage's shape: (rows, cols) by its table entry.
struct ShapeRule {
  int rows = 0, cols = 0;
};
ShapeRule shape_of(StageKind kind, const Dims& d);

// True for the queries × keys stages a mask blanks (logits and probabilities).
constexpr bool is_query_key_grid(StageKind kind) {
  return role_of(kind) == StageRole::Logits || role_of(kind) == StageRole::Probabilities;
}

// True for the stages of a KV-cache decode step (attn/decode/decode.hpp).
constexpr bool is_decode_stage(StageKind kind) { return kind >= StageKind::step_q && kind <= StageKind::step_output; }

// True for the kinds a Trace holds; FlashAttention's tiles live in a
// FlashAttention (attn/flash/flash.hpp) and a decode step's in a DecodeStep
// (attn/decode/decode.hpp), beside the trace instead.
constexpr bool is_trace_stage(StageKind kind) { return role_of(kind) != StageRole::FlashTile && !is_decode_stage(kind); }

}  // namespace attn
