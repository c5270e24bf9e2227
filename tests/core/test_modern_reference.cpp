// RoPE, grouped-query heads and the new mask kinds against the independent
// plain-loop reference (tests/core/reference), every stage, over a seeded
// sweep of their combinations with the older options. Tolerance 1e-12 on
// |got − want| / max(1, |want|); the worst element is printed on failure.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "compare.hpp"
#include "random_scenario.hpp"
#include "reference.hpp"

namespace {

constexpr double kModernTol = 1e-12;

using attn::MaskKind;
using ref::CaseSpec;

std::vector<std::string> problems_of(const CaseSpec& c) {
  const attn::Scenario s = ref::make_scenario(c);
  if (const std::string e = attn::validate(s); !e.empty()) return {"scenario rejected: " + e};
  try {
    return ref::compare_traces(attn::compute_trace(s), ref::reference_trace(s), kModernTol);
  } catch (const std::exception& e) {
    return {std::string("compute_trace threw: ") + e.what()};
  }
}

}  // namespace

TEST_CASE("modern reference: RoPE × key/value heads × masks × positions, every stage at 1e-12") {
  struct Rope {
    bool on;
    attn::RopePairing pairing;
    double fraction;
    int offset;
    double base;
  };
  const Rope ropes[] = {{false, attn::RopePairing::Half, 1, 0, 10000},
                        {true, attn::RopePairing::Half, 1, 0, 10000},
                        {true, attn::RopePairing::Interleaved, 1, 5, 500000},
                        {true, attn::RopePairing::Half, 0.5, 3, 10000},
                        {true, attn::RopePairing::Interleaved, 0.5, 0, 100}};
  struct Mask {
    MaskKind kind;
    int window, sinks, stride;
    ref::PaddingKind padding;
  };
  const Mask masks[] = {{MaskKind::None, 0, 0, 0, ref::PaddingKind::None},
                        {MaskKind::Causal, 0, 0, 0, ref::PaddingKind::None},
                        {MaskKind::SlidingWindow, 3, 0, 0, ref::PaddingKind::None},
                        {MaskKind::SlidingWindow, 2, 2, 0, ref::PaddingKind::LastKey},
                        {MaskKind::SlidingWindow, 1, 0, 0, ref::PaddingKind::None},
                        {MaskKind::Strided, 0, 0, 3, ref::PaddingKind::None},
                        {MaskKind::Strided, 0, 0, 1, ref::PaddingKind::LastKey}};
  int cases = 0, failures = 0;
  unsigned seed = 7000;
  for (const Rope& r : ropes)
    for (const Mask& m : masks)
      for (int kv : {0, 1, 2, 4})
        for (attn::Positional pos : {attn::Positional::None, attn::Positional::Alibi, attn::Positional::Sinusoidal})
          for (attn::MaskMode mode : {attn::MaskMode::BeforeSoftmax, attn::MaskMode::AfterSoftmax}) {
            CaseSpec c;
            c.name = "modern sweep";
            c.n_q = 7, c.d_model = 6, c.d_k = 4, c.d_v = 3, c.n_heads = 4, c.d_out = 5;
            c.rope = r.on, c.pairing = r.pairing, c.rope_fraction = r.fraction, c.rope_offset = r.offset;
            c.rope_base = r.base;
            c.mask = m.kind, c.window = m.window, c.sinks = m.sinks, c.stride = m.stride, c.padding = m.padding;
            c.n_kv_heads = kv, c.positional = pos, c.mode = mode, c.seed = ++seed;
            ++cases;
            const std::vector<std::string> problems = problems_of(c);
            if (problems.empty()) continue;
            if (++failures <= 10) {
              std::string all = ref::describe(c);
              for (const std::string& p : problems) all += "\n    " + p;
              FAIL_CHECK(all);
            }
          }
  MESSAGE(cases << " modern cases, " << failures << " failing");
  CHECK(failures == 0);
}

TEST_CASE("modern reference: RoPE without projections, and over several row blocks (600 tokens, GQA)") {
  CaseSpec c;
  c.name = "rope, no heads", c.n_q = 5, c.d_model = 6, c.rope = true, c.mask = MaskKind::Causal, c.seed = 91;
  for (const std::string& p : problems_of(c)) FAIL_CHECK(p);
  // Long enough for the blocked scores · V pass, which skips blocked columns.
  c = CaseSpec{};
  c.name = "600 tokens", c.n_q = 600, c.d_model = 8, c.d_k = 4, c.d_v = 3, c.n_heads = 4, c.n_kv_heads = 2;
  c.d_out = 5, c.rope = true, c.mask = MaskKind::SlidingWindow, c.window = 40, c.sinks = 4, c.seed = 92;
  const std::vector<std::string> problems = problems_of(c);
  for (const std::string& p : problems) FAIL_CHECK(p);
  CHECK(problems.empty());
}
