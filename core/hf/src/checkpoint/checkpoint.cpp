// A Hugging Face checkpoint folder (checkpoint.hpp): its config, and every
// tensor found through the shard index or the single safetensors file, each
// name and shape checked before any forward pass reads it.
#include "attn/hf/checkpoint/checkpoint.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "attn/hf/model_error.hpp"
#include "attn/io/excerpt.hpp"
#include "json/bounded_json.hpp"

namespace attn::hf {

namespace fs = std::filesystem;

namespace {

// config.json and the index are a few kilobytes; a megabyte-sized one is not
// a Hugging Face file.
constexpr std::uintmax_t kMaxSmallFileBytes = 64u << 20;

std::string read_small_file(const fs::path& path) {
  std::error_code ec;
  // A FIFO or a device would block the open or never end: only a regular file is read.
  if (!fs::is_regular_file(path, ec))
    throw ModelError(path.filename().string() + ": not a regular file (a pipe, device or folder cannot be read as one)");
  const auto size = fs::file_size(path, ec);
  if (ec) throw ModelError(path.filename().string() + ": cannot read (" + ec.message() + ")");
  if (size > kMaxSmallFileBytes)
    throw ModelError(path.filename().string() + ": " + std::to_string(size >> 20) + " MB is far too large for this file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError(path.filename().string() + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// model.safetensors.index.json's weight_map: which shard holds each tensor,
// each a plain file name in the folder (a "../" or an absolute path is
// refused, never followed).
std::map<std::string, std::string> weight_map(const fs::path& index_path) {
  const nlohmann::json index =
      detail::parse_bounded_json(read_small_file(index_path), "model.safetensors.index.json", detail::kSmallFileBounds);
  if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object())
    throw ModelError("model.safetensors.index.json: no \"weight_map\" object");
  std::map<std::string, std::string> map;
  for (const auto& [tensor, file] : index["weight_map"].items()) {
    if (!file.is_string())
      throw ModelError("model.safetensors.index.json: the file of " + io::quoted_excerpt(tensor) + " is not a string");
    const std::string name = file.get<std::string>();
    if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos || name == "." ||
        name == ".." || name.find('\0') != std::string::npos)
      throw ModelError("model.safetensors.index.json: " + io::quoted_excerpt(name) + " is not a file name in the model folder");
    map.emplace(tensor, name);
  }
  if (map.empty()) throw ModelError("model.safetensors.index.json: the weight_map names no file");
  return map;
}

}  // namespace

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

const unsigned char* TensorRef::bytes() const { return file ? file->bytes(*info) : gguf->data() + info->begin; }

void TensorRef::release() const {
  if (file) file->release(*info);
  else if (gguf) gguf->release(info->begin, info->end);
}

std::shared_ptr<const Checkpoint> Checkpoint::open(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir, ec)) return open_gguf(dir);
  if (!fs::exists(dir, ec)) throw ModelError(dir.string() + ": no such folder or file");
  if (!fs::is_directory(dir, ec))
    throw ModelError(dir.string() + ": neither a folder (a Hugging Face model is a folder with config.json) nor a GGUF file");
  auto ck = std::make_shared<Checkpoint>();
  ck->dir_ = dir;
  const fs::path config = dir / "config.json";
  if (!fs::exists(config, ec)) throw ModelError(dir.string() + ": no config.json, so this is not a Hugging Face model folder");
  ck->config_ = parse_model_config(read_small_file(config));

  std::vector<std::string> files;
  std::map<std::string, std::string> owners;
  if (fs::exists(dir / "model.safetensors", ec)) {
    files.push_back("model.safetensors");
  } else if (fs::exists(dir / "model.safetensors.index.json", ec)) {
    owners = weight_map(dir / "model.safetensors.index.json");
    std::set<std::string> names;
    for (const auto& [tensor, file] : owners) names.insert(file);
    files.assign(names.begin(), names.end());
  }
  else if (fs::exists(dir / "pytorch_model.bin", ec))
    throw ModelError(dir.string() + ": only pytorch_model.bin is here; attnviz reads safetensors files (save the model "
                                    "with save_pretrained(..., safe_serialization=True))");
  else
    throw ModelError(dir.string() + ": no model.safetensors and no model.safetensors.index.json");
  for (const auto& name : files) {
    if (!fs::exists(dir / name, ec))
      throw ModelError(name + ": missing, though model.safetensors.index.json names it (an incomplete download?)");
    ck->files_.push_back(SafetensorsFile::open(dir / name));
  }
  // Follow the index: a tensor is read from the shard it names, which must
  // hold it. (A tensor also present in another shard was read from whichever
  // came first, off by up to 0.71 from the named one.)
  for (const auto& [tensor, file] : owners) {
    const auto at = std::find(files.begin(), files.end(), file) - files.begin();
    if (!ck->files_[static_cast<std::size_t>(at)]->find(tensor))
      throw ModelError("model.safetensors.index.json puts " + io::quoted_excerpt(tensor) + " in " + file +
                       ", which does not hold it");
    ck->owner_.emplace(tensor, static_cast<std::size_t>(at));
  }
  return ck;
}

