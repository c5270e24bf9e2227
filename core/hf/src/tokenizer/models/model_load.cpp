// Reads tokenizer.json's "model" object into a BPE or WordPiece model.
#include "attn/io/excerpt.hpp"
#include "tokenizer/models/model.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

Vocab read_vocab(const Json& model, const Where& where) {
  const Json& vocab = need(model, where, "vocab");
  if (!vocab.is_object()) fail(where.at("vocab"), "must be an object of token: id");
  if (vocab.size() > kMaxVocabEntries)
    fail(where.at("vocab"), "has " + std::to_string(vocab.size()) + " entries, more than the 4000000 allowed");
  Vocab out;
  out.reserve(vocab.size());
  for (auto it = vocab.begin(); it != vocab.end(); ++it) out.emplace(it.key(), to_id(it.value(), where.at("vocab").at(it.key())));
  return out;
}

// "a b" strings (older files) or ["a", "b"] pairs (newer ones).
std::vector<std::pair<std::string, std::string>> read_merges(const Json& model, const Where& where) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!has_value(model, "merges")) return out;
  const Json& merges = need_array(model, where, "merges");
  const Where w = where.at("merges");
  out.reserve(merges.size());
  for (std::size_t i = 0; i < merges.size(); ++i) {
    const Json& m = merges[i];
    if (m.is_string()) {
      const std::string& s = m.get_ref<const std::string&>();
      const auto space = s.find(' ');
      if (space == std::string::npos) fail(w.index(i), io::quoted_excerpt(s) + " is not two tokens separated by a space");
      out.emplace_back(s.substr(0, space), s.substr(space + 1));
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      out.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
    } else {
      fail(w.index(i), "must be a string \"a b\" or a pair [\"a\", \"b\"]");
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<Model> make_model(const Json& config, const Where& where) {
  if (!config.is_object()) fail(where, "must be an object");
  std::string type = opt_string(config, where, "type", "");
  if (type.empty()) {
    // Some older files leave the type out; the fields tell.
    if (config.contains("merges")) type = "BPE";
    else if (config.contains("continuing_subword_prefix") || config.contains("max_input_chars_per_word")) type = "WordPiece";
    else fail(where.at("type"), "is missing");
  }
  if (type == "BPE") {
    BpeOptions options;
    options.unk_token = opt_string(config, where, "unk_token", "");
    options.fuse_unk = opt_bool(config, where, "fuse_unk", false);
    options.byte_fallback = opt_bool(config, where, "byte_fallback", false);
    options.ignore_merges = opt_bool(config, where, "ignore_merges", false);
    options.continuing_subword_prefix = opt_string(config, where, "continuing_subword_prefix", "");
    options.end_of_word_suffix = opt_string(config, where, "end_of_word_suffix", "");
    if (has_value(config, "dropout") && !config.at("dropout").is_number()) fail(where.at("dropout"), "must be a number");
    return make_bpe(read_vocab(config, where), read_merges(config, where), options, where.at("merges"));
  }
  if (type == "WordPiece") {
    const Json& max = config.contains("max_input_chars_per_word") ? config.at("max_input_chars_per_word") : Json(100);
    return make_wordpiece(read_vocab(config, where), opt_string(config, where, "unk_token", "[UNK]"),
                          opt_string(config, where, "continuing_subword_prefix", "##"),
                          static_cast<std::size_t>(to_id(max, where.at("max_input_chars_per_word"))), where);
  }
  fail(where.at("type"), io::quoted_excerpt(type) + " is not supported (BPE and WordPiece are)");
}

}  // namespace attn::hf::tokenizer_detail
