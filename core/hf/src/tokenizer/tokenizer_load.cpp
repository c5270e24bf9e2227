// tokenizer.json into the pipeline's parts, every field checked.
#include <algorithm>
#include <stdexcept>

#include "attn/hf/model_error.hpp"
#include "tokenizer/tokenizer_impl.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

std::vector<AddedToken> read_added_tokens(const Json& root, const Where& top) {
  std::vector<AddedToken> out;
  if (!has_value(root, "added_tokens")) return out;
  const Json& list = need_array(root, top, "added_tokens");
  if (list.size() > kMaxVocabEntries) fail(top.at("added_tokens"), "has more than 4000000 entries");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Where w = top.at("added_tokens").index(i);
    const Json& item = list[i];
    AddedToken t;
    t.id = need_id(item, w, "id");
    t.content = need_string(item, w, "content");
    t.single_word = opt_bool(item, w, "single_word", false);
    t.lstrip = opt_bool(item, w, "lstrip", false);
    t.rstrip = opt_bool(item, w, "rstrip", false);
    t.special = opt_bool(item, w, "special", false);
    t.normalized = opt_bool(item, w, "normalized", !t.special);
    out.push_back(std::move(t));
  }
  return out;
}

// Llama 2 style files put the "▁" in through the normalizer, not a
// Metaspace pre-tokenizer; both count as Metaspace for kind().
bool normalizer_writes_metaspace(const Json& normalizer) {
  return !normalizer.is_null() &&
         normalizer.dump(-1, ' ', false, Json::error_handler_t::replace).find("\xE2\x96\x81") != std::string::npos;
}

}  // namespace

std::shared_ptr<Impl> impl_from_root(const Json& root, const Where& top);

void finish(Impl& impl, const std::vector<AddedToken>& added, const std::string& file) {
  int largest = -1;
  for (const auto& [token, id] : impl.model->vocab()) largest = std::max(largest, id);
  for (const AddedToken& t : added) largest = std::max(largest, t.id);
  // The id table is dense: one far id would make it gigabytes.
  if (static_cast<std::size_t>(largest) >= kMaxVocabEntries)
    throw ModelError(file + ": token id " + std::to_string(largest) + " is beyond the 4000000 allowed");
  // HF would emit a post-processor id the vocabulary lacks; a model's
  // embedding table could not look it up, so it is refused here.
  if (impl.post.largest_id() > largest)
    throw ModelError(file + ": post_processor adds token id " + std::to_string(impl.post.largest_id()) +
                             ", beyond the vocabulary's largest id " + std::to_string(largest));
  impl.id_to_token.assign(static_cast<std::size_t>(largest + 1), std::string());
  for (const auto& [token, id] : impl.model->vocab()) impl.id_to_token[static_cast<std::size_t>(id)] = token;
  for (const AddedToken& t : added) {
    impl.id_to_token[static_cast<std::size_t>(t.id)] = t.content;
    impl.added_ids[t.content] = t.id;
    if (t.normalized) impl.normalized_tokens.add(t, impl.normalizer(t.content));  // HF matches the normalized form
    else impl.raw_tokens.add(t, t.content);
  }
  std::string kind = impl.model->kind();
  if (impl.pre_info.byte_level) kind += ", byte-level";
  else if (impl.pre_info.metaspace) kind += ", Metaspace";
  if (impl.byte_fallback) kind += impl.pre_info.metaspace ? " with byte fallback" : ", byte fallback";
  impl.kind = kind;
}

std::shared_ptr<Impl> impl_from_json(std::string_view text, const std::string& file) {
  const Where top{file, ""};
  if (text.size() > kMaxTokenizerJsonBytes)
    fail_file(top, "is " + std::to_string(text.size() / (1024 * 1024)) + " MB, more than the 256 MB allowed");
  const Json root = parse_json(text, file);
  if (!root.is_object()) fail_file(top, "must hold a JSON object");
  try {
    return impl_from_root(root, top);
  } catch (const Json::exception& e) {
    // Every field is checked before use; this is a net for a check missed.
    throw ModelError(file + ": " + e.what());
  }
}

std::shared_ptr<Impl> impl_from_root(const Json& root, const Where& top) {
  const std::string& file = top.file;
  auto impl = std::make_shared<Impl>();
  const Json null;
  auto field = [&](const char* key) -> const Json& { return root.contains(key) ? root.at(key) : null; };
  impl->normalizer = make_normalizer(field("normalizer"), top.at("normalizer"));
  impl->pre_tokenizer = make_pre_tokenizer(field("pre_tokenizer"), top.at("pre_tokenizer"), impl->pre_info);
  const Json& model = need(root, top, "model");
  impl->model = make_model(model, top.at("model"));
  impl->byte_fallback = opt_bool(model, top.at("model"), "byte_fallback", false);
  impl->post = PostProcessor::from_json(field("post_processor"), top.at("post_processor"));
  impl->pre_info.metaspace = impl->pre_info.metaspace || normalizer_writes_metaspace(field("normalizer"));
  finish(*impl, read_added_tokens(root, top), file);
  return impl;
}

}  // namespace attn::hf::tokenizer_detail
