// The rotary inverse frequencies a config asks for (rope_frequencies.hpp):
// the plain base, and the llama3 and yarn scalings, each read from its own
// keys so a misspelled one is named rather than ignored.
#include "checkpoint/rope_frequencies.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "attn/hf/model_error.hpp"
#include "checkpoint/config_reader.hpp"
#include "json/bounded_json.hpp"

namespace attn::hf::detail {

namespace {

using nlohmann::json;

// The keys each type reads (besides its name and theta), as transformers
// defines them; anything else in the object is refused by name.
const std::map<std::string, std::set<std::string>>& keys_of_type() {
  static const std::map<std::string, std::set<std::string>> keys = {
      {"default", {}},
      {"linear", {"factor"}},
      {"dynamic", {"factor", "original_max_position_embeddings"}},
      {"yarn",
       {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow", "mscale",
        "mscale_all_dim", "truncate"}},
      {"llama3", {"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}},
  };
  return keys;
}

// A stretch of the context beyond 10^6 or below 1 is no trained model's:
// a factor of 1e-308 made every angle infinite and every weight NaN.
double factor_of(const ConfigReader& r) {
  const double f = r.positive("factor");
  if (f < 1 || f > 1e6) r.refuse("factor", "must be from 1 to 1e6");
  return f;
}

void apply_llama3(const ConfigReader& r, std::vector<double>& inv) {
  const double factor = factor_of(r);
  const double low = r.positive("low_freq_factor"), high = r.positive("high_freq_factor");
  const double context = r.positive("original_max_position_embeddings");
  if (high <= low) r.fail("rope high_freq_factor must exceed low_freq_factor");
  // Wavelengths longer than context / low are slowed by `factor`, shorter
  // than context / high kept, and those between blended linearly in the
  // ratio of the context to the wavelength.
  const double low_wavelen = context / low, high_wavelen = context / high;
  const double pi = std::acos(-1.0);
  for (double& f : inv) {
    const double wavelen = 2 * pi / f;
    if (wavelen > low_wavelen) {
      f /= factor;
    } else if (wavelen >= high_wavelen) {
      const double smooth = (context / wavelen - low) / (high - low);
      f = (1 - smooth) * f / factor + smooth * f;
    }
  }
}

// YaRN (Peng et al. 2023): pairs that turn fewer than beta_slow times over
// the original context are interpolated (divided by factor), pairs that turn
// more than beta_fast times are kept, and a linear ramp over the pair index
// blends those between; cos and sin are then scaled by the attention factor.
double apply_yarn(const ConfigReader& r, int max_positions, double theta, int head_dim, std::vector<double>& inv) {
  double original = max_positions;
  if (r.has("original_max_position_embeddings"))
    original = r.positive("original_max_position_embeddings");
  else
    r.note("rope original_max_position_embeddings is not given: max_position_embeddings (" +
           std::to_string(max_positions) + ") is used");
  const double factor = r.has("factor") ? factor_of(r) : max_positions / original;
  if (!(factor >= 1 && factor <= 1e6)) r.fail("rope factor max_position_embeddings / original = " + std::to_string(factor) + " must be from 1 to 1e6");
  const auto mscale = [](double scale, double m) { return scale <= 1 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; };
  // As transformers reads these (Python's `or`): a 0 counts as left out.
  const auto given = [&](const char* key) {
    return r.has(key) && !(r.at(key).is_number() && r.at(key).get<double>() == 0.0);
  };
  double attention = 0;
  if (given("attention_factor")) {
    attention = r.positive("attention_factor");
    if (attention > 100) r.refuse("attention_factor", "must be at most 100");
  } else if (given("mscale") && given("mscale_all_dim")) {
    // DeepSeek's form: the ratio of two such factors.
    attention = mscale(factor, r.positive("mscale")) / mscale(factor, r.positive("mscale_all_dim"));
  } else {
    attention = mscale(factor, 1);
  }
  const double fast = given("beta_fast") ? r.positive("beta_fast") : 32;
  const double slow = given("beta_slow") ? r.positive("beta_slow") : 1;
  const bool truncate = r.boolean_or("truncate", true);
  const double pi = std::acos(-1.0);
  const auto correction_dim = [&](double rotations) {
    return head_dim * std::log(original / (rotations * 2 * pi)) / (2 * std::log(theta));
  };
  double lo = correction_dim(fast), hi = correction_dim(slow);
  if (truncate) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
  }
  lo = std::max(lo, 0.0);
  hi = std::min(hi, static_cast<double>(head_dim - 1));
  if (lo == hi) hi += 0.001;  // as transformers: a ramp of zero width would divide by zero
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - lo) / (hi - lo), 0.0, 1.0);
    const double keep = 1 - ramp;  // the share of the original (extrapolated) frequency
    inv[i] = inv[i] / factor * (1 - keep) + inv[i] * keep;
  }
  return attention;
}

// The object that holds the RoPE settings, and the theta beside it.
struct Source {
  const json* params = nullptr;  // rope_parameters or rope_scaling, or none
  std::string where;             // its key, for messages
  double theta = 10000;
};

