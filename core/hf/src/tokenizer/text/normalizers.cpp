// tokenizer.json's normalizers (normalizers.hpp): BERT's, lowercase, strip,
// accents, NFC/NFD/NFKC/NFKD and replace, applied in the file's order.
#include "attn/io/excerpt.hpp"
#include "tokenizer/text/normalizers.hpp"

#include <utility>
#include <vector>

#include "tokenizer/text/regex.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

// Rewrites each code point through `f`, which appends zero or more.
template <typename F>
std::string map_chars(const std::string& text, F f) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) f(out, next_code_point(text, i));
  return out;
}

std::string lowercase(const std::string& s) {
  return map_chars(s, [](std::string& out, char32_t c) { append_lower(out, c); });
}

std::string strip_accents(const std::string& s) {
  return map_chars(s, [](std::string& out, char32_t c) {
    if (!is_nonspacing_mark(c)) append_utf8(out, c);
  });
}

std::string strip(const std::string& s, bool left, bool right) {
  std::size_t begin = 0;
  std::size_t end = s.size();
  if (left) {
    while (begin < end) {
      std::size_t j = begin;
      if (!is_whitespace(next_code_point(s, j))) break;
      begin = j;
    }
  }
  if (right) {
    while (end > begin) {
      std::size_t k = end - 1;
      while (k > begin && (static_cast<unsigned char>(s[k]) & 0xC0u) == 0x80u) --k;
      std::size_t j = k;
      if (!is_whitespace(next_code_point(s, j))) break;
      end = k;
    }
  }
  return s.substr(begin, end - begin);
}

std::string replace_spans(const std::string& s, const std::vector<Span>& spans, const std::string& content) {
  std::string out;
  std::size_t last = 0;
  for (const auto& [b, e] : spans) {
    out.append(s, last, b - last);
    out += content;
    last = e;
  }
  out.append(s, last, std::string::npos);
  return out;
}

Normalizer bert(bool clean_text, bool chinese, bool accents, bool lower) {
  return [=](std::string s) {
    s = map_chars(s, [&](std::string& out, char32_t c) {
      if (clean_text) {
        if (c == 0 || c == 0xFFFD || is_bert_control(c)) return;
        if (is_whitespace(c)) c = ' ';
      }
      if (chinese && is_chinese_char(c)) {
        out += ' ';
        append_utf8(out, c);
        out += ' ';
        return;
      }
      append_utf8(out, c);
    });
    if (accents) s = strip_accents(normalize_form(s, NormalForm::NFD));
    if (lower) s = lowercase(s);
    return s;
  };
}

}  // namespace

// Replace's pattern: {"String": "..."} or {"Regex": "..."}. Also used by Split.
Regex pattern_regex(const Json& obj, const Where& where) {
  const Json& pattern = need_object(obj, where, "pattern");
  const Where w = where.at("pattern");
  if (pattern.contains("String")) return Regex(Regex::escape(need_string(pattern, w, "String")), w.name());
  if (pattern.contains("Regex")) return Regex(need_string(pattern, w, "Regex"), w.name());
  fail(w, "must hold \"String\" or \"Regex\"");
}

Normalizer make_normalizer(const Json& config, const Where& where) {
  if (config.is_null()) return [](std::string s) { return s; };
  const std::string type = type_of(config, where);
  if (type == "Sequence") {
    const Json& list = need_array(config, where, "normalizers");
    std::vector<Normalizer> parts;
    for (std::size_t i = 0; i < list.size(); ++i) parts.push_back(make_normalizer(list[i], where.at("normalizers").index(i)));
    return [parts = std::move(parts)](std::string s) {
      for (const auto& p : parts) s = p(std::move(s));
      return s;
    };
  }
  if (type == "NFC") return [](std::string s) { return normalize_form(s, NormalForm::NFC); };
  if (type == "NFD") return [](std::string s) { return normalize_form(s, NormalForm::NFD); };
  if (type == "NFKC") return [](std::string s) { return normalize_form(s, NormalForm::NFKC); };
  if (type == "NFKD") return [](std::string s) { return normalize_form(s, NormalForm::NFKD); };
  if (type == "Lowercase") return [](std::string s) { return lowercase(s); };
  if (type == "StripAccents") return [](std::string s) { return strip_accents(s); };
  if (type == "Strip") {
    const bool left = opt_bool(config, where, "strip_left", true);
    const bool right = opt_bool(config, where, "strip_right", true);
    return [=](std::string s) { return strip(s, left, right); };
  }
  if (type == "Prepend") {
    const std::string prefix = need_string(config, where, "prepend");
    return [prefix](std::string s) { return s.empty() ? s : prefix + s; };  // HF prepends to non-empty text only
  }
  if (type == "Replace") {
    Regex regex = pattern_regex(config, where);
    const std::string content = need_string(config, where, "content");
    return [regex, content](std::string s) { return replace_spans(s, regex.find_all(s), content); };
  }
  if (type == "BertNormalizer") {
    const bool lower = opt_bool(config, where, "lowercase", true);
    return bert(opt_bool(config, where, "clean_text", true), opt_bool(config, where, "handle_chinese_chars", true),
                opt_bool(config, where, "strip_accents", lower), lower);  // null strip_accents follows lowercase
  }
  fail(where.at("type"), io::quoted_excerpt(type) + " is not a supported normalizer");
}

}  // namespace attn::hf::tokenizer_detail
