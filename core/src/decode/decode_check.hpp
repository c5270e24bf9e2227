// Internal: the checks behind check_decodable (attn/decode/decode.hpp), split so
// that decode_step can check one token's mask row instead of every row.
#pragma once

#include "attn/scenario/scenario.hpp"

namespace attn::detail {

// Everything but the mask's rows: validate(), cross-attention, the mask's
// kind and mode, the softmax's axis, the score and the token cap. `tokens`:
// how many tokens will have been decoded (at least 1).
void refuse_undecodable_options(const Scenario& s, int tokens);

// Refuses a mask that lets one of the queries first_row..last_row (inclusive)
// see a key after it: that key has not arrived when the query is decoded.
void refuse_later_keys(const Scenario& s, int first_row, int last_row);

}  // namespace attn::detail
