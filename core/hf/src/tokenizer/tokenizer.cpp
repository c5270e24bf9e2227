// Encoding in HF's order: split out added tokens, normalize, pre-tokenize,
// run the model on each piece, then the post-processor.
#include "attn/hf/tokenizer/tokenizer.hpp"

#include <algorithm>
#include <cstdio>

#include "tokenizer/text/byte_level_alphabet.hpp"
#include "tokenizer/text/regex.hpp"
#include "tokenizer/tokenizer_impl.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf {

using namespace tokenizer_detail;

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

Tokenizer Tokenizer::from_json(std::string_view tokenizer_json_text) {
  return Tokenizer(impl_from_json(tokenizer_json_text, "tokenizer.json"));
}

std::vector<int> Tokenizer::encode(std::string_view utf8_text) const {
  const Impl& t = *impl_;
  const MatchBudget budget(kEncodeMatchSeconds);
  const std::string text = sanitize_utf8(utf8_text);
  std::vector<int> ids;
  for (const TextSegment& raw : t.raw_tokens.split(text)) {
    if (raw.token >= 0) {
      ids.push_back(raw.token);
      continue;
    }
    const std::string normalized = t.normalizer(raw.text);
    for (const TextSegment& seg : t.normalized_tokens.split(normalized)) {
      if (seg.token >= 0) {
        ids.push_back(seg.token);
        continue;
      }
      std::vector<Piece> pieces{{seg.text, raw.offset == 0 && seg.offset == 0}};
      if (pieces[0].text.empty()) continue;
      t.pre_tokenizer(pieces);
      for (const Piece& p : pieces) t.model->tokenize(p.text, ids);
    }
  }
  return t.post.apply(std::move(ids));
}

namespace {

void append_escaped_byte(std::string& out, unsigned char b) {
  char buf[8];
  if (b == '\n') out += "\\n";
  else if (b == '\r') out += "\\r";
  else if (b == '\t') out += "\\t";
  else if (b >= 0x20 && b < 0x7F) out += static_cast<char>(b);
  else {
    std::snprintf(buf, sizeof buf, "\\x%02X", b);
    out += buf;
  }
}

// Bytes as text: whole valid UTF-8 characters kept, other bytes escaped
// (a byte-level token often holds half a character).
std::string show_bytes(std::string_view bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    const std::size_t n = utf8_length(static_cast<unsigned char>(bytes[i]));
    const std::string_view one = bytes.substr(i, n);
    if (n > 1 && one.size() == n && sanitize_utf8(one) == one) {
      out.append(one);
      i += n;
    } else {
      append_escaped_byte(out, static_cast<unsigned char>(bytes[i]));
      ++i;
    }
  }
  return out;
}

// "<0x0A>" -> 0x0A.
bool byte_token(const std::string& token, unsigned char& b) {
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>') return false;
  unsigned value = 0;
  if (std::sscanf(token.c_str() + 3, "%2X", &value) != 1) return false;
  b = static_cast<unsigned char>(value);
  return true;
}

}  // namespace

std::string Tokenizer::token_text(int id) const {
  const Impl& t = *impl_;
  if (id < 0 || static_cast<std::size_t>(id) >= t.id_to_token.size()) return {};
  const std::string& token = t.id_to_token[static_cast<std::size_t>(id)];
  if (t.added_ids.count(token)) return token;  // "<|endoftext|>", "[CLS]": shown as written
  if (t.pre_info.byte_level) {
    std::string bytes;
    if (alphabet_to_bytes(token, bytes)) return show_bytes(bytes);
    return token;
  }
  unsigned char b = 0;
  if (t.byte_fallback && byte_token(token, b)) {
    std::string out;
    append_escaped_byte(out, b);
    return out;
  }
  std::string out;
  const std::string meta = "\xE2\x96\x81";  // "▁"
  for (std::size_t i = 0; i < token.size();) {
    if (token.compare(i, meta.size(), meta) == 0) {
      out += ' ';
      i += meta.size();
    } else {
      out += token[i++];
    }
  }
  return out;
}

std::string Tokenizer::token_piece(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= impl_->id_to_token.size()) return {};
  return impl_->id_to_token[static_cast<std::size_t>(id)];
}

std::string Tokenizer::kind() const { return impl_->kind; }

int Tokenizer::vocab_size() const { return static_cast<int>(impl_->id_to_token.size()); }

std::optional<int> Tokenizer::token_id(std::string_view token) const {
  const std::string key(token);
  auto added = impl_->added_ids.find(key);
  if (added != impl_->added_ids.end()) return added->second;
  const Vocab& vocab = impl_->model->vocab();
  auto it = vocab.find(key);
  if (it == vocab.end()) return std::nullopt;
  return it->second;
}

}  // namespace attn::hf
