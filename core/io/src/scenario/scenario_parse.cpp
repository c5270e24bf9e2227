// Reads the published "attnviz-scenario" format (versions 1 and 2; 2 adds
// RoPE, grouped-query attention and the sliding-window and strided masks)
// into a Scenario.
// Each field is checked on its own here (types, rectangular matrices, finite
// numbers, size limits); shapes that relate fields to each other are left to
// attn::validate so the app and the CLI share one set of rules.
#include <algorithm>
#include <cmath>
#include <string>

#include "attn/io/excerpt.hpp"
#include "attn/io/scenario_file.hpp"
#include "json/field_path.hpp"
#include "files/file_io.hpp"
#include "json/format_header.hpp"
#include "json/json_fields.hpp"
#include "json/json_text.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw FormatError(path + ": " + problem);
}

const json* member(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json& require_member(const json& obj, const std::string& path, const char* key,
                           const char* what) {
  const json* v = member(obj, key);
  if (!v) fail(path_key(path, key), std::string("missing (") + what + ")");
  return *v;
}

HeadWeights read_head(const json& j, const std::string& path, const Limits& lim) {
  if (!j.is_object()) {
    fail(path, "expected an object with \"w_q\", \"w_k\" and \"w_v\", got " + describe(j));
  }
  HeadWeights h;
  h.w_q = read_matrix(require_member(j, path, "w_q", "d_model×d_k array"), path_key(path, "w_q"),
                      lim.max_width, lim.max_width);
  // A head that shares its group's keys and values (n_kv_heads) has neither;
  // whether each head needs them is checked once the count is read.
  if (const json* w = member(j, "w_k")) h.w_k = read_matrix(*w, path_key(path, "w_k"), lim.max_width, lim.max_width);
  if (const json* w = member(j, "w_v")) h.w_v = read_matrix(*w, path_key(path, "w_v"), lim.max_width, lim.max_width);
  only_keys(j, path, {"w_q", "w_k", "w_v"});
  return h;
}

AdditiveParams read_additive(const json& j, const std::string& path, const Limits& lim) {
  if (!j.is_object()) {
    fail(path, "expected an object with \"w\", \"u\" and \"v\", got " + describe(j));
  }
  AdditiveParams a;
  a.w = read_matrix(require_member(j, path, "w", "d_k×d_att array"), path_key(path, "w"),
                    lim.max_width, lim.max_width);
  a.u = read_matrix(require_member(j, path, "u", "d_k×d_att array"), path_key(path, "u"),
                    lim.max_width, lim.max_width);
  a.v = read_vector(require_member(j, path, "v", "d_att numbers"), path_key(path, "v"),
                    lim.max_width);
  return a;
}

// An array of per-head objects, refused by count before any is read.
template <typename T, typename ReadOne>
std::vector<T> read_per_head(const json& j, const std::string& path, const Limits& lim,
                             ReadOne read_one) {
  if (!j.is_array()) fail(path, "expected an array with one object per head, got " + describe(j));
  if (static_cast<long long>(j.size()) > lim.max_heads) {
    fail(path, "expected 1 to " + std::to_string(lim.max_heads) + " heads, got " + std::to_string(j.size()));
  }
  std::vector<T> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(read_one(j[i], path_index(path, i), lim));
  return out;
}

void read_scale(const json& j, Scenario& s) {
  if (j.is_number()) {
    const double t = j.get<double>();
    if (!(t > 0.0)) fail("scale", "must be positive, got " + j.dump());
    s.scale = ScaleMode::Temperature;
    s.temperature = t;
    return;
  }
  if (j.is_string()) {
    const auto& name = j.get_ref<const std::string&>();
    if (name == "sqrt_dk") {
      s.scale = ScaleMode::SqrtDk;
      return;
    }
    if (name == "none") {
      s.scale = ScaleMode::None;
      return;
    }
    fail("scale", "unknown scale " + quoted_excerpt(name) +
                      " (expected \"sqrt_dk\", \"none\" or a positive number)");
  }
  fail("scale", "expected \"sqrt_dk\", \"none\" or a positive number, got " + describe(j));
}

// {"kind": "sliding_window", "window": w, "sinks": s} or {"kind": "strided", "stride": l}.
void read_mask_object(const json& j, Scenario& s, const Limits& lim) {
  const int most = static_cast<int>(std::min<long long>(lim.max_tokens, 1 << 30));
  s.mask = read_choice<MaskKind>(require_member(j, "mask", "kind", "\"sliding_window\" or \"strided\""), "mask.kind",
                                 {{"sliding_window", MaskKind::SlidingWindow}, {"strided", MaskKind::Strided}});
  if (s.mask == MaskKind::SlidingWindow) {
    only_keys(j, "mask", {"kind", "window", "sinks"});
    s.window = read_int(require_member(j, "mask", "window", "the keys each query sees, itself included"),
                        "mask.window", 0, most);
    if (const json* v = member(j, "sinks")) s.sinks = read_int(*v, "mask.sinks", 0, most);
  } else {
    only_keys(j, "mask", {"kind", "stride"});
    s.stride = read_int(require_member(j, "mask", "stride", "the local width and the stride"), "mask.stride", 0, most);
  }
}

void read_rope(const json& j, Scenario& s) {
  if (j.is_boolean()) {
    s.rope.on = j.get<bool>();
    return;
  }
  if (!j.is_object()) fail("rope", "expected an object such as {\"base\": 10000} or true, got " + describe(j));
  only_keys(j, "rope", {"base", "fraction", "pairing", "offset", "frequencies"});
  s.rope.on = true;
  if (const json* v = member(j, "base")) s.rope.base = read_number(*v, "rope.base");
  if (const json* v = member(j, "fraction")) s.rope.fraction = read_number(*v, "rope.fraction");
  if (const json* v = member(j, "pairing"))
    s.rope.pairing = read_choice<RopePairing>(*v, "rope.pairing",
                                              {{"half", RopePairing::Half}, {"interleaved", RopePairing::Interleaved}});
  if (const json* v = member(j, "offset")) s.rope.offset = read_int(*v, "rope.offset", 0, 100000000);
  if (const json* v = member(j, "frequencies")) {
    if (!v->is_array() || v->size() > 65536) fail("rope.frequencies", "expected an array of numbers, one per rotated pair");
    for (std::size_t i = 0; i < v->size(); ++i)
      s.rope.frequencies.push_back(read_number((*v)[i], "rope.frequencies[" + std::to_string(i) + "]"));
  }
}

// Each head that carries its group's keys and values has both.
void check_head_kv(const Scenario& s) {
  const Dims d = dims_of(s);
  for (std::size_t i = 0; i < s.heads.size(); ++i) {
    if (d.shares_kv(static_cast<int>(i))) continue;
    const std::string path = path_index("heads", i);
    if (s.heads[i].w_k.size() == 0) fail(path_key(path, "w_k"), "missing (d_ctx×d_k array)");
    if (s.heads[i].w_v.size() == 0) fail(path_key(path, "w_v"), "missing (d_ctx×d_v array)");
  }
}

void read_mask(const json& j, Scenario& s, const Limits& lim) {
  if (j.is_object()) {
    read_mask_object(j, s, lim);
    return;
  }
  if (j.is_array()) {
    s.mask = MaskKind::Custom;
    s.custom_mask = read_flag_matrix(j, "mask", lim.max_tokens, lim.max_tokens);
    return;
  }
  if (j.is_string() && j.get_ref<const std::string&>() == "none") {
    s.mask = MaskKind::None;
    return;
  }
  if (j.is_string() && j.get_ref<const std::string&>() == "causal") {
    s.mask = MaskKind::Causal;
    return;
  }
  const std::string expected =
      "(expected \"none\", \"causal\", an n×m array, or an object such as {\"kind\": \"sliding_window\", \"window\": 4})";
  if (j.is_string()) fail("mask", "unknown mask kind " + quoted_excerpt(j.get_ref<const std::string&>()) + " " + expected);
  fail("mask", "expected a mask kind or an n×m array of 0/1, got " + describe(j) + " " + expected);
}

void read_options(const json& doc, Scenario& s, const Limits& lim) {
  if (const json* v = member(doc, "scale")) read_scale(*v, s);
  if (const json* v = member(doc, "softcap")) {
    if (!v->is_number() || !(v->get<double>() > 0) || !std::isfinite(v->get<double>()))
      fail("softcap", "expected a positive number (the cap c in c·tanh(scaled / c)), got " + describe(*v));
    s.softcap = v->get<double>();
  }
  if (const json* v = member(doc, "mask")) read_mask(*v, s, lim);
  if (const json* v = member(doc, "key_padding")) s.key_padding = read_flags(*v, "key_padding", lim.max_tokens);
  if (const json* v = member(doc, "mask_mode")) {
    s.mask_mode = read_choice<MaskMode>(
        *v, "mask_mode",
        {{"before_softmax", MaskMode::BeforeSoftmax}, {"after_softmax", MaskMode::AfterSoftmax}});
  }
  if (const json* v = member(doc, "score")) {
    s.score = read_choice<ScoreFn>(*v, "score", {{"dot", ScoreFn::Dot}, {"additive", ScoreFn::Additive}});
  }
  if (const json* v = member(doc, "additive")) {
    s.additive = read_per_head<AdditiveParams>(*v, "additive", lim, read_additive);
  }
  if (const json* v = member(doc, "positional")) {
    s.positional = read_choice<Positional>(
        *v, "positional",
        {{"none", Positional::None}, {"sinusoidal", Positional::Sinusoidal}, {"alibi", Positional::Alibi}});
  }
  if (const json* v = member(doc, "softmax_axis")) {
    s.softmax_axis = read_choice<SoftmaxAxis>(
        *v, "softmax_axis", {{"keys", SoftmaxAxis::Keys}, {"queries", SoftmaxAxis::Queries}});
  }
  if (const json* v = member(doc, "rope")) read_rope(*v, s);
  if (const json* v = member(doc, "n_kv_heads"))
    s.n_kv_heads = read_int(*v, "n_kv_heads", 1, static_cast<int>(std::min<long long>(lim.max_heads, 1 << 30)));
}

void read_numbers(const json& doc, Scenario& s, const Limits& lim) {
  s.x = read_matrix(require_member(doc, "", "x", "required n×d_model array of numbers"), "x",
                    lim.max_tokens, lim.max_width);
  if (const json* v = member(doc, "tokens")) s.tokens = read_labels(*v, "tokens", lim.max_tokens);
  if (const json* v = member(doc, "context")) {
    s.context = read_matrix(*v, "context", lim.max_tokens, lim.max_width);
  }
  if (const json* v = member(doc, "context_tokens")) {
    s.context_tokens = read_labels(*v, "context_tokens", lim.max_tokens);
  }
  if (const json* v = member(doc, "heads")) {
    // An empty list is not an absent key: say which one was meant.
    if (v->is_array() && v->empty())
      fail("heads", "an empty list; give one {\"w_q\", \"w_k\", \"w_v\"} per head, or leave \"heads\" out for attention without projections");
    s.heads = read_per_head<HeadWeights>(*v, "heads", lim, read_head);
  }
  if (const json* v = member(doc, "w_o")) {
    s.w_o = read_matrix(*v, "w_o", lim.max_heads * lim.max_width, lim.max_width);
  }
  if (const json* v = member(doc, "output_bias")) {
    if (!v->is_array() || v->empty() || v->size() > static_cast<std::size_t>(lim.max_width))
      fail("output_bias", "expected an array of numbers, one per column of w_o (at most " +
                              std::to_string(lim.max_width) + "), got " + describe(*v));
    s.output_bias.resize(static_cast<Eigen::Index>(v->size()));
    for (std::size_t i = 0; i < v->size(); ++i)
      s.output_bias(static_cast<Eigen::Index>(i)) = read_number((*v)[i], "output_bias[" + std::to_string(i) + "]");
  }
}

void read_extras(const json& doc, ScenarioFile& f) {
  if (const json* v = member(doc, "title")) f.title = read_string(*v, "title");
  if (const json* v = member(doc, "description")) f.description = read_string(*v, "description");
  if (const json* v = member(doc, "attnviz")) {
    if (!v->is_object()) fail("attnviz", "expected an object (app data), got " + describe(*v));
    f.app = *v;
  }
}

void warn_unknown_keys(const json& doc, ScenarioFile& f) {
  static const char* const known[] = {
      "format", "version", "title", "description", "attnviz", "x", "tokens", "context", "context_tokens",
      "heads", "w_o", "output_bias", "scale", "softcap", "mask", "key_padding", "mask_mode", "score", "additive", "positional",
      "softmax_axis", "rope", "n_kv_heads"};
  for (const auto& item : doc.items()) {
    const bool ok = std::any_of(std::begin(known), std::end(known), [&](const char* k) { return item.key() == k; });
    if (!ok) f.warnings.push_back("unknown key " + quoted_excerpt(item.key()) + " ignored (misspelt option?)");
  }
}

}  // namespace

