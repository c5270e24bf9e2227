// The scenario set and lookup shared by the invariant suites; see
// invariant_cases.hpp. Seeds are fixed so failures reproduce exactly.
#include "invariant_cases.hpp"

#include <stdexcept>

namespace inv {

const attn::Stage& stage(const attn::Trace& t, attn::StageKind id, int head) {
  const attn::Stage* s = t.find(id, head);
  if (!s) throw std::out_of_range("missing stage " + attn::to_string(id) + " head " + std::to_string(head));
  return *s;
}

std::vector<ref::CaseSpec> masked_cases() {
  using attn::MaskKind;
  std::vector<ref::CaseSpec> out;
  unsigned seed = 500;
  for (int variant = 0; variant < 6; ++variant) {
    ref::CaseSpec c;
    c.n_q = 5, c.n_heads = 2, c.d_out = 3, c.seed = ++seed;
    switch (variant) {
      case 0: c.name = "no mask"; break;
      case 1: c.name = "causal", c.mask = MaskKind::Causal; break;
      case 2: c.name = "padding", c.padding = ref::PaddingKind::LastKey; break;
      case 3: c.name = "custom", c.mask = MaskKind::Custom; break;
      case 4: c.name = "custom full row", c.mask = MaskKind::Custom, c.full_row = true; break;
      default: c.name = "all keys padded", c.padding = ref::PaddingKind::AllKeys; break;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace inv
