// popen-based runner for python_reader.hpp.
#include "python_reader.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace attn::test {
std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

PythonResult run_python(const std::string& script, const std::vector<std::string>& args) {
  PythonResult r;
  // Debian's python sees Debian's numpy; a python3 earlier on PATH may not.
  const char* python = "/usr/bin/python3";
  if (::access(python, X_OK) != 0) {
    r.skip_reason = "/usr/bin/python3 is not installed";
    return r;
  }
  std::string command = std::string(python) + " -c " + shell_quote(script);
  for (const std::string& a : args) command += " " + shell_quote(a);
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed for: " + command);
  std::string out;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int raw = ::pclose(pipe);
  r.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
  size_t start = 0;
  while (start < out.size()) {
    const size_t end = out.find('\n', start);
    r.lines.push_back(out.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (r.status == 77) {
    r.skip_reason = r.lines.empty() ? "a Python module is missing" : r.lines.front();
    return r;
  }
  r.ran = true;
  return r;
}

double parse_double(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw std::runtime_error("not a number: \"" + text + "\"");
  return v;
}

}  // namespace attn::test
