// tokenizer.json's pre-tokenizers (pre_tokenizers.hpp): whitespace, byte
// level, metaspace, punctuation, digits and regex splits, each with the
// split behaviour the file names.
#include "attn/io/excerpt.hpp"
#include "tokenizer/text/pre_tokenizers.hpp"

#include <algorithm>
#include <utility>

#include "tokenizer/text/byte_level_alphabet.hpp"
#include "tokenizer/text/normalizers.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

// GPT-2's pattern, which ByteLevel with use_regex applies.
constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct Segment {
  std::size_t begin, end;
  bool is_match;
};

// Each character for which `pred` holds is a match of its own (HF's
// Pattern for Fn(char) -> bool).
template <typename Pred>
std::vector<Span> char_matches(const std::string& s, Pred pred) {
  std::vector<Span> spans;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t b = i;
    if (pred(next_code_point(s, i))) spans.emplace_back(b, i);
  }
  return spans;
}

std::vector<Span> apply_behavior(const std::vector<Segment>& segs, SplitBehavior behavior) {
  std::vector<Span> out;
  bool previous_match = false;
  switch (behavior) {
    case SplitBehavior::Removed:
      for (const auto& s : segs)
        if (!s.is_match) out.emplace_back(s.begin, s.end);
      break;
    case SplitBehavior::Isolated:
      for (const auto& s : segs) out.emplace_back(s.begin, s.end);
      break;
    case SplitBehavior::Contiguous:
      for (const auto& s : segs) {
        if (s.is_match == previous_match && !out.empty()) out.back().second = s.end;
        else out.emplace_back(s.begin, s.end);
        previous_match = s.is_match;
      }
      break;
    case SplitBehavior::MergedWithPrevious:
      for (const auto& s : segs) {
        if (s.is_match && !previous_match && !out.empty()) out.back().second = s.end;
        else out.emplace_back(s.begin, s.end);
        previous_match = s.is_match;
      }
      break;
    case SplitBehavior::MergedWithNext:
      for (auto it = segs.rbegin(); it != segs.rend(); ++it) {
        if (it->is_match && !previous_match && !out.empty()) out.back().first = it->begin;
        else out.emplace_back(it->begin, it->end);
        previous_match = it->is_match;
      }
      std::reverse(out.begin(), out.end());
      break;
  }
  return out;
}

SplitBehavior parse_behavior(const std::string& name, const Where& where) {
  if (name == "Removed") return SplitBehavior::Removed;
  if (name == "Isolated") return SplitBehavior::Isolated;
  if (name == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::MergedWithNext;
  if (name == "Contiguous") return SplitBehavior::Contiguous;
  fail(where, io::quoted_excerpt(name) + " is not a split behavior (Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous)");
}

template <typename Pred>
PreTokenizer char_split(Pred pred, SplitBehavior behavior) {
  return [=](std::vector<Piece>& pieces) {
    split_pieces(pieces, [&](const std::string& s) { return char_matches(s, pred); }, behavior);
  };
}

PreTokenizer regex_split(Regex regex, SplitBehavior behavior, bool invert) {
  return [=](std::vector<Piece>& pieces) {
    split_pieces(pieces, [&](const std::string& s) { return regex.find_all(s); }, behavior, invert);
  };
}

// Prepends `prefix` to a non-empty piece (HF's NormalizedString::prepend
// leaves empty text alone).
void prepend(Piece& p, const std::string& prefix) {
  if (!p.text.empty()) p.text.insert(0, prefix);
}

PreTokenizer byte_level(const Json& config, const Where& where) {
  const bool prefix_space = opt_bool(config, where, "add_prefix_space", true);
  const bool use_regex = opt_bool(config, where, "use_regex", true);
  const Regex regex(kGpt2Pattern, where.name());
  return [=](std::vector<Piece>& pieces) {
    if (prefix_space)
      for (auto& p : pieces)
        if (p.text.rfind(' ', 0) != 0) prepend(p, " ");
    if (use_regex) split_pieces(pieces, [&](const std::string& s) { return regex.find_all(s); }, SplitBehavior::Isolated);
    for (auto& p : pieces) p.text = bytes_to_alphabet(p.text);
  };
}

PreTokenizer metaspace(const Json& config, const Where& where) {
  const std::string replacement = opt_string(config, where, "replacement", "\xE2\x96\x81");
  if (replacement.empty() || count_code_points(replacement) != 1) fail(where.at("replacement"), "must be one character");
  // Older files have add_prefix_space instead of prepend_scheme.
  std::string scheme = opt_bool(config, where, "add_prefix_space", true) ? "always" : "never";
  scheme = opt_string(config, where, "prepend_scheme", scheme);
  if (scheme != "first" && scheme != "always" && scheme != "never")
    fail(where.at("prepend_scheme"), io::quoted_excerpt(scheme) + " is not first, always or never");
  const bool split = opt_bool(config, where, "split", true);
  std::size_t k = 0;
  const char32_t rep_char = next_code_point(replacement, k);
  return [=](std::vector<Piece>& pieces) {
    for (auto& p : pieces) {
      std::string replaced;
      for (char c : p.text) {
        if (c == ' ') replaced += replacement;
        else replaced += c;
      }
      p.text = std::move(replaced);
      const bool starts = p.text.rfind(replacement, 0) == 0;
      if (!starts && (scheme == "always" || (scheme == "first" && p.at_start))) prepend(p, replacement);
    }
    if (split)
      split_pieces(pieces, [&](const std::string& s) { return char_matches(s, [&](char32_t c) { return c == rep_char; }); },
                   SplitBehavior::MergedWithNext);
  };
}

}  // namespace

