// `attn model attention` (attention_export.hpp).
#include "model/attention_export.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "arrays/array_formats.hpp"
#include "arrays/array_store.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "cli_error.hpp"
#include "model/model_files.hpp"
#include "interrupt_guard.hpp"
#include "output_file.hpp"
#include "output_guard.hpp"

namespace attn::cli {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

int number_in(const std::string& item, const std::string& option) {
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(item, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != item.size() || v < 0 || v > 1'000'000)
    throw CliError(option + ": \"" + item + "\" is not a number (give them as 0,2-4)");
  return static_cast<int>(v);
}

void append_matrix(ArrayStore& store, const std::string& name, const RowMajor& m) {
  store.append(name, m.data(), static_cast<std::size_t>(m.size()));
}

}  // namespace

std::vector<int> parse_selection(const std::string& text, int count, const std::string& option, const std::string& unit) {
  std::set<int> chosen;
  if (text.empty()) {
    for (int i = 0; i < count; ++i) chosen.insert(i);
    return {chosen.begin(), chosen.end()};
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t dash = item.find('-', 1);
    const int lo = number_in(dash == std::string::npos ? item : item.substr(0, dash), option);
    const int hi = dash == std::string::npos ? lo : number_in(item.substr(dash + 1), option);
    if (hi < lo) throw CliError(option + ": \"" + item + "\" runs backwards");
    if (hi >= count)
      throw CliError(option + ": " + std::to_string(hi) + " is out of range (the model has " + std::to_string(count) + " " +
                     unit + ", 0 to " + std::to_string(count - 1) + ")");
    for (int i = lo; i <= hi; ++i) chosen.insert(i);
    start = comma + 1;
  }
  return {chosen.begin(), chosen.end()};
}

int run_attention_export(const AttentionExportOptions& o) {
  ArrayFormat format = array_format_for(o.out);
  if (!o.format.empty()) {
    const auto named = array_format_named(o.format);
    if (!named) throw CliError("--format: \"" + o.format + "\" is not json, npz or safetensors");
    format = *named;
  }
  if (o.dtype != "f32" && o.dtype != "f64") throw CliError("--dtype: \"" + o.dtype + "\" is not f32 or f64");
  const ElementType type = o.dtype == "f32" ? ElementType::F32 : ElementType::F64;
  const OpenedModel m = open_model(o.in, true);
  refuse_output_over_input("-o", o.out, model_files(*m.checkpoint));
  const hf::ModelConfig& c = m.checkpoint->config();
  const std::vector<int> layers = parse_selection(o.layers, c.n_layers, "--layers", "layers");
  const std::vector<int> heads = parse_selection(o.heads, c.n_heads, "--heads", "heads");
  if (o.logits && !c.causal) throw CliError("--logits: " + c.family_name() + " has no next-token head");
  const auto n = static_cast<std::int64_t>(m.ids.size());
  const auto L = static_cast<std::int64_t>(layers.size()), H = static_cast<std::int64_t>(heads.size());

  // Scratch data beside the output (the same disk), or in the temporary
  // folder when the output is written in place (standard output, /dev/...).
  const std::filesystem::path scratch =
      writes_in_place(o.out) ? std::filesystem::temp_directory_path() : std::filesystem::path(o.out).parent_path();
  ArrayStore store(scratch, o.out == "-" ? "standard output" : o.out);
  store.tokens = m.tokens;
  store.metadata = {{"model_type", c.model_type}, {"layers", layers}, {"heads", heads}};
  store.declare("ids", ElementType::I64, {n});
  store.append_ints("ids", std::vector<std::int64_t>(m.ids.begin(), m.ids.end()));
  store.declare("attentions", type, {L, H, n, n});
  if (o.residuals) store.declare("residuals", type, {L, n, c.d_model});
  if (o.head_outputs) store.declare("head_outputs", type, {L, H, n, c.head_dim});
  if (o.residuals) store.declare("final", type, {n, c.d_model});
  if (o.logits) store.declare("logits", type, {n, c.vocab});

  const InterruptGuard interrupt;  // Ctrl-C cleans up the scratch files and the temporary
  hf::ForwardOptions fo;
  fo.progress = [](int) { return !InterruptGuard::interrupted(); };
  fo.keep_details = o.residuals || o.head_outputs;
  // Without the final state or the logits, nothing after the last chosen layer is needed.
  if (!o.residuals && !o.logits) fo.stop_after_layer = layers.back();
  const hf::LayerSink<double> sink = [&](int l, hf::LayerRecord<double>& rec) {
    if (std::binary_search(layers.begin(), layers.end(), l)) {
      for (int h : heads) {
        const auto& map = rec.attentions[static_cast<std::size_t>(h)];
        store.append("attentions", map.data(), static_cast<std::size_t>(map.size()));
      }
      if (o.residuals) append_matrix(store, "residuals", rec.input);
      if (o.head_outputs)
        for (int h : heads) append_matrix(store, "head_outputs", rec.head_outputs[static_cast<std::size_t>(h)]);
    }
    rec = hf::LayerRecord<double>();  // written: one layer in memory at a time
  };
  try {
    const hf::ForwardResult<double> r = hf::run_forward<double>(*m.checkpoint, m.ids, fo, sink);
    InterruptGuard::check();
    if (o.residuals) append_matrix(store, "final", r.final);
    if (o.logits) {
      const hf::MatX<double> logits = hf::all_logits<double>(*m.checkpoint, r);
      for (Eigen::Index i = 0; i < logits.rows(); ++i) append_matrix(store, "logits", logits.row(i));
    }
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  write_arrays(store, format, o.out);
  return kExitOk;
}

}  // namespace attn::cli
