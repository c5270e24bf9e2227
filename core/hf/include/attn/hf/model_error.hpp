#pragma once
// Why a checkpoint folder, one of its files or a tensor in it cannot be used.
// The message names the file or tensor and what is wrong with it, in words a
// user can act on; the app shows it as is.
#include <stdexcept>
#include <string>

namespace attn::hf {

struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace attn::hf
