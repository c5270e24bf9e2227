// A stage's row or column labels (token names, or dimension indices). Every
// head's stages carry the same token labels, and an incremental recompute
// copies the whole trace, so labels are shared, read-only, and copied only
// when replaced: a copy of a trace then costs a pointer per label list
// rather than a string per token (at 512 tokens, about 100 stages × 512).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attn {

class Labels {
 public:
  using const_iterator = std::vector<std::string>::const_iterator;

  Labels() = default;
  Labels(std::vector<std::string> v)  // NOLINT: implicit on purpose, labels are made as vectors
      : v_(std::make_shared<const std::vector<std::string>>(std::move(v))) {}

  const std::vector<std::string>& vec() const { return v_ ? *v_ : none(); }
  operator const std::vector<std::string>&() const { return vec(); }  // NOLINT: reads as the vector it is

  std::size_t size() const { return vec().size(); }
  bool empty() const { return vec().empty(); }
  const std::string& operator[](std::size_t i) const { return vec()[i]; }
  const std::string& at(std::size_t i) const { return vec().at(i); }
  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }

  bool operator==(const Labels& o) const { return v_ == o.v_ || vec() == o.vec(); }
  bool operator!=(const Labels& o) const { return !(*this == o); }
  bool operator==(const std::vector<std::string>& o) const { return vec() == o; }
  bool operator!=(const std::vector<std::string>& o) const { return vec() != o; }

 private:
  static const std::vector<std::string>& none() {
    static const std::vector<std::string> nothing;
    return nothing;
  }
  std::shared_ptr<const std::vector<std::string>> v_;
};

}  // namespace attn
