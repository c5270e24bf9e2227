// libFuzzer target for config.json and tokenizer.json nested deeper than
// any stack: the input is a small piece of JSON text, repeated many times
// around a core, so a 6-byte input such as `{"a":[` becomes 200,000 levels
// that -max_len could never hold. config.json (as a key's value and as the
// whole file) and tokenizer.json (as the normalizer and the pre-tokenizer)
// must each refuse it with a message or accept it; a crash, a stack
// overflow or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "attn/hf/checkpoint/model_config.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"

namespace {

void refused_or_read_config(const std::string& text) {
  try {
    attn::hf::parse_model_config(text);
  } catch (const attn::hf::ModelError&) {
  }
}

void refused_or_read_tokenizer(const std::string& text) {
  try {
    attn::hf::Tokenizer::from_json(text);
  } catch (const std::runtime_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  // The first two bytes: how often the opening piece repeats (up to 262,143).
  const std::size_t repeats = (static_cast<std::size_t>(data[0]) << 10 | static_cast<std::size_t>(data[1]) << 2) + 1;
  const std::string body(reinterpret_cast<const char*>(data + 2), size - 2);
  // The piece up to the first '|' opens each level; the rest (if any) closes it.
  const std::size_t bar = body.find('|');
  const std::string open = body.substr(0, bar), close = bar == std::string::npos ? "" : body.substr(bar + 1);
  std::string nested;
  nested.reserve((open.size() + close.size()) * repeats + 8);
  for (std::size_t i = 0; i < repeats; ++i) nested += open;
  nested += "1";
  for (std::size_t i = 0; i < repeats; ++i) nested += close;
  refused_or_read_config(nested);
  refused_or_read_config("{\"model_type\": \"gpt2\", \"n_embd\": " + nested + "}");
  refused_or_read_tokenizer("{\"normalizer\": " + nested + ", \"model\": {\"type\": \"WordLevel\", \"vocab\": {}}}");
  refused_or_read_tokenizer("{\"pre_tokenizer\": " + nested + ", \"model\": {\"type\": \"WordLevel\", \"vocab\": {}}}");
  return 0;
}
