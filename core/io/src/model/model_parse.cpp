// Reads the "attnviz-model" version 1 format (see model_file.hpp). The
// settings come first and are checked on their own (ranges) and together
// (validate_task, validate_config); only then is every weight read against
// the shape those settings imply, and the total size is bounded before any
// matrix is copied, so a file claiming a huge model is refused cheaply.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "json/field_path.hpp"
#include "files/file_io.hpp"
#include "json/format_header.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"
#include "lesson/task_field.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

// A toy model for teaching. validate_config's limits keep every valid model
// below this (about 31 million weights at most); the check stays so a file
// can never make us read more, should those limits grow.
constexpr long long kMaxParameters = 1LL << 25;

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw FormatError(path + ": " + problem);
}

const json& object_field(const json& parent, const std::string& path, const char* key) {
  const std::string p = path_key(path, key);
  const auto it = parent.find(key);
  if (it == parent.end()) fail(p, "missing");
  if (!it->is_object()) fail(p, "expected an object, got " + describe(*it));
  return *it;
}

const json& field(const json& obj, const std::string& path, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(path_key(path, key), "missing");
  return *it;
}

long long read_whole(const json& j, const std::string& path, long long lo, long long hi) {
  const bool whole = j.is_number_integer() || j.is_number_unsigned() ||
                     (j.is_number_float() && std::isfinite(j.get<double>()) &&
                      std::floor(j.get<double>()) == j.get<double>());
  if (!whole) fail(path, "expected a whole number, got " + describe(j));
  const double v = j.get<double>();
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    fail(path, "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + j.dump());
  }
  return j.is_number_float() ? static_cast<long long>(v) : j.get<long long>();
}

int read_int(const json& obj, const std::string& path, const char* key, int lo, int hi) {
  return static_cast<int>(read_whole(field(obj, path, key), path_key(path, key), lo, hi));
}

bool read_bool(const json& j, const std::string& path) {
  if (!j.is_boolean()) fail(path, "expected true or false, got " + describe(j));
  return j.get<bool>();
}

// A finite number in (lo, hi) or [lo, hi) when lo_inclusive.
double read_real(const json& obj, const std::string& path, const char* key, double lo, double hi, bool lo_inclusive) {
  const json& j = field(obj, path, key);
  const std::string p = path_key(path, key);
  if (!j.is_number() || !std::isfinite(j.get<double>())) fail(p, "expected a number, got " + describe(j));
  const double v = j.get<double>();
  const bool above = lo_inclusive ? v >= lo : v > lo;
  if (!above || !(v < hi)) {
    fail(p, "expected a number " + std::string(lo_inclusive ? "from " : "above ") + json(lo).dump() + " and below " +
                json(hi).dump() + ", got " + j.dump());
  }
  return v;
}

train::TaskSpec read_task(const json& doc) {
  const json& t = object_field(doc, "", "task");
  only_keys(t, "task", {"name", "vocab", "length", "random_offset"});
  train::TaskSpec task;
  task.kind = read_task_name(field(t, "task", "name"), "task.name");
  task.vocab = read_int(t, "task", "vocab", 1, 1 << 16);
  task.length = read_int(t, "task", "length", 1, 1 << 14);
  if (t.contains("random_offset")) task.random_offset = read_bool(t["random_offset"], "task.random_offset");
  const std::string problem = train::validate_task(task);
  if (!problem.empty()) throw FormatError("task." + problem);
  return task;
}

train::ModelConfig read_model_config(const json& doc, const train::TaskSpec& task) {
  const json& m = object_field(doc, "", "model");
  only_keys(m, "model", {"vocab", "seq_len", "d_model", "n_heads", "n_layers", "positions", "mlp", "d_mlp"});
  train::ModelConfig c;
  c.vocab = read_int(m, "model", "vocab", 1, 1 << 17);
  c.seq_len = read_int(m, "model", "seq_len", 1, 1 << 16);
  if (c.vocab != train::model_vocab(task)) {
    fail("model.vocab", "expected " + std::to_string(train::model_vocab(task)) + " (the task's symbols and markers), got " +
                            std::to_string(c.vocab));
  }
  if (c.seq_len != train::sequence_length(task)) {
    fail("model.seq_len", "expected " + std::to_string(train::sequence_length(task)) + " (the task's sequence length), got " +
                              std::to_string(c.seq_len));
  }
  c.d_model = read_int(m, "model", "d_model", 1, 4096);
  c.n_heads = read_int(m, "model", "n_heads", 1, 64);
  c.n_layers = read_int(m, "model", "n_layers", 1, 64);
  c.learned_positions = read_choice<bool>(field(m, "model", "positions"), "model.positions",
                                          {{"learned", true}, {"sinusoidal", false}});
  c.mlp = read_bool(field(m, "model", "mlp"), "model.mlp");
  if (m.contains("d_mlp")) c.d_mlp = read_int(m, "model", "d_mlp", 0, 1 << 16);
  const std::string problem = train::validate_config(c);
  if (!problem.empty()) throw FormatError("model." + problem);
  return c;
}

