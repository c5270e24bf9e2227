#pragma once
// What a loaded Tokenizer holds: the HF pipeline's parts in order (added
// tokens, normalizer, pre-tokenizer, model, post-processor) and the id to
// token table for display.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tokenizer/added_tokens.hpp"
#include "tokenizer/models/model.hpp"
#include "tokenizer/text/normalizers.hpp"
#include "tokenizer/post_processor.hpp"
#include "tokenizer/text/pre_tokenizers.hpp"

namespace attn::hf::tokenizer_detail {

// Refused above this size: the largest real tokenizer.json files are ~20 MB.
constexpr std::size_t kMaxTokenizerJsonBytes = 256u * 1024u * 1024u;

struct Impl {
  AddedTokenMatcher raw_tokens;         // normalized: false, matched in the raw text
  AddedTokenMatcher normalized_tokens;  // normalized: true, matched after normalizing
  Normalizer normalizer;
  PreTokenizer pre_tokenizer;
  PreTokenizerInfo pre_info;
  std::shared_ptr<const Model> model;
  PostProcessor post;
  std::vector<std::string> id_to_token;  // "" where no token has the id
  std::unordered_map<std::string, int> added_ids;
  bool byte_fallback = false;
  std::string kind;
};

// Fills the added-token matchers, id tables and kind once the parts are set;
// throws (naming `file`) for an id of 4000000 or more.
void finish(Impl& impl, const std::vector<AddedToken>& added, const std::string& file);

// tokenizer.json's text; `file` names it in errors.
std::shared_ptr<Impl> impl_from_json(std::string_view text, const std::string& file);

}  // namespace attn::hf::tokenizer_detail
