// The sample scenarios and the error-capturing helper (see
// scenario_samples.hpp). Numbers are arbitrary but distinct so a transposed
// or misplaced value would be caught by the shape and value checks.
#include "scenario_samples.hpp"

#include "attn/io/scenario_file.hpp"

namespace attn::io::test {

using nlohmann::json;

json self_attention_sample() {
  return json::parse(R"({
    "format": "attnviz-scenario", "version": 1,
    "title": "sample", "description": "three tokens",
    "tokens": ["the", "cat", "sat"],
    "x": [[1, 0, 0.5, -1], [0, 2, 1, 0.25], [-0.5, 1, 0, 3]],
    "heads": [
      {"w_q": [[1,0,0],[0,1,0],[0,0,1],[1,1,1]],
       "w_k": [[0.5,0,0],[0,0.5,0],[0,0,0.5],[1,0,1]],
       "w_v": [[1,2,3],[4,5,6],[7,8,9],[0,1,0]]},
      {"w_q": [[0,1,0],[1,0,0],[0,0,1],[0,0,0]],
       "w_k": [[1,0,0],[0,1,0],[0,0,1],[0,1,0]],
       "w_v": [[1,0,0],[0,1,0],[0,0,1],[1,1,1]]}
    ],
    "mask": "causal"
  })");
}

json cross_attention_sample() {
  return json::parse(R"({
    "format": "attnviz-scenario", "version": 1,
    "x": [[1, 2, 3], [0, -1, 0.5]],
    "context": [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [1, 1, 1, 1]],
    "context_tokens": ["a", "b", "c", "d"],
    "heads": [
      {"w_q": [[1,0],[0,1],[1,1]], "w_k": [[1,0],[0,1],[1,0],[0,1]],
       "w_v": [[1,0,0],[0,1,0],[0,0,1],[1,1,1]]},
      {"w_q": [[0,1],[1,0],[0,0]], "w_k": [[0,1],[1,0],[0,0],[1,1]],
       "w_v": [[0,0,1],[0,1,0],[1,0,0],[0,0,0]]}
    ],
    "w_o": [[1,0],[0,1],[1,1],[0,0],[2,0],[0,2]]
  })");
}

std::string parse_error_of(const std::string& text) {
  try {
    (void)parse_scenario(text);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string parse_error_of(const json& doc) { return parse_error_of(doc.dump()); }

}  // namespace attn::io::test