int effective_d_mlp(const train::ModelConfig& c) { return c.mlp ? (c.d_mlp > 0 ? c.d_mlp : 4 * c.d_model) : 0; }

// Counted in long long from ints bounded above, so it cannot overflow.
void check_size(const train::ModelConfig& c) {
  const long long d = c.d_model, d_mlp = effective_d_mlp(c);
  const long long per_layer = 4 * d * d + 2 * d * d_mlp + d_mlp + d;
  const long long total = 2 * c.vocab * d + c.seq_len * d + c.n_layers * per_layer;
  if (total > kMaxParameters) {
    fail("model", "too large: " + std::to_string(total) + " weights (models are limited to " +
                      std::to_string(kMaxParameters) + ")");
  }
}

void read_training(const json& doc, ModelFile& f) {
  const json& t = object_field(doc, "", "training");
  only_keys(t, "training", {"batch", "learning_rate", "beta1", "beta2", "epsilon", "seed", "held_out", "steps"});
  train::TrainConfig& c = f.config;
  c.batch = read_int(t, "training", "batch", 1, 1 << 16);
  c.learning_rate = read_real(t, "training", "learning_rate", 0, 1e3, false);
  if (t.contains("beta1")) c.beta1 = read_real(t, "training", "beta1", 0, 1, true);
  if (t.contains("beta2")) c.beta2 = read_real(t, "training", "beta2", 0, 1, true);
  if (t.contains("epsilon")) c.epsilon = read_real(t, "training", "epsilon", 0, 1, false);
  const json& seed = field(t, "training", "seed");
  if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<long long>() >= 0)) {
    fail("training.seed", "expected a whole number from 0 to " + std::to_string(UINT64_MAX) + ", got " + describe(seed));
  }
  c.seed = seed.get<std::uint64_t>();
  if (t.contains("held_out")) c.held_out = read_int(t, "training", "held_out", 1, 1 << 20);
  f.steps = read_int(t, "training", "steps", 0, 2000000000);
}

// Shape first, with a message in the model's terms, then the cells
// (ragged rows, non-numbers, NaN) through the shared matrix reader.
Mat read_shaped(const json& parent, const std::string& parent_path, const char* key, int rows, int cols,
                const char* meaning) {
  const json& j = field(parent, parent_path, key);
  const std::string path = path_key(parent_path, key);
  const std::string shape = std::to_string(rows) + "×" + std::to_string(cols) + " (" + meaning + ")";
  if (!j.is_array()) fail(path, "expected a " + shape + " array of numbers, got " + describe(j));
  if (static_cast<long long>(j.size()) != rows) {
    fail(path, "expected " + std::to_string(rows) + " rows for " + shape + ", got " + std::to_string(j.size()));
  }
  if (j[0].is_array() && static_cast<long long>(j[0].size()) != cols) {
    fail(path_index(path, 0), "expected " + std::to_string(cols) + " numbers for " + shape + ", got " +
                                  std::to_string(j[0].size()));
  }
  return read_matrix(j, path, rows, cols);
}

Vec read_shaped_vector(const json& parent, const std::string& parent_path, const char* key, int len) {
  const json& j = field(parent, parent_path, key);
  const std::string path = path_key(parent_path, key);
  if (j.is_array() && static_cast<long long>(j.size()) != len) {
    fail(path, "expected " + std::to_string(len) + " numbers, got " + std::to_string(j.size()));
  }
  return read_vector(j, path, len);
}

const json& array_of(const json& parent, const std::string& parent_path, const char* key, int count, const char* what) {
  const json& j = field(parent, parent_path, key);
  const std::string path = path_key(parent_path, key);
  if (!j.is_array()) fail(path, std::string("expected an array with one object per ") + what + ", got " + describe(j));
  if (static_cast<long long>(j.size()) != count) {
    fail(path, "expected " + std::to_string(count) + " " + what + (count == 1 ? "" : "s") + ", got " + std::to_string(j.size()));
  }
  return j;
}