Source find_source(const json& c, std::vector<std::string>& notes) {
  ConfigReader top(c, "", notes);
  Source s;
  const bool has_params = top.has("rope_parameters"), has_scaling = top.has("rope_scaling");
  if (has_params) {
    const json& p = c.at("rope_parameters");
    if (!p.is_object()) top.refuse("rope_parameters", "must be an object");
    for (const auto& [key, value] : p.items())
      if (value.is_object())
        top.fail("rope_parameters." + key + " holds settings per kind of layer, which these model families do not use");
    s.params = &p;
    s.where = "rope_parameters";
    ConfigReader pr(p, s.where, notes);
    const bool inner_theta = pr.has("rope_theta");
    if (inner_theta) s.theta = pr.positive("rope_theta");
    if (top.has("rope_theta")) {
      const double outer = top.positive("rope_theta");
      if (inner_theta && outer != s.theta)
        top.fail("\"rope_theta\" = " + json(outer).dump() + " disagrees with rope_parameters.rope_theta = " +
                 json(s.theta).dump());
      s.theta = outer;
    } else if (!inner_theta) {
      top.note("rope_theta is not given: 10000 (the RoPE paper's base) is used");
    }
    if (has_scaling) {
      const json& legacy = c.at("rope_scaling");
      const auto type_in = [](const json& o) {
        for (const char* k : {"rope_type", "type"})
          if (o.is_object() && o.contains(k) && o[k].is_string()) return o[k].get<std::string>();
        return std::string("default");
      };
      if (type_in(legacy) != type_in(p))
        top.fail("\"rope_scaling\" (" + type_in(legacy) + ") disagrees with rope_parameters (" + type_in(p) + ")");
    }
    return s;
  }
  s.theta = top.positive_or("rope_theta", 10000, "10000 (the RoPE paper's base) is used");
  if (has_scaling) {
    const json& legacy = c.at("rope_scaling");
    if (!legacy.is_object()) top.refuse("rope_scaling", "must be an object or null");
    s.params = &legacy;
    s.where = "rope_scaling";
  }
  return s;
}

}  // namespace

RopeSettings read_rope(const json& c, int head_dim, int max_positions, std::vector<std::string>& notes) {
  const Source src = find_source(c, notes);
  RopeSettings out;
  out.theta = src.theta;
  if (!(out.theta > 1 && out.theta <= 1e12))
    throw ModelError("config.json: rope_theta = " + json(out.theta).dump() + " must be above 1 and at most 1e12");
  const json empty = json::object();
  const ConfigReader r(src.params ? *src.params : empty, src.where, notes);
  ConfigReader top(c, "", notes);
  if (top.has("partial_rotary_factor") && !(c.at("partial_rotary_factor").is_number() && c.at("partial_rotary_factor").get<double>() == 1.0))
    top.refuse("partial_rotary_factor", "rotating only part of each head is not implemented for this family");
  for (const char* key : {"rope_type", "type"})
    if (r.has(key)) out.type = r.string_or(key, "default");
  const auto& known = keys_of_type();
  const auto type_keys = known.find(out.type);
  if (type_keys == known.end())
    throw ModelError("config.json: " + src.where + " type " + describe_json(json(out.type)) +
                     " is not implemented (default, linear, dynamic, yarn and llama3 are)");
  for (const auto& [key, value] : r.json().items()) {
    if (key == "rope_type" || key == "type" || key == "rope_theta" || value.is_null()) continue;
    if (key == "partial_rotary_factor") {
      if (value.is_number() && value.get<double>() == 1.0) continue;
      r.refuse("partial_rotary_factor", "rotating only part of each head is not implemented for this family");
    }
    if (!type_keys->second.count(key))
      r.fail(src.where + "." + key + " is not a setting of RoPE type \"" + out.type +
             "\", so the forward would ignore it; remove it or fix the type");
  }
  out.inv_freq.resize(static_cast<std::size_t>(head_dim / 2));
  for (std::size_t i = 0; i < out.inv_freq.size(); ++i)
    out.inv_freq[i] = 1.0 / std::pow(out.theta, static_cast<double>(2 * i) / head_dim);
  if (out.type == "linear") {
    const double factor = factor_of(r);
    for (double& f : out.inv_freq) f /= factor;
  } else if (out.type == "llama3") {
    apply_llama3(r, out.inv_freq);
  } else if (out.type == "yarn") {
    out.attention_factor = apply_yarn(r, max_positions, out.theta, head_dim, out.inv_freq);
  } else if (out.type == "dynamic") {
    factor_of(r);
    // Dynamic NTK raises the base only for texts longer than
    // max_position_embeddings, and no longer text is run.
    notes.push_back("RoPE type \"dynamic\" keeps the base up to max_position_embeddings (" +
                    std::to_string(max_positions) + " tokens), the longest text this model is given");
  }
  for (double f : out.inv_freq)
    if (!std::isfinite(f) || f <= 0) throw ModelError("config.json: the RoPE settings give a frequency that is not a positive number");
  return out;
}

}  // namespace attn::hf::detail
