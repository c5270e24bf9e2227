#include "checkpoint/rope_frequencies.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "attn/hf/model_error.hpp"

namespace attn::hf::detail {

namespace {

double scaling_number(const nlohmann::json& s, const char* key) {
  auto it = s.find(key);
  if (it == s.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0)
    throw ModelError(std::string("config.json: rope_scaling needs a positive number \"") + key + "\"");
  return it->get<double>();
}

// Llama 3.1: wavelengths longer than the original context / low_freq_factor
// are slowed by `factor`, shorter than / high_freq_factor kept, and those
// between blended linearly in the ratio of the context to the wavelength.
void apply_llama3(const nlohmann::json& s, std::vector<double>& inv) {
  const double factor = scaling_number(s, "factor");
  const double low = scaling_number(s, "low_freq_factor");
  const double high = scaling_number(s, "high_freq_factor");
  const double context = scaling_number(s, "original_max_position_embeddings");
  if (high <= low) throw ModelError("config.json: rope_scaling high_freq_factor must exceed low_freq_factor");
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

}  // namespace

std::vector<double> rope_inverse_frequencies(const nlohmann::json& config, int head_dim, double theta) {
  std::vector<double> inv(static_cast<std::size_t>(head_dim / 2));
  for (std::size_t i = 0; i < inv.size(); ++i)
    inv[i] = 1.0 / std::pow(theta, static_cast<double>(2 * i) / head_dim);
  auto it = config.find("rope_scaling");
  if (it == config.end() || it->is_null()) return inv;
  if (!it->is_object()) throw ModelError("config.json: rope_scaling must be an object or null");
  std::string type;
  for (const char* key : {"rope_type", "type"})
    if (it->contains(key) && (*it)[key].is_string()) type = (*it)[key].get<std::string>();
  if (type == "default" || type.empty()) return inv;
  if (type == "linear") {
    const double factor = scaling_number(*it, "factor");
    for (double& f : inv) f /= factor;
    return inv;
  }
  if (type == "llama3") {
    apply_llama3(*it, inv);
    return inv;
  }
  throw ModelError("config.json: rope_scaling type \"" + type + "\" is not supported (default, linear, llama3)");
}

}  // namespace attn::hf::detail
