// Rich text parsing: a single left-to-right pass. A marker opens a span only
// when its closing marker exists later in the text.
#include "model/lessons/rich_text.hpp"

namespace model {
namespace {

using Style = RichSpan::Style;
using Script = RichSpan::Script;

void push(std::vector<RichSpan>& out, const std::string& text, Style style, Script script = Script::Normal) {
  if (text.empty()) return;
  if (!out.empty() && out.back().style == style && out.back().script == script) out.back().text += text;
  else out.push_back({text, style, script});
}

// Math: scripts after _ or ^, one character (a UTF-8 code point) or {a group}.
void parse_math(const std::string& m, std::vector<RichSpan>& out) {
  std::string run;
  size_t i = 0;
  while (i < m.size()) {
    const char c = m[i];
    if ((c == '_' || c == '^') && i + 1 < m.size()) {
      push(out, run, Style::Math);
      run.clear();
      const Script script = c == '_' ? Script::Sub : Script::Super;
      size_t end;
      std::string body;
      if (m[i + 1] == '{' && (end = m.find('}', i + 2)) != std::string::npos) {
        body = m.substr(i + 2, end - i - 2);
        i = end + 1;
      } else {
        size_t n = 1;  // one code point: its lead byte and continuation bytes
        while (i + 1 + n < m.size() && (static_cast<unsigned char>(m[i + 1 + n]) & 0xC0) == 0x80) ++n;
        body = m.substr(i + 1, n);
        i += 1 + n;
      }
      push(out, body, Style::Math, script);
      continue;
    }
    run += c;
    ++i;
  }
  push(out, run, Style::Math);
}

}  // namespace

std::vector<RichSpan> parse_rich_text(const std::string& t) {
  std::vector<RichSpan> out;
  std::string run;
  size_t i = 0;
  while (i < t.size()) {
    size_t close = std::string::npos;
    if (t[i] == '`' && (close = t.find('`', i + 1)) != std::string::npos) {
      push(out, run, Style::Plain);
      run.clear();
      parse_math(t.substr(i + 1, close - i - 1), out);
      i = close + 1;
    } else if (t.compare(i, 2, "**") == 0 && (close = t.find("**", i + 2)) != std::string::npos && close > i + 2) {
      push(out, run, Style::Plain);
      run.clear();
      push(out, t.substr(i + 2, close - i - 2), Style::Bold);
      i = close + 2;
    } else if (t[i] == '*' && (close = t.find('*', i + 1)) != std::string::npos && close > i + 1) {
      push(out, run, Style::Plain);
      run.clear();
      push(out, t.substr(i + 1, close - i - 1), Style::Emphasis);
      i = close + 1;
    } else {
      run += t[i++];
    }
  }
  push(out, run, Style::Plain);
  return out;
}

std::string plain_text(const std::vector<RichSpan>& spans) {
  std::string out;
  for (const RichSpan& s : spans) out += (s.script == Script::Sub ? "_" : s.script == Script::Super ? "^" : "") + s.text;
  return out;
}

}  // namespace model
