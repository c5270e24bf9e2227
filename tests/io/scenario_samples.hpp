// Small valid scenarios as JSON, for tests to break one field at a time.
// Starting from a file that parses makes each failure test prove that the
// one edited field, and nothing else, is what gets rejected.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace attn::io::test {

// Self-attention: 3 tokens, d_model 4, 2 heads with d_k = d_v = 3, causal.
nlohmann::json self_attention_sample();

// Cross-attention: 2 queries (d_model 3) over 4 context tokens (d_ctx 4),
// 2 heads with d_k 2, d_v 3, and W_O (6 x 2).
nlohmann::json cross_attention_sample();

// The FormatError message parse_scenario gives for `text`, or
// "<no error>" when it parses.
std::string parse_error_of(const std::string& text);
std::string parse_error_of(const nlohmann::json& doc);

}  // namespace attn::io::test
