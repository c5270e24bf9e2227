#pragma once
// The files `attn model attention` writes from an ArrayStore:
//  - json: {"format": "attnviz-model-attention", "tokens", "ids", then each
//    array as nested lists}, numbers in their shortest exact form;
//  - npz: NumPy's np.load format, a zip (through libzip) of one .npy file
//    per array, stored uncompressed as np.savez does, plus tokens.npy;
//  - safetensors: the header (shapes, dtypes, offsets, the tokens in
//    __metadata__) and the arrays' bytes, as the reader beside it expects.
#include <optional>
#include <string>

#include "arrays/array_store.hpp"

namespace attn::cli {

enum class ArrayFormat { Json, Npz, Safetensors };

std::optional<ArrayFormat> array_format_named(const std::string& name);  // "json", "npz", "safetensors"
ArrayFormat array_format_for(const std::string& path);                  // by extension; json otherwise

// Writes every array of `store` (finished here) to `path` ("-": standard
// output, not for npz), atomically (output_file.hpp).
void write_arrays(ArrayStore& store, ArrayFormat format, const std::string& path);

}  // namespace attn::cli
