// Writes a ScenarioFile back to the published format, losslessly:
// parse_scenario(scenario_to_json(f)) gives back the same scenario, title,
// description and app data. Every option is written explicitly (defaults
// included) so a saved file documents itself.
#include <cmath>

#include "attn/io/scenario_file.hpp"
#include "json/field_path.hpp"
#include "files/file_io.hpp"
#include "json/json_pretty.hpp"
#include "json/matrix_json.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

json labels_json(const std::vector<std::string>& labels) {
  json out = json::array();
  for (const std::string& l : labels) out.push_back(l);
  return out;
}

json scale_json(const Scenario& s) {
  switch (s.scale) {
    case ScaleMode::SqrtDk: return "sqrt_dk";
    case ScaleMode::None: return "none";
    case ScaleMode::Temperature:
      if (!(std::isfinite(s.temperature) && s.temperature > 0)) {
        throw FormatError("scale: the temperature must be a positive number to save it");
      }
      return s.temperature;
  }
  return "sqrt_dk";
}

json mask_json(const Scenario& s) {
  switch (s.mask) {
    case MaskKind::None: return "none";
    case MaskKind::Causal: return "causal";
    case MaskKind::Custom: return flag_rows(s.custom_mask);
    case MaskKind::SlidingWindow: return {{"kind", "sliding_window"}, {"window", s.window}, {"sinks", s.sinks}};
    case MaskKind::Strided: return {{"kind", "strided"}, {"stride", s.stride}};
  }
  return "none";
}

const char* positional_name(Positional p) {
  switch (p) {
    case Positional::None: return "none";
    case Positional::Sinusoidal: return "sinusoidal";
    case Positional::Alibi: return "alibi";
  }
  return "none";
}

void write_numbers(const Scenario& s, json& out) {
  out["x"] = finite_rows(s.x, "x");
  if (!s.tokens.empty()) out["tokens"] = labels_json(s.tokens);
  if (s.context) out["context"] = finite_rows(*s.context, "context");
  if (!s.context_tokens.empty()) out["context_tokens"] = labels_json(s.context_tokens);
  if (!s.heads.empty()) {
    json heads = json::array();
    for (std::size_t i = 0; i < s.heads.size(); ++i) {
      const HeadWeights& h = s.heads[i];
      const std::string p = path_index("heads", i);
      json head = {{"w_q", finite_rows(h.w_q, path_key(p, "w_q"))}};
      // A head that reads its group's keys and values has none to write.
      if (h.w_k.size() != 0) head["w_k"] = finite_rows(h.w_k, path_key(p, "w_k"));
      if (h.w_v.size() != 0) head["w_v"] = finite_rows(h.w_v, path_key(p, "w_v"));
      heads.push_back(std::move(head));
    }
    out["heads"] = std::move(heads);
  }
  if (s.w_o) out["w_o"] = finite_rows(*s.w_o, "w_o");
  if (s.output_bias.size() > 0) out["output_bias"] = finite_list(s.output_bias, "output_bias");
}

void write_options(const Scenario& s, json& out) {
  out["scale"] = scale_json(s);
  if (s.softcap != 0) {
    if (!(std::isfinite(s.softcap) && s.softcap > 0)) throw FormatError("softcap: must be a positive number to save it");
    out["softcap"] = s.softcap;
  }
  out["mask"] = mask_json(s);
  if (!s.key_padding.empty()) {
    json flags = json::array();
    for (bool b : s.key_padding) flags.push_back(b);
    out["key_padding"] = std::move(flags);
  }
  out["mask_mode"] = s.mask_mode == MaskMode::AfterSoftmax ? "after_softmax" : "before_softmax";
  out["score"] = s.score == ScoreFn::Additive ? "additive" : "dot";
  if (!s.additive.empty()) {
    json params = json::array();
    for (std::size_t i = 0; i < s.additive.size(); ++i) {
      const AdditiveParams& a = s.additive[i];
      const std::string p = path_index("additive", i);
      params.push_back({{"w", finite_rows(a.w, path_key(p, "w"))},
                        {"u", finite_rows(a.u, path_key(p, "u"))},
                        {"v", finite_list(a.v, path_key(p, "v"))}});
    }
    out["additive"] = std::move(params);
  }
  out["positional"] = positional_name(s.positional);
  out["softmax_axis"] = s.softmax_axis == SoftmaxAxis::Queries ? "queries" : "keys";
  if (s.rope.on) {
    if (!std::isfinite(s.rope.base) || !std::isfinite(s.rope.fraction))
      throw FormatError("rope: the base and fraction must be finite numbers to save them");
    out["rope"] = {{"base", s.rope.base},
                   {"fraction", s.rope.fraction},
                   {"pairing", s.rope.pairing == RopePairing::Interleaved ? "interleaved" : "half"},
                   {"offset", s.rope.offset}};
    if (!s.rope.frequencies.empty()) out["rope"]["frequencies"] = s.rope.frequencies;
  }
  if (s.n_kv_heads > 0) out["n_kv_heads"] = s.n_kv_heads;
}

}  // namespace

bool uses_version_2(const Scenario& s) {
  return s.rope.on || s.n_kv_heads > 0 || s.mask == MaskKind::SlidingWindow || s.mask == MaskKind::Strided ||
         s.output_bias.size() > 0 || s.softcap != 0;
}

json scenario_to_json(const ScenarioFile& file) {
  json out = json::object();
  out["format"] = "attnviz-scenario";
  out["version"] = uses_version_2(file.scenario) ? 2 : 1;
  if (!file.title.empty()) out["title"] = file.title;
  if (!file.description.empty()) out["description"] = file.description;
  write_numbers(file.scenario, out);
  write_options(file.scenario, out);
  if (!(file.app.is_object() && file.app.empty())) out["attnviz"] = file.app;
  return out;
}

void save_scenario(const std::string& path, const ScenarioFile& file) {
  write_text_file_atomically(path, pretty_json(scenario_to_json(file)));
}

}  // namespace attn::io