void split_pieces(std::vector<Piece>& pieces, const std::function<std::vector<Span>(const std::string&)>& matches,
                  SplitBehavior behavior, bool invert) {
  std::vector<Piece> out;
  out.reserve(pieces.size());
  for (const auto& piece : pieces) {
    std::vector<Segment> segs;
    std::size_t last = 0;
    for (const auto& [b, e] : matches(piece.text)) {
      if (b > last) segs.push_back({last, b, invert});
      segs.push_back({b, e, !invert});
      last = e;
    }
    if (last < piece.text.size()) segs.push_back({last, piece.text.size(), invert});
    for (const auto& [b, e] : apply_behavior(segs, behavior)) {
      if (e > b) out.push_back({piece.text.substr(b, e - b), piece.at_start && b == 0});
    }
  }
  pieces = std::move(out);
}

PreTokenizer make_pre_tokenizer(const Json& config, const Where& where, PreTokenizerInfo& info) {
  if (config.is_null()) return [](std::vector<Piece>&) {};
  const std::string type = type_of(config, where);
  if (type == "Sequence") {
    const Json& list = need_array(config, where, "pretokenizers");
    std::vector<PreTokenizer> parts;
    for (std::size_t i = 0; i < list.size(); ++i)
      parts.push_back(make_pre_tokenizer(list[i], where.at("pretokenizers").index(i), info));
    return [parts = std::move(parts)](std::vector<Piece>& pieces) {
      for (const auto& p : parts) p(pieces);
    };
  }
  if (type == "ByteLevel") {
    info.byte_level = true;
    return byte_level(config, where);
  }
  if (type == "Metaspace") {
    info.metaspace = true;
    return metaspace(config, where);
  }
  if (type == "Split") {
    const SplitBehavior behavior = parse_behavior(need_string(config, where, "behavior"), where.at("behavior"));
    return regex_split(pattern_regex(config, where), behavior, opt_bool(config, where, "invert", false));
  }
  if (type == "Whitespace") {
    // HF's \w+|[^\w\s]+ with Rust's Unicode \w (letters, marks, digits,
    // connectors, joiners), which is wider than PCRE2's \w.
    const std::string w = R"([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}])";
    const std::string not_w = R"([^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\s])";
    return regex_split(Regex(w + "+|" + not_w + "+", where.name()), SplitBehavior::Removed, true);
  }
  if (type == "WhitespaceSplit") return char_split(is_whitespace, SplitBehavior::Removed);
  if (type == "BertPreTokenizer") {
    auto spaces = char_split(is_whitespace, SplitBehavior::Removed);
    auto punct = char_split(is_bert_punctuation, SplitBehavior::Isolated);
    return [=](std::vector<Piece>& pieces) {
      spaces(pieces);
      punct(pieces);
    };
  }
  if (type == "Punctuation") {
    const std::string name = opt_string(config, where, "behavior", "Isolated");
    return char_split(is_bert_punctuation, parse_behavior(name, where.at("behavior")));
  }
  if (type == "Digits") {
    const bool individual = opt_bool(config, where, "individual_digits", false);
    return char_split(is_numeric, individual ? SplitBehavior::Isolated : SplitBehavior::Contiguous);
  }
  fail(where.at("type"), io::quoted_excerpt(type) + " is not a supported pre-tokenizer");
}

}  // namespace attn::hf::tokenizer_detail
