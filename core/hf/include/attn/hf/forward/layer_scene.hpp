#pragma once
// One layer of a real model as an ordinary scenario, so every grid, the
// inspector, the explanations, compare and export work on it unchanged:
// X is the layer's attention input (after its norm), each head carries its
// slices of W_Q, W_K and W_V, then W_O of the whole layer.
#include <string>
#include <vector>

#include "attn/hf/forward/forward.hpp"
#include "attn/scenario/scenario.hpp"

namespace attn::hf {

// A bias enters as the weight of a constant input: when the family has
// Q/K/V biases, X gains a last column of ones ("bias") and each W a last
// row holding the bias, so X·W is exactly X·W + b and every cell's
// explanation shows the bias as one more term. W_O's bias is the scenario's
// output_bias: the scene's output is the layer's attention output exactly.
struct LayerScene {
  Scenario scenario;
  bool bias_column = false;  // X's last column is the constant 1
  std::string description;   // what the scene is, for its title and notes
};

// `r` must come from run_forward<double> with keep_details (or keep_inputs,
// when no head of this layer is switched off in it). `tokens` labels
// the rows (may be empty). Throws ModelError for a layer out of range.
// `heads_off`: the heads `r` was run with switched off. Those of this layer
// still show their own stages, but leave the output as they left the
// model's: their rows of W_O are zero and, with mean replacement, their
// mean output times those rows joins b_O. The scene's output is then the
// layer's attention output in `r`, switched-off heads and all.
LayerScene layer_scene(const Checkpoint& ck, const ForwardResult<double>& r, int layer,
                       const std::vector<std::string>& tokens, const std::vector<HeadRef>& heads_off = {});

}  // namespace attn::hf
