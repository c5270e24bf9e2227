// Quoting a user's value in a message without repeating all of it: a 60 KB
// mask string used to give a 60 KB error line. Every message that shows a
// value from a file (or a command line) goes through here.
#pragma once

#include <cstddef>
#include <string>

namespace attn::io {

// The most characters of a value a message quotes.
constexpr std::size_t kExcerptChars = 40;

// `text` in double quotes, escaped as JSON so it stays on one line; when it
// has more than kExcerptChars characters, only the first ones, marked:
// "xxxxxxxx…" (60,000 characters).
std::string quoted_excerpt(const std::string& text);

// The same, keeping the last characters: "…xxxx.xlsx" (60,000 characters),
// for a value whose ending is the point (a file name's extension).
std::string quoted_ending(const std::string& text);

// `text` as it is when short, else its first kExcerptChars characters and
// "… (60,000 characters)": for names shown without quotes (field paths).
std::string excerpt(const std::string& text);

// 60000 -> "60,000": counts in messages.
std::string with_thousands(std::size_t n);

}  // namespace attn::io
