// A GGUF file's SentencePiece vocabulary (tokenizer.ggml.model "llama":
// Llama 2, Mistral v0.1, Gemma) written back as the tokenizer.json that
// transformers' converter makes from the same tokenizer.model, so that its
// ids are the model's. The file keeps pieces, scores and token types but
// no merges: the merges are derived from the scores by the converter's rule.
// Where the converter reads what the GGUF file lost, the choice follows
// what llama.cpp's converter wrote:
//  - add_space_prefix (false for Gemma, absent and so true for Llama):
//    LlamaConverter's legacy normalizer, Prepend("▁") then Replace(" ", "▁"),
//    as Llama 2's and Mistral v0.1's tokenizer.json have it; without it,
//    Replace alone, as GemmaConverter writes (its Split(" ") pre-tokenizer
//    is left out: after that normalizer no space is left to split on);
//  - user-defined pieces: llama.cpp wrote their "▁" as spaces, put back here;
//  - Gemma (general.architecture gemma*): GemmaConverter names <0x09> "\t"
//    when the vocabulary has no tab piece.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "tokenizer/gguf_tokenizer.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

using nlohmann::json;

constexpr const char* kSpSpace = "\xE2\x96\x81";  // "▁"
// Every split of a piece is looked up, so a piece costs its length squared:
// longer ones (no SentencePiece model has them) are refused, which bounds
// the work on a hostile file by this times the metadata's size.
constexpr std::size_t kSpMaxPieceBytes = 1024;

struct SpMerge {
  double score;  // the merged piece's
  std::size_t left_chars, right_chars;
  int left, right;
};

// transformers' generate_merges with scores: every split of a piece into
// two pieces of the vocabulary is a merge; merges are ordered by the
// piece's score, then the left and then the right half's length in
// characters, all descending, ties kept in vocabulary order. (It also sorts
// each piece's splits by the halves' ids first, which the length order
// overrides: no two splits of a piece have the same left length.) One hash
// lookup per split, no scan of pairs of pieces.
std::vector<SpMerge> sp_merges(const std::vector<std::string>& pieces, const std::vector<double>& scores,
                               const std::vector<bool>& in_vocab) {
  std::unordered_map<std::string_view, int> id;
  id.reserve(pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (in_vocab[i]) id[pieces[i]] = static_cast<int>(i);  // a repeated piece: its last id, as a Python dict keeps it
  // (SentencePiece never repeats a piece; one that is repeated is split once, at that id.)
  std::vector<SpMerge> merges;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const std::string_view piece = pieces[i];
    if (!in_vocab[i] || id.at(piece) != static_cast<int>(i)) continue;
    const std::size_t chars = count_code_points(piece);
    if (chars < 2) continue;
    std::size_t at = 0;
    next_code_point(piece, at);
    for (std::size_t left_chars = 1; left_chars < chars; ++left_chars) {
      const auto l = id.find(piece.substr(0, at));
      const auto r = l == id.end() ? id.end() : id.find(piece.substr(at));
      if (r != id.end()) merges.push_back({scores[i], left_chars, chars - left_chars, l->second, r->second});
      next_code_point(piece, at);
    }
  }
  std::stable_sort(merges.begin(), merges.end(), [](const SpMerge& a, const SpMerge& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.left_chars != b.left_chars) return a.left_chars > b.left_chars;
    return a.right_chars > b.right_chars;
  });
  return merges;
}

std::vector<double> sp_scores(const GgufFile& f, std::size_t n) {
  std::vector<double> scores = gguf_numbers(f, "tokenizer.ggml.scores");
  if (scores.empty())
    throw ModelError(f.what() + ": tokenizer.ggml.scores is missing: a SentencePiece vocabulary's merges are ordered by it");
  if (scores.size() != n)
    throw ModelError(f.what() + ": tokenizer.ggml.scores has " + std::to_string(scores.size()) + " entries for " +
                     std::to_string(n) + " tokens");
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(scores[i])) throw ModelError(f.what() + ": tokenizer.ggml.scores[" + std::to_string(i) + "] is NaN");
  return scores;
}

std::string sp_with_metaspace(std::string piece) {
  for (std::size_t at = piece.find(' '); at != std::string::npos; at = piece.find(' ', at + 3)) piece.replace(at, 1, kSpSpace);
  return piece;
}

