// Shape memory: every input matrix of a scenario is visited under a key
// that says what its positions mean ("heads[1].w_q"; W_O's rows are blocks
// of d_v per head, so its key carries d_v), and merged into a slot that
// grows to the largest extents seen.
#include "model/document/shape_memory.hpp"

#include <algorithm>
#include <type_traits>

namespace model::edit {
namespace {

using attn::Mat;
using attn::Scenario;

Mat mask_as_mat(const attn::BoolMat& b) { return b.cast<double>(); }

Mat padding_as_mat(const std::vector<bool>& p) {
  Mat m(1, static_cast<Eigen::Index>(p.size()));
  for (size_t j = 0; j < p.size(); ++j) m(0, static_cast<Eigen::Index>(j)) = p[j] ? 1.0 : 0.0;
  return m;
}

// Calls f(key, matrix) for every numeric input of s. With a writable
// scenario the matrices are writable too; masks and padding are visited as
// 0/1 matrices and written back as flags.
template <class S, class F>
void for_each_matrix(S& s, F&& f) {
  constexpr bool writable = !std::is_const_v<S>;
  f("x", s.x);
  if (s.context) f("context", *s.context);
  for (size_t h = 0; h < s.heads.size(); ++h) {
    const std::string p = "heads[" + std::to_string(h) + "].";
    f(p + "w_q", s.heads[h].w_q);
    f(p + "w_k", s.heads[h].w_k);
    f(p + "w_v", s.heads[h].w_v);
  }
  for (size_t h = 0; h < s.additive.size(); ++h) {
    const std::string p = "additive[" + std::to_string(h) + "].";
    f(p + "w", s.additive[h].w);
    f(p + "u", s.additive[h].u);
    Mat v = s.additive[h].v;
    f(p + "v", v);
    if constexpr (writable) s.additive[h].v = v.col(0);
  }
  if (s.w_o) {
    const int d_v = s.heads.empty() ? static_cast<int>(s.keys_source().cols()) : static_cast<int>(s.heads[0].w_v.cols());
    f("w_o/" + std::to_string(d_v), *s.w_o);
  }
  if (s.custom_mask.size() != 0) {
    Mat m = mask_as_mat(s.custom_mask);
    f("custom_mask", m);
    if constexpr (writable) s.custom_mask = m.array() != 0.0;
  }
  if (!s.key_padding.empty()) {
    Mat m = padding_as_mat(s.key_padding);
    f("key_padding", m);
    if constexpr (writable)
      for (size_t j = 0; j < s.key_padding.size(); ++j) s.key_padding[j] = m(0, static_cast<Eigen::Index>(j)) != 0.0;
  }
}

}  // namespace

void ShapeMemory::remember(const Scenario& s) {
  for_each_matrix(s, [&](const std::string& key, const Mat& m) {
    Slot& slot = mats_[key];
    const Eigen::Index rows = std::max(slot.values.rows(), m.rows()), cols = std::max(slot.values.cols(), m.cols());
    if (rows != slot.values.rows() || cols != slot.values.cols()) {
      Slot grown{Mat::Zero(rows, cols), attn::BoolMat::Constant(rows, cols, false)};
      grown.values.topLeftCorner(slot.values.rows(), slot.values.cols()) = slot.values;
      grown.known.topLeftCorner(slot.known.rows(), slot.known.cols()) = slot.known;
      slot = std::move(grown);
    }
    slot.values.topLeftCorner(m.rows(), m.cols()) = m;
    slot.known.topLeftCorner(m.rows(), m.cols()).setConstant(true);
  });
  auto keep_labels = [&](const char* key, const std::vector<std::string>& now) {
    std::vector<std::string>& mem = labels_[key];
    if (mem.size() < now.size()) mem.resize(now.size());
    std::copy(now.begin(), now.end(), mem.begin());
  };
  keep_labels("tokens", s.tokens);
  keep_labels("context_tokens", s.context_tokens);
}

void ShapeMemory::restore(const Scenario& before, Scenario& after) const {
  std::map<std::string, std::pair<Eigen::Index, Eigen::Index>> old_extent;
  for_each_matrix(before, [&](const std::string& key, const Mat& m) { old_extent[key] = {m.rows(), m.cols()}; });
  for_each_matrix(after, [&](const std::string& key, Mat& m) {
    const auto slot = mats_.find(key);
    if (slot == mats_.end()) return;
    const auto old = old_extent.find(key);
    const Eigen::Index old_rows = old == old_extent.end() ? 0 : old->second.first;
    const Eigen::Index old_cols = old == old_extent.end() ? 0 : old->second.second;
    const Slot& s = slot->second;
    for (Eigen::Index c = 0; c < std::min(m.cols(), s.values.cols()); ++c)
      for (Eigen::Index r = 0; r < std::min(m.rows(), s.values.rows()); ++r)
        if ((r >= old_rows || c >= old_cols) && s.known(r, c)) m(r, c) = s.values(r, c);
  });
  auto restore_labels = [&](const char* key, const std::vector<std::string>& old, std::vector<std::string>& now) {
    const auto mem = labels_.find(key);
    if (mem == labels_.end()) return;
    for (size_t i = old.size(); i < now.size() && i < mem->second.size(); ++i)
      if (!mem->second[i].empty()) now[i] = mem->second[i];
  };
  restore_labels("tokens", before.tokens, after.tokens);
  restore_labels("context_tokens", before.context_tokens, after.context_tokens);
}

void ShapeMemory::forget_token_rows() {
  for (const char* key : {"x", "context", "custom_mask", "key_padding"}) mats_.erase(key);
  labels_.clear();
}

void ShapeMemory::clear() {
  mats_.clear();
  labels_.clear();
}

}  // namespace model::edit
