#pragma once
// tokenizer.json's "pre_tokenizer": splits normalized text into the pieces
// the model tokenizes one at a time (and, for ByteLevel, rewrites bytes into
// GPT-2's alphabet).
#include <functional>
#include <string>
#include <vector>

#include "tokenizer/json_fields.hpp"
#include "tokenizer/text/regex.hpp"

namespace attn::hf::tokenizer_detail {

struct Piece {
  std::string text;
  // Whether the piece begins at offset 0 of the original text: Metaspace's
  // prepend_scheme "first" adds its "▁" only there.
  bool at_start = false;
};

using PreTokenizer = std::function<void(std::vector<Piece>&)>;

// HF's SplitDelimiterBehavior.
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// Splits every piece at `matches(piece text)`; empty pieces are dropped.
void split_pieces(std::vector<Piece>& pieces, const std::function<std::vector<Span>(const std::string&)>& matches,
                  SplitBehavior behavior, bool invert = false);

struct PreTokenizerInfo {
  bool byte_level = false;  // a ByteLevel step: pieces are in GPT-2's alphabet
  bool metaspace = false;   // a Metaspace step
};

// Null JSON gives no splitting. Throws on unknown types and bad fields.
PreTokenizer make_pre_tokenizer(const Json& config, const Where& where, PreTokenizerInfo& info);

}  // namespace attn::hf::tokenizer_detail