train::LayerParams read_layer(const json& j, const std::string& path, const train::ModelConfig& c) {
  if (!j.is_object()) fail(path, "expected an object with \"heads\" and \"w_o\", got " + describe(j));
  if (c.mlp) {
    only_keys(j, path, {"heads", "w_o", "mlp_in", "mlp_in_bias", "mlp_out", "mlp_out_bias"});
  } else {
    only_keys(j, path, {"heads", "w_o"});  // MLP weights in a model without one are a mix-up
  }
  const int d_k = c.d_model / c.n_heads, d_mlp = effective_d_mlp(c);
  train::LayerParams l;
  const json& heads = array_of(j, path, "heads", c.n_heads, "head");
  for (std::size_t h = 0; h < heads.size(); ++h) {
    const std::string hp = path_index(path_key(path, "heads"), h);
    if (!heads[h].is_object()) fail(hp, "expected an object with \"w_q\", \"w_k\" and \"w_v\", got " + describe(heads[h]));
    only_keys(heads[h], hp, {"w_q", "w_k", "w_v"});
    HeadWeights w;
    w.w_q = read_shaped(heads[h], hp, "w_q", c.d_model, d_k, "d_model × d_k");
    w.w_k = read_shaped(heads[h], hp, "w_k", c.d_model, d_k, "d_model × d_k");
    w.w_v = read_shaped(heads[h], hp, "w_v", c.d_model, d_k, "d_model × d_v");
    l.heads.push_back(std::move(w));
  }
  l.w_o = read_shaped(j, path, "w_o", c.n_heads * d_k, c.d_model, "heads × d_v by d_model");
  if (c.mlp) {
    l.mlp_in = read_shaped(j, path, "mlp_in", c.d_model, d_mlp, "d_model × d_mlp");
    l.mlp_in_bias = read_shaped_vector(j, path, "mlp_in_bias", d_mlp);
    l.mlp_out = read_shaped(j, path, "mlp_out", d_mlp, c.d_model, "d_mlp × d_model");
    l.mlp_out_bias = read_shaped_vector(j, path, "mlp_out_bias", c.d_model);
  }
  return l;
}

train::Model read_weights(const json& doc, const train::ModelConfig& c) {
  const json& w = object_field(doc, "", "weights");
  only_keys(w, "weights", {"embed", "positions", "layers", "unembed"});
  train::Model m;
  m.config = c;
  m.embed = read_shaped(w, "weights", "embed", c.vocab, c.d_model, "vocab × d_model");
  if (c.learned_positions || w.contains("positions")) {
    m.positions = read_shaped(w, "weights", "positions", c.seq_len, c.d_model, "seq_len × d_model");
  } else {
    m.positions = train::init_model(c, 0).positions;  // the fixed table, for hand-written files
  }
  const json& layers = array_of(w, "weights", "layers", c.n_layers, "layer");
  for (std::size_t i = 0; i < layers.size(); ++i) m.layers.push_back(read_layer(layers[i], path_index("weights.layers", i), c));
  m.unembed = read_shaped(w, "weights", "unembed", c.d_model, c.vocab, "d_model × vocab");
  return m;
}

}  // namespace

ModelFile parse_model(const std::string& text) {
  const json doc = parse_json_text(text, kModelKind);
  if (!doc.is_object()) throw FormatError("expected a JSON object at the top level, got " + describe(doc));
  check_format_header(doc, "attnviz-model", 1, "model");
  only_keys(doc, "", {"format", "version", "title", "description", "task", "model", "training", "weights"});
  ModelFile f;
  f.config.task = read_task(doc);
  f.config.model = read_model_config(doc, f.config.task);
  check_size(f.config.model);
  read_training(doc, f);
  const std::string problem = train::validate_train_config(f.config);
  if (!problem.empty()) throw FormatError(problem);
  f.model = read_weights(doc, f.config.model);
  // Weights that overflow in the forward pass are refused here, once for
  // every program, as a scenario that overflows is.
  if (const std::string overflow = train::forward_overflow(f.model, f.config.task); !overflow.empty())
    throw FormatError("weights: " + overflow);
  return f;
}

ModelFile load_model(const std::string& path) {
  try {
    return parse_model(read_text_file(path, kModelKind));
  } catch (const FormatError& e) {
    throw FormatError(path + ": " + e.what());
  }
}

}  // namespace attn::io
