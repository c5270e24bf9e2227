#pragma once
// tokenizer.json's "post_processor" for a single text: the special tokens
// put around the ids (TemplateProcessing, BertProcessing,
// RobertaProcessing; ByteLevel adds nothing; Sequence applies each).
#include <vector>

#include "tokenizer/json_fields.hpp"

namespace attn::hf::tokenizer_detail {

// One template: -1 stands for the text's ids, others are literal ids.
using Template = std::vector<int>;

class PostProcessor {
 public:
  static PostProcessor from_json(const Json& config, const Where& where);  // null: adds nothing
  static PostProcessor around(std::vector<int> before, std::vector<int> after);
  std::vector<int> apply(std::vector<int> ids) const;
  int largest_id() const;  // of the special tokens it adds; -1 for none

 private:
  std::vector<Template> steps_;
};

}  // namespace attn::hf::tokenizer_detail
