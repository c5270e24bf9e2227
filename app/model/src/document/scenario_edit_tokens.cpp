// Token and mask edits: inserting, removing, renaming and resizing token
// sequences keeps each label, mask row/column and padding flag with its
// token; painting a cell switches to a custom mask seeded from what is
// blocked now, so painting refines the mask the student already sees.
#include <algorithm>

#include "attn/compute/masks.hpp"
#include "scenario_edit_detail.hpp"

namespace model::edit {
namespace {

using attn::Mat;
using attn::Scenario;
using namespace detail;

void resize_tokens(Scenario& s, Sequence which, int n, int at_removed, int at_inserted) {
  // Mask and padding follow the query rows and the key rows (keys are X's
  // rows in self-attention, the context's rows in cross-attention).
  const bool rows_change = which == Sequence::Queries;
  const bool cols_change = which == Sequence::Context || !s.context;
  auto remap = [&](int old_n, int new_index) -> int {  // new index -> old index or -1
    if (at_removed >= 0) return new_index >= at_removed ? new_index + 1 : new_index;
    if (at_inserted >= 0) return new_index == at_inserted ? -1 : new_index > at_inserted ? new_index - 1 : new_index;
    return new_index < old_n ? new_index : -1;
  };
  if (s.custom_mask.size() != 0) {
    const attn::BoolMat& old = s.custom_mask;
    const int rows = rows_change ? n : static_cast<int>(old.rows());
    const int cols = cols_change ? n : static_cast<int>(old.cols());
    attn::BoolMat out = attn::BoolMat::Constant(rows, cols, false);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const int oi = rows_change ? remap(static_cast<int>(old.rows()), i) : i;
        const int oj = cols_change ? remap(static_cast<int>(old.cols()), j) : j;
        if (oi >= 0 && oj >= 0 && oi < old.rows() && oj < old.cols()) out(i, j) = old(oi, oj);
      }
    s.custom_mask = out;
  }
  if (cols_change && !s.key_padding.empty()) {
    std::vector<bool> out(static_cast<size_t>(n), false);
    for (int j = 0; j < n; ++j) {
      const int oj = remap(static_cast<int>(s.key_padding.size()), j);
      if (oj >= 0 && oj < static_cast<int>(s.key_padding.size())) out[static_cast<size_t>(j)] = s.key_padding[static_cast<size_t>(oj)];
    }
    s.key_padding = out;
  }
}

std::vector<std::string>& labels_of(Scenario& s, Sequence which) {
  return which == Sequence::Queries ? s.tokens : s.context_tokens;
}

Mat& matrix_of(Scenario& s, Sequence which) { return which == Sequence::Queries ? s.x : *s.context; }

std::string default_label(Sequence which, int i) { return (which == Sequence::Queries ? "t" : "c") + std::to_string(i); }

// Makes labels explicit so insertions and removals keep each name on its row.
void materialise_labels(Scenario& s, Sequence which) {
  std::vector<std::string>& labels = labels_of(s, which);
  const int n = n_tokens(s, which);
  if (static_cast<int>(labels.size()) == n) return;
  labels.clear();
  for (int i = 0; i < n; ++i) labels.push_back(default_label(which, i));
}

}  // namespace

using attn::Mat;
using attn::Scenario;
using namespace detail;

void set_n_tokens(Scenario& s, Sequence which, int n) {
  if (n < 1 || (which == Sequence::Context && !s.context)) return;
  Mat& m = matrix_of(s, which);
  m = resized(m, n, static_cast<int>(m.cols()), kFillSeed, which == Sequence::Queries ? kX : kContext);
  std::vector<std::string>& labels = labels_of(s, which);
  if (!labels.empty()) {
    const int old = static_cast<int>(labels.size());
    labels.resize(static_cast<size_t>(n));
    for (int i = old; i < n; ++i) labels[static_cast<size_t>(i)] = default_label(which, i);
  }
  resize_tokens(s, which, n, -1, -1);
}