ScenarioFile parse_scenario(const std::string& text, const Limits& limits) {
  const json doc = parse_json_text(text, kScenarioKind);
  if (!doc.is_object()) {
    throw FormatError("expected a JSON object at the top level, got " + describe(doc));
  }
  const int version = check_format_header(doc, "attnviz-scenario", 2, "scenario", 1);
  ScenarioFile file;
  read_numbers(doc, file.scenario, limits);
  read_options(doc, file.scenario, limits);
  if (version < 2 && uses_version_2(file.scenario))
    file.warnings.push_back("version 1 has no RoPE, shared key/value heads, sliding-window and strided masks or W_O bias; "
                            "read as version 2");
  // A count that does not divide the heads is validate()'s to report.
  const Scenario& sc = file.scenario;
  const int n_kv = sc.n_kv_heads, n_heads = static_cast<int>(sc.heads.size());
  if (n_kv == 0 || (n_kv <= n_heads && n_heads % n_kv == 0)) check_head_kv(sc);
  read_extras(doc, file);
  // Unknown top-level keys still load (newer files must keep working), but
  // are reported so a misspelt option does not pass unnoticed.
  warn_unknown_keys(doc, file);
  if (member(doc, "additive") && file.scenario.score != ScoreFn::Additive)
    file.warnings.push_back("\"additive\" parameters are ignored: \"score\" is not \"additive\"");
  const std::string problem = validate(file.scenario, limits);
  if (!problem.empty()) throw FormatError(problem);
  return file;
}

ScenarioFile load_scenario(const std::string& path, const Limits& limits) {
  try {
    return parse_scenario(read_text_file(path, kScenarioKind), limits);
  } catch (const FormatError& e) {
    throw FormatError(path + ": " + e.what());
  }
}

}  // namespace attn::io
