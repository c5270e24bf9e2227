// The small markup of lesson text: **bold** and *emphasis* for words, and
// inline math in backticks, where _k or _{model} is a subscript and ^T or
// ^{-1} a superscript. Parsed into spans the lesson panel draws (math in a
// serif face, scripts smaller and raised or lowered). Unclosed markers are
// kept as plain text, so a typo never swallows a sentence.
#pragma once

#include <string>
#include <vector>

namespace model {

struct RichSpan {
  enum class Style { Plain, Bold, Emphasis, Math };
  enum class Script { Normal, Sub, Super };
  std::string text;
  Style style = Style::Plain;
  Script script = Script::Normal;
  bool operator==(const RichSpan& o) const { return text == o.text && style == o.style && script == o.script; }
};

std::vector<RichSpan> parse_rich_text(const std::string& text);

// The text without markup ("q·k / √d_k" for `q·k / √d_k`), for tooltips and dumps.
std::string plain_text(const std::vector<RichSpan>& spans);

}  // namespace model
