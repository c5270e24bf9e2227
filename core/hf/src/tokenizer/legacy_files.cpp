// Tokenizer::load_folder: tokenizer.json, or the older files that
// transformers converts the same way (vocab.json + merges.txt for GPT-2's
// byte-level BPE, vocab.txt for BERT's WordPiece).
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "attn/hf/gguf/gguf_file.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "tokenizer/tokenizer_impl.hpp"

namespace attn::hf {

using namespace tokenizer_detail;

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  const std::string name = path.filename().string();
  if (ec) throw ModelError(name + ": cannot read (" + ec.message() + ")");
  if (size > kMaxTokenizerJsonBytes)
    throw ModelError(name + ": is " + std::to_string(size / (1024 * 1024)) + " MB, more than the 256 MB allowed");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError(name + ": cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Json parse_json_file(const std::filesystem::path& path) {
  return parse_json(read_file(path), path.filename().string());
}

// The listed tokens that the vocabulary has, as special added tokens
// matched in the raw text (how transformers registers them).
std::vector<AddedToken> specials_in(const Vocab& vocab, const std::vector<std::string>& names) {
  std::vector<AddedToken> out;
  for (const std::string& name : names) {
    auto it = vocab.find(name);
    if (it == vocab.end()) continue;
    AddedToken t;
    t.id = it->second;
    t.content = name;
    t.normalized = false;
    t.special = true;
    out.push_back(t);
  }
  return out;
}

std::shared_ptr<Impl> gpt2_files(const std::filesystem::path& dir) {
  const Where vw{"vocab.json", ""};
  const Json vocab_json = parse_json_file(dir / "vocab.json");
  if (!vocab_json.is_object()) fail_file(vw, "must hold an object of token: id");
  if (vocab_json.size() > kMaxVocabEntries) fail_file(vw, "has more than 4000000 entries");
  Vocab vocab;
  for (auto it = vocab_json.begin(); it != vocab_json.end(); ++it) vocab.emplace(it.key(), to_id(it.value(), vw.at(it.key())));
  std::vector<std::pair<std::string, std::string>> merges;
  std::istringstream lines(read_file(dir / "merges.txt"));
  std::string line;
  std::size_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || (number == 1 && line.rfind("#version", 0) == 0)) continue;
    const auto space = line.find(' ');
    if (space == std::string::npos)
      throw ModelError("merges.txt: line " + std::to_string(number) + " is not two tokens separated by a space");
    merges.emplace_back(line.substr(0, space), line.substr(space + 1));
  }
  auto impl = std::make_shared<Impl>();
  impl->normalizer = make_normalizer(Json(), {"vocab.json", "normalizer"});
  const Json byte_level = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
  impl->pre_tokenizer = make_pre_tokenizer(byte_level, {"vocab.json", "pre_tokenizer"}, impl->pre_info);
  std::vector<AddedToken> added = specials_in(vocab, {"<|endoftext|>"});
  impl->model = make_bpe(std::move(vocab), merges, BpeOptions{}, {"merges.txt", "merges"});
  finish(*impl, added, "vocab.json");
  return impl;
}

std::shared_ptr<Impl> bert_files(const std::filesystem::path& dir) {
  Vocab vocab;
  std::istringstream lines(read_file(dir / "vocab.txt"));
  std::string line;
  int id = 0;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (static_cast<std::size_t>(id) >= kMaxVocabEntries)
      throw ModelError("vocab.txt: has more than 4000000 entries");
    vocab.insert_or_assign(line, id++);  // a repeated line takes its last id, as transformers' load_vocab does
  }
  bool lower = true;
  if (std::filesystem::exists(dir / "tokenizer_config.json")) {
    const Json config = parse_json_file(dir / "tokenizer_config.json");
    lower = opt_bool(config, Where{"tokenizer_config.json", ""}, "do_lower_case", true);
  }
  for (const char* name : {"[CLS]", "[SEP]", "[UNK]"})
    if (!vocab.count(name)) throw ModelError(std::string("vocab.txt: has no ") + name + " line");
  auto impl = std::make_shared<Impl>();
  const Json normalizer = {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true},
                           {"strip_accents", nullptr}, {"lowercase", lower}};
  impl->normalizer = make_normalizer(normalizer, {"vocab.txt", "normalizer"});
  impl->pre_tokenizer = make_pre_tokenizer(Json{{"type", "BertPreTokenizer"}}, {"vocab.txt", "pre_tokenizer"}, impl->pre_info);
  impl->post = PostProcessor::around({vocab.at("[CLS]")}, {vocab.at("[SEP]")});
  std::vector<AddedToken> added = specials_in(vocab, {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"});
  impl->model = make_wordpiece(std::move(vocab), "[UNK]", "##", 100, {"vocab.txt", ""});
  finish(*impl, added, "vocab.txt");
  return impl;
}

}  // namespace

Tokenizer Tokenizer::load_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(dir, ec)) return load_gguf(*GgufFile::open(dir));  // a model in one GGUF file
  if (std::filesystem::exists(dir / "tokenizer.json"))
    return Tokenizer(impl_from_json(read_file(dir / "tokenizer.json"), "tokenizer.json"));
  if (std::filesystem::exists(dir / "vocab.json") && std::filesystem::exists(dir / "merges.txt"))
    return Tokenizer(gpt2_files(dir));
  if (std::filesystem::exists(dir / "vocab.txt")) return Tokenizer(bert_files(dir));
  throw ModelError(dir.string() + ": no tokenizer.json, vocab.json + merges.txt or vocab.txt");
}

}  // namespace attn::hf
