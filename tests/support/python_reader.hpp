// Runs a short Python script as an independent reader of exported files
// (NumPy for .npy, the csv module for CSV), so the tests do not check our
// writers with our own parsing. Reports why when Python or NumPy is missing.
#pragma once

#include <string>
#include <vector>

namespace attn::test {

struct PythonResult {
  bool ran = false;         // false: no usable Python (skip_reason says why)
  std::string skip_reason;  // e.g. "python3-numpy is not installed"
  int status = -1;
  std::vector<std::string> lines;  // stdout, one entry per line
};

// Runs /usr/bin/python3 -c `script` `args...`. Exit status 77 from the
// script means "a module is missing": the first line of output says which.
PythonResult run_python(const std::string& script, const std::vector<std::string>& args);

// `arg` in single quotes for /bin/sh (paths with spaces or quotes survive).
std::string shell_quote(const std::string& arg);

// "1.5", "-inf", "0x1p-3" ... as a double (strtod); throws on junk.
double parse_double(const std::string& text);

}  // namespace attn::test