std::string Checkpoint::changed() const {
  if (gguf_) return gguf_->changed();
  for (const auto& f : files_)
    if (std::string why = f->changed(); !why.empty()) return why;
  return {};
}

void Checkpoint::check_unchanged() const {
  if (const std::string why = changed(); !why.empty())
    throw ModelError(why + ": its numbers can no longer be trusted; open the model again");
}

std::size_t Checkpoint::weight_bytes() const {
  std::size_t total = gguf_ ? gguf_->file_bytes() : 0;
  for (const auto& f : files_) total += f->file_bytes();
  return total;
}

std::vector<Checkpoint::StoredTensor> Checkpoint::stored_tensors() const {
  std::vector<StoredTensor> out;
  if (gguf_)
    for (const GgufTensor& t : gguf_->tensors())
      out.push_back({t.name, ggml_type_name(t.type), t.elements(), t.bytes, t.dims.size()});
  for (const auto& f : files_)
    for (const TensorInfo& t : f->tensors())
      out.push_back({t.name, t.dtype_name, static_cast<std::uint64_t>(t.elements()), t.end - t.begin, t.shape.size()});
  return out;
}

std::vector<fs::path> Checkpoint::weight_paths() const {
  std::vector<fs::path> out;
  if (gguf_) out.push_back(dir_ / gguf_->what());
  for (const auto& f : files_) out.push_back(dir_ / f->what());
  return out;
}

TensorRef Checkpoint::find(const std::string& name) const {
  if (gguf_) {
    const auto it = gguf_tensors_.find(name);
    return it == gguf_tensors_.end() ? TensorRef{} : TensorRef{&it->second, nullptr, gguf_.get()};
  }
  const std::string prefixes[] = {"", config_.prefix_hint, "transformer.", "bert.", "model."};
  for (const auto& prefix : prefixes) {
    const auto owner = owner_.find(prefix + name);
    if (owner != owner_.end()) {
      const auto& f = files_[owner->second];
      return {f->find(prefix + name), f.get(), nullptr};
    }
    for (const auto& f : files_)
      if (const TensorInfo* t = f->find(prefix + name)) return {t, f.get(), nullptr};
  }
  return {};
}

TensorRef Checkpoint::tensor(const std::string& name, const std::vector<std::int64_t>& shape) const {
  TensorRef r = find(name);
  if (!r.info)
    throw ModelError("the weights have no tensor " + io::quoted_excerpt(name) + " (is this a " + config_.family_name() + " model?)");
  if (!r.info->dtype && !r.info->ggml_type)
    throw ModelError(io::quoted_excerpt(r.info->name) + ": dtype " + io::quoted_excerpt(r.info->dtype_name) +
                     (gguf_ ? " is a ggml type attnviz does not read (F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0 and "
                              "Q2_K to Q6_K are)"
                            : " is not supported (F32, F16 and BF16 are; quantized safetensors weights are not)"));
  if (r.info->shape != shape)
    throw ModelError(io::quoted_excerpt(r.info->name) + ": shape " + shape_text(r.info->shape) + (gguf_ ? ", but the metadata implies " : ", but config.json implies ") +
                     shape_text(shape));
  return r;
}

}  // namespace attn::hf