void insert_token(Scenario& s, Sequence which, int at, const std::string& name) {
  if (which == Sequence::Context && !s.context) return;
  materialise_labels(s, which);
  Mat& m = matrix_of(s, which);
  const int n = static_cast<int>(m.rows());
  at = std::clamp(at, 0, n);
  Mat out(n + 1, m.cols());
  for (int r = 0, src = 0; r <= n; ++r) {
    if (r == at) {
      for (int c = 0; c < m.cols(); ++c)
        out(r, c) = seeded_value(kFillSeed, which == Sequence::Queries ? kX : kContext, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(c));
    } else {
      out.row(r) = m.row(src++);
    }
  }
  m = out;
  std::vector<std::string>& labels = labels_of(s, which);
  labels.insert(labels.begin() + at, name.empty() ? default_label(which, n) : name);
  resize_tokens(s, which, n + 1, -1, at);
}

void remove_token(Scenario& s, Sequence which, int index) {
  if (which == Sequence::Context && !s.context) return;
  Mat& m = matrix_of(s, which);
  const int n = static_cast<int>(m.rows());
  if (n <= 1 || index < 0 || index >= n) return;
  materialise_labels(s, which);
  Mat out(n - 1, m.cols());
  for (int r = 0, dst = 0; r < n; ++r)
    if (r != index) out.row(dst++) = m.row(r);
  m = out;
  std::vector<std::string>& labels = labels_of(s, which);
  labels.erase(labels.begin() + index);
  resize_tokens(s, which, n - 1, index, -1);
}

void rename_token(Scenario& s, Sequence which, int index, const std::string& name) {
  if (index < 0 || index >= n_tokens(s, which)) return;
  materialise_labels(s, which);
  labels_of(s, which)[static_cast<size_t>(index)] = name;
}

namespace {

// The mask's own rule (attn/compute/masks.hpp) without the key padding, which stays apart.
bool kind_blocks(const Scenario& s, int i, int j) {
  if (s.mask == attn::MaskKind::Custom) return i < s.custom_mask.rows() && j < s.custom_mask.cols() && s.custom_mask(i, j);
  Scenario rule;
  rule.mask = s.mask, rule.window = s.window, rule.sinks = s.sinks, rule.stride = s.stride;
  return attn::mask_blocks(rule, i, j);
}

}  // namespace

bool effective_blocked(const Scenario& s, int i, int j) {
  if (j < static_cast<int>(s.key_padding.size()) && s.key_padding[static_cast<size_t>(j)]) return true;
  return kind_blocks(s, i, j);
}

void set_mask_kind(Scenario& s, attn::MaskKind kind) {
  if (kind == attn::MaskKind::Custom && s.mask != attn::MaskKind::Custom) {
    const int n_q = static_cast<int>(s.x.rows()), n_k = static_cast<int>(s.keys_source().rows());
    attn::BoolMat m(n_q, n_k);
    for (int i = 0; i < n_q; ++i)
      for (int j = 0; j < n_k; ++j) m(i, j) = kind_blocks(s, i, j);
    s.custom_mask = m;
  }
  if (kind == attn::MaskKind::SlidingWindow && s.window < 1) s.window = 4;
  if (kind == attn::MaskKind::Strided && s.stride < 1) s.stride = 3;
  s.mask = kind;
}

void set_blocked(Scenario& s, int i, int j, bool blocked) {
  set_mask_kind(s, attn::MaskKind::Custom);
  if (i >= 0 && j >= 0 && i < s.custom_mask.rows() && j < s.custom_mask.cols()) s.custom_mask(i, j) = blocked;
}

void set_key_padding(Scenario& s, int j, bool blocked) {
  const int n_k = static_cast<int>(s.keys_source().rows());
  if (j < 0 || j >= n_k) return;
  if (s.key_padding.empty()) s.key_padding.assign(static_cast<size_t>(n_k), false);
  s.key_padding[static_cast<size_t>(j)] = blocked;
  if (std::none_of(s.key_padding.begin(), s.key_padding.end(), [](bool b) { return b; })) s.key_padding.clear();
}

}  // namespace model::edit