json sp_replace(const char* from, const char* to) {
  return {{"type", "Replace"}, {"pattern", {{"String", from}}}, {"content", to}};
}

}  // namespace

json sentencepiece_json(const GgufFile& f) {
  GgufVocab v = read_gguf_vocab(f);
  std::vector<double> scores = sp_scores(f, v.tokens.size());
  std::vector<bool> in_vocab(v.tokens.size());
  bool has_tab = false;
  for (std::size_t i = 0; i < v.tokens.size(); ++i) {
    if (v.tokens[i].size() > kSpMaxPieceBytes)
      throw ModelError(f.what() + ": tokenizer.ggml.tokens[" + std::to_string(i) + "] is " +
                       std::to_string(v.tokens[i].size()) + " bytes, longer than the 1024 a SentencePiece piece may be here");
    if (v.types[i] == kGgufUserDefined) v.tokens[i] = sp_with_metaspace(std::move(v.tokens[i]));
    in_vocab[i] = v.types[i] != kGgufUnused;
    has_tab = has_tab || v.tokens[i] == "\t";
  }
  if (!has_tab && gguf_string(f, "general.architecture").value_or("").rfind("gemma", 0) == 0) {
    const auto byte = std::find(v.tokens.begin(), v.tokens.end(), "<0x09>");
    if (byte != v.tokens.end()) {
      *byte = "\t";
      scores[static_cast<std::size_t>(byte - v.tokens.begin())] = 0.0;
    }
  }
  json vocab = json::object(), added = json::array(), merges = json::array();
  for (std::size_t i = 0; i < v.tokens.size(); ++i) {
    if (!in_vocab[i]) continue;
    vocab[v.tokens[i]] = i;
    const int type = v.types[i];
    if (type == kGgufUnknown || type == kGgufControl || type == kGgufUserDefined)
      added.push_back(gguf_added_token(i, v.tokens[i], type != kGgufUserDefined));
  }
  for (const SpMerge& m : sp_merges(v.tokens, scores, in_vocab))
    merges.push_back({v.tokens[static_cast<std::size_t>(m.left)], v.tokens[static_cast<std::size_t>(m.right)]});
  // The unknown piece: the one the metadata names, else the first of type unknown.
  json unk = nullptr;
  if (const std::optional<std::uint64_t> id = gguf_uint(f, "tokenizer.ggml.unknown_token_id")) {
    if (*id >= v.tokens.size() || !in_vocab[static_cast<std::size_t>(*id)])
      throw ModelError(f.what() + ": tokenizer.ggml.unknown_token_id " + std::to_string(*id) + " is not a token");
    unk = v.tokens[static_cast<std::size_t>(*id)];
  } else {
    const auto first = std::find(v.types.begin(), v.types.end(), static_cast<int>(kGgufUnknown));
    if (first != v.types.end()) unk = v.tokens[static_cast<std::size_t>(first - v.types.begin())];
  }
  const bool prefix = gguf_bool(f, "tokenizer.ggml.add_space_prefix").value_or(true);
  json normalizer = sp_replace(" ", kSpSpace);
  json decoders = {sp_replace(kSpSpace, " "), {{"type", "ByteFallback"}}, {{"type", "Fuse"}}};
  if (prefix) {
    normalizer = {{"type", "Sequence"}, {"normalizers", {{{"type", "Prepend"}, {"prepend", kSpSpace}}, normalizer}}};
    decoders.push_back({{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}});
  }
  return {{"version", "1.0"},
          {"added_tokens", added},
          {"normalizer", normalizer},
          {"pre_tokenizer", nullptr},
          {"post_processor", gguf_post_processor(f, v.tokens, true)},  // llama.cpp adds BOS unless told not to
          {"decoder", {{"type", "Sequence"}, {"decoders", decoders}}},
          {"model",
           {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}, {"unk_token", unk}, {"fuse_unk", true},
            {"byte_fallback", true}, {"ignore_merges", false}, {"dropout", nullptr},
            {"continuing_subword_prefix", nullptr}, {"end_of_word_suffix", nullptr}}}};
}

}  // namespace attn::hf::tokenizer_detail
