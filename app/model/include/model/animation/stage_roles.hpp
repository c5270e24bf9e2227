// What each stage does, from the animation's point of view: which transition
// shows it being computed and, for matrix products, which operands feed it.
// Derived from stage ids and inputs so timeline and animation agree.
#pragma once

#include "attn/compute/trace.hpp"
#include "model/animation/animation.hpp"

namespace model {

// A stage computed as A · B (or A · Bᵀ for scores): its operands' indices in
// the trace, and the length of each sum.
struct ProductOperands {
  int a = -1, b = -1;
  bool b_transposed = false;  // scores = Q · Kᵀ
  int inner = 0;              // number of terms per cell
  bool valid() const { return a >= 0 && b >= 0; }
};

// True for stages that are given, not computed (inputs, weights, fixed encodings).
bool is_input_stage(const attn::Stage& s);

Transition transition_of(const attn::Trace& trace, const attn::Stage& s);

// Operands when the stage is a dot-product sum (projections, dot scores,
// weights · V, concat · W_O); invalid otherwise.
ProductOperands product_operands(const attn::Trace& trace, int stage);

}  // namespace model
