// Structural edits of a scenario that keep it consistent: resizing tokens,
// d_model, d_k, d_v, heads and the output width keeps every existing value,
// fills new entries deterministically, and resizes masks and W_O to match.
// Plain functions on attn::Scenario, so they are unit-tested without a window.
#pragma once

#include <cstdint>
#include <string>

#include "attn/compute/trace.hpp"

namespace model::edit {

// Which token sequence an edit applies to: the queries (X) or, in
// cross-attention, the context the keys and values come from.
enum class Sequence { Queries, Context };

// Current sizes read from the scenario itself (works for invalid ones too).
int n_tokens(const attn::Scenario& s, Sequence which);
int d_model(const attn::Scenario& s);
int d_k(const attn::Scenario& s);  // d_model when there are no projections
int d_v(const attn::Scenario& s);
int n_heads(const attn::Scenario& s);
int d_out(const attn::Scenario& s);

// A deterministic value in [-1, 1] with two decimals for (seed, tag, i, j).
double seeded_value(std::uint64_t seed, std::uint64_t tag, std::uint64_t i, std::uint64_t j);

// Token edits. Labels are kept one per row; masks and padding follow rows
// and, in self-attention, columns.
void set_n_tokens(attn::Scenario& s, Sequence which, int n);
void insert_token(attn::Scenario& s, Sequence which, int at, const std::string& name);
void remove_token(attn::Scenario& s, Sequence which, int index);
void rename_token(attn::Scenario& s, Sequence which, int index, const std::string& name);

void set_d_model(attn::Scenario& s, int d);
void set_d_context(attn::Scenario& s, int d);
void set_d_k(attn::Scenario& s, int d);
void set_d_v(attn::Scenario& s, int d);
void set_n_heads(attn::Scenario& s, int h);
void set_d_out(attn::Scenario& s, int d);  // adds W_O when absent
// Key/value heads shared by groups of query heads: `kv` (moved down to the
// nearest count that divides the heads; the heads' count means one each).
// A group's first head gets W_K and W_V (seeded when it had none), the
// others lose theirs.
void fit_kv_heads(attn::Scenario& s, int kv);
int n_kv_heads(const attn::Scenario& s);

// Projections on: every head gets W_Q/W_K/W_V (seeded); off: Q = X, K = V = X.
void set_projected(attn::Scenario& s, bool on);
void set_w_o(attn::Scenario& s, bool on);
// Cross-attention on: a context sequence (seeded) of `n` tokens; off: self-attention.
void set_cross(attn::Scenario& s, bool on, int n = 3);

// Fills X, the context and every weight from the seed; same seed, same numbers.
// Weights are scaled by 1/sqrt(fan-in) so scores stay in a readable range.
void randomise(attn::Scenario& s, std::uint64_t seed);

// Masks. Switching to Custom starts from the cells currently blocked, so
// painting refines what the student already sees.
bool effective_blocked(const attn::Scenario& s, int i, int j);
// A sliding window starts at 4 keys and a stride at 3 when they were unset.
void set_mask_kind(attn::Scenario& s, attn::MaskKind kind);
void set_blocked(attn::Scenario& s, int i, int j, bool blocked);
void set_key_padding(attn::Scenario& s, int j, bool blocked);

// The scenario entry a stage cell shows, when that stage is an input the
// user may edit (X, the context, W_Q/W_K/W_V of a head, W_O); else nullptr.
double* editable_value(attn::Scenario& s, const attn::StageRef& stage, int r, int c);

}  // namespace model::edit
