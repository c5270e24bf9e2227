// An environment variable set for one scope (and the programs started in
// it), put back as it was when the scope ends. Header-only, for any test.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace test_support {

struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old) setenv(name.c_str(), old->c_str(), 1);
    else unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

}  // namespace test_support
