// Internal: the row of X a decode step reads, shared by the step
// (decode.cpp) and its explanations (explain_decode.cpp) so both read the
// same numbers.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn::detail {

// x_t: row t of X, plus row t of the sinusoidal encoding when the scene has
// one, added as the trace adds X = embeddings + PE.
Eigen::RowVectorXd decode_input_row(const Scenario& s, int t);

}  // namespace attn::detail
