// tokenizer.json as JSON (json_fields.hpp): parsed within the tokenizer's
// bounds, so a file nested or sized past them is refused before it is read.
// The typed field reads are core/io's (attn/io/json_keys.hpp).
#include "tokenizer/json_fields.hpp"

#include "json/bounded_json.hpp"

namespace attn::hf::tokenizer_detail {

Json parse_json(std::string_view text, const std::string& file) {
  return detail::parse_bounded_json(text, file, detail::kTokenizerBounds);
}

}  // namespace attn::hf::tokenizer_detail
