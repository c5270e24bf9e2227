// libFuzzer target for the trained-model format: parse -> forward pass ->
// save -> reload, asserting the round trip. Any input must either be refused
// with a FormatError or survive every step with identical predictions; a
// crash, a sanitizer report or a failed assertion is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_model: %s\n", what);
    std::abort();
  }
}

// Keeps each input fast: the fuzzer is after logic, not size.
bool small_enough(const attn::train::ModelConfig& c) {
  return c.d_model <= 64 && c.n_layers <= 4 && c.seq_len <= 64 && c.vocab <= 64;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  attn::io::ModelFile file;
  try {
    file = attn::io::parse_model(text);
  } catch (const attn::io::FormatError&) {
    return 0;  // refused with a message: fine
  }
  if (!small_enough(file.model.config)) return 0;
  // A forward pass over the first tokens: finite logits for finite weights.
  std::vector<int> tokens;
  for (int t = 0; t < file.model.config.seq_len; ++t) tokens.push_back(t % file.model.config.vocab);
  const attn::Mat logits = attn::train::forward(file.model, tokens).logits;
  // Save and reload: the same weights, exactly, and so the same logits.
  const attn::io::ModelFile again = attn::io::parse_model(attn::io::model_to_json(file).dump());
  const attn::Mat logits_again = attn::train::forward(again.model, tokens).logits;
  for (Eigen::Index r = 0; r < logits.rows(); ++r)
    for (Eigen::Index c = 0; c < logits.cols(); ++c)
      require(logits(r, c) == logits_again(r, c) || (std::isnan(logits(r, c)) && std::isnan(logits_again(r, c))),
              "save and reload changed a prediction");
  require(again.steps == file.steps && again.config.seed == file.config.seed, "save and reload changed the settings");
  return 0;
}
