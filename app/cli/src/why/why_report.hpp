// What `attn explain --why` prints: a score split by dimension and rotary
// pair, or a trained model's score split by source, as text for a person or
// as JSON (format "attnviz-why") for a script.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "attn/why/score_split.hpp"
#include "attn/why/source_split.hpp"

namespace attn::cli {

std::string why_text(const ScoreSplit& split);
nlohmann::json why_json(const ScoreSplit& split);

// `top`: how many (query source, key source) pairs the text lists.
std::string why_text(const SourceSplit& split, int top = 10);
nlohmann::json why_json(const SourceSplit& split);

}  // namespace attn::cli
