// tokenizer.json's post-processors (post_processor.hpp): the template and
// BERT/RoBERTa forms that add [CLS], [SEP], <s> and </s> around the ids.
#include "attn/io/excerpt.hpp"
#include "tokenizer/post_processor.hpp"

#include <algorithm>

namespace attn::hf::tokenizer_detail {
namespace {

// Bert/RobertaProcessing: "cls": ["[CLS]", 101], "sep": ["[SEP]", 102].
int pair_id(const Json& config, const Where& where, const char* key) {
  const Json& v = need(config, where, key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_string()) fail(where.at(key), "must be [token, id]");
  return to_id(v[1], where.at(key).index(1));
}

Template template_from_json(const Json& config, const Where& where) {
  const Json& single = need(config, where, "single");
  const Json& specials = has_value(config, "special_tokens") ? config.at("special_tokens") : Json::object();
  if (!specials.is_object()) fail(where.at("special_tokens"), "must be an object");
  const Where sw = where.at("special_tokens");
  auto special_ids = [&](const std::string& name, Template& out, const Where& w) {
    if (!specials.contains(name)) fail(w, "names " + io::quoted_excerpt(name) + ", which is not in special_tokens");
    const Json& ids = need_array(specials.at(name), sw.at(name), "ids");
    for (std::size_t i = 0; i < ids.size(); ++i) out.push_back(to_id(ids[i], sw.at(name).at("ids").index(i)));
  };
  Template t;
  const Where w = where.at("single");
  if (single.is_string()) {  // "[CLS] $A [SEP]", the form the Python API takes
    std::string s = single.get<std::string>();
    std::size_t i = 0;
    while (i < s.size()) {
      const std::size_t j = std::min(s.find(' ', i), s.size());
      const std::string piece = s.substr(i, j - i);
      if (!piece.empty()) {
        if (piece[0] == '$') t.push_back(-1);
        else special_ids(piece.substr(0, piece.find(':')), t, w);
      }
      i = j + 1;
    }
    return t;
  }
  if (!single.is_array()) fail(w, "must be an array");
  for (std::size_t i = 0; i < single.size(); ++i) {
    const Json& item = single[i];
    if (item.is_object() && item.contains("Sequence")) t.push_back(-1);
    else if (item.is_object() && item.contains("SpecialToken")) special_ids(need_string(item.at("SpecialToken"), w.index(i).at("SpecialToken"), "id"), t, w.index(i));
    else fail(w.index(i), "must be {\"Sequence\": ...} or {\"SpecialToken\": ...}");
  }
  return t;
}

void read_steps(const Json& config, const Where& where, std::vector<Template>& steps) {
  const std::string type = type_of(config, where);
  if (type == "Sequence") {
    const Json& list = need_array(config, where, "processors");
    for (std::size_t i = 0; i < list.size(); ++i) read_steps(list[i], where.at("processors").index(i), steps);
  } else if (type == "TemplateProcessing") {
    steps.push_back(template_from_json(config, where));
  } else if (type == "BertProcessing" || type == "RobertaProcessing") {
    steps.push_back({pair_id(config, where, "cls"), -1, pair_id(config, where, "sep")});
  } else if (type != "ByteLevel") {
    fail(where.at("type"), io::quoted_excerpt(type) + " is not a supported post-processor");
  }
}

}  // namespace

PostProcessor PostProcessor::from_json(const Json& config, const Where& where) {
  PostProcessor p;
  if (!config.is_null()) read_steps(config, where, p.steps_);
  return p;
}

PostProcessor PostProcessor::around(std::vector<int> before, std::vector<int> after) {
  PostProcessor p;
  Template t = std::move(before);
  t.push_back(-1);
  t.insert(t.end(), after.begin(), after.end());
  p.steps_.push_back(std::move(t));
  return p;
}

int PostProcessor::largest_id() const {
  int largest = -1;
  for (const Template& t : steps_)
    for (int id : t) largest = std::max(largest, id);
  return largest;
}

std::vector<int> PostProcessor::apply(std::vector<int> ids) const {
  for (const Template& t : steps_) {
    std::vector<int> out;
    out.reserve(ids.size() + t.size());
    for (int item : t) {
      if (item < 0) out.insert(out.end(), ids.begin(), ids.end());
      else out.push_back(item);
    }
    ids = std::move(out);
  }
  return ids;
}

}  // namespace attn::hf::tokenizer_detail
