// Every stage of the core trace against the independent plain-loop reference,
// over a table of named cases and a seeded sweep of option combinations.
// Tolerance: 1e-12 on |got - want| / max(1, |want|) (absolute below 1,
// relative above); -inf must meet -inf exactly.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "compare.hpp"
#include "random_scenario.hpp"
#include "reference.hpp"

using attn::MaskKind;
using attn::MaskMode;
using attn::Positional;
using attn::ScaleMode;
using attn::ScoreFn;
using attn::SoftmaxAxis;
using ref::CaseSpec;
using ref::PaddingKind;

namespace {

constexpr double kReferenceTol = 1e-12;

// Largest element error seen over all cases, reported as the tolerance margin.
double g_worst_seen = 0;

// Runs one case; returns the problems found (validation, compute, stages).
std::vector<std::string> run_case(const CaseSpec& c) {
  const attn::Scenario s = ref::make_scenario(c);
  const std::string invalid = attn::validate(s);
  if (!invalid.empty()) return {"scenario rejected: " + invalid};
  try {
    return ref::compare_traces(attn::compute_trace(s), ref::reference_trace(s), kReferenceTol, &g_worst_seen);
  } catch (const std::exception& e) {
    return {std::string("compute_trace threw: ") + e.what()};
  }
}

CaseSpec named(const std::string& name) {
  CaseSpec c;
  c.name = name;
  return c;
}

std::vector<CaseSpec> table() {
  std::vector<CaseSpec> t;
  auto push = [&](CaseSpec c) {
    c.seed = static_cast<unsigned>(t.size() + 11);
    t.push_back(c);
  };
  CaseSpec c = named("basic self, no heads");
  push(c);
  c = named("basic, 5 tokens of width 3");
  c.n_q = 5, c.d_model = 3;
  push(c);
  c = named("one head 4x3");
  c.n_heads = 1;
  push(c);
  c = named("two heads, d_k != d_v, W_O");
  c.n_heads = 2, c.d_k = 2, c.d_v = 5, c.d_out = 4;
  push(c);
  c = named("three heads, W_O");
  c.n_heads = 3, c.d_k = 2, c.d_v = 3, c.d_out = 4, c.n_q = 4;
  push(c);
  c = named("three heads, W_O with a bias");
  c.n_heads = 3, c.d_k = 2, c.d_v = 3, c.d_out = 4, c.n_q = 4, c.output_bias = true;
  push(c);
  for (MaskMode mode : {MaskMode::BeforeSoftmax, MaskMode::AfterSoftmax}) {
    const std::string m = mode == MaskMode::BeforeSoftmax ? " (before)" : " (after)";
    c = named("causal" + m);
    c.mask = MaskKind::Causal, c.mode = mode, c.n_heads = 2, c.n_q = 4;
    push(c);
    c = named("key padding" + m);
    c.padding = PaddingKind::LastKey, c.mode = mode, c.n_heads = 1, c.n_q = 4;
    push(c);
    c = named("custom" + m);
    c.mask = MaskKind::Custom, c.mode = mode, c.n_heads = 2, c.n_q = 5, c.d_out = 3;
    push(c);
    c = named("custom, fully masked row" + m);
    c.mask = MaskKind::Custom, c.full_row = true, c.mode = mode, c.n_heads = 1;
    push(c);
    c = named("every key padded" + m);
    c.padding = PaddingKind::AllKeys, c.mode = mode;
    push(c);
    c = named("causal + padding, cross" + m);
    c.mask = MaskKind::Causal, c.padding = PaddingKind::LastKey, c.mode = mode, c.cross = true;
    c.n_q = 4, c.n_k = 3, c.d_ctx = 5, c.n_heads = 2;
    push(c);
  }
  c = named("scale none");
  c.scale = ScaleMode::None, c.n_heads = 1;
  push(c);
  c = named("temperature 0.5");
  c.scale = ScaleMode::Temperature, c.temperature = 0.5, c.n_heads = 2;
  push(c);
  c = named("temperature 3");
  c.scale = ScaleMode::Temperature, c.temperature = 3.0;
  push(c);
  c = named("soft cap 0.6, two heads, causal");
  c.softcap = 0.6, c.n_heads = 2, c.mask = MaskKind::Causal, c.n_q = 5, c.d_out = 3;
  push(c);
  c = named("soft cap 0.4, temperature 0.5, alibi");
  c.softcap = 0.4, c.scale = ScaleMode::Temperature, c.temperature = 0.5, c.positional = Positional::Alibi;
  c.n_heads = 1, c.n_q = 4;
  push(c);
  c = named("soft cap 0.5, queries axis, mask after");
  c.softcap = 0.5, c.axis = SoftmaxAxis::Queries, c.mask = MaskKind::Causal, c.mode = MaskMode::AfterSoftmax;
  push(c);
  c = named("additive, default params");
  c.score = ScoreFn::Additive;
  push(c);
  c = named("additive, two heads with params");
  c.score = ScoreFn::Additive, c.d_att = 5, c.n_heads = 2, c.d_out = 2;
  push(c);
  c = named("additive, temperature, causal");
  c.score = ScoreFn::Additive, c.scale = ScaleMode::Temperature, c.temperature = 0.7;
  c.mask = MaskKind::Causal, c.n_heads = 1, c.d_att = 2;
  push(c);
  c = named("sinusoidal, odd width");
  c.positional = Positional::Sinusoidal, c.n_q = 6, c.d_model = 5;
  push(c);
  c = named("sinusoidal, cross with own width");
  c.positional = Positional::Sinusoidal, c.cross = true, c.n_q = 3, c.n_k = 5;
  c.d_model = 6, c.d_ctx = 3, c.n_heads = 2;
  push(c);
  c = named("alibi, one head");
  c.positional = Positional::Alibi, c.n_q = 5;
  push(c);
  c = named("alibi, three heads, causal");
  c.positional = Positional::Alibi, c.n_heads = 3, c.mask = MaskKind::Causal, c.n_q = 5;
  push(c);
  c = named("alibi, cross n_q != n_k");
  c.positional = Positional::Alibi, c.cross = true, c.n_q = 2, c.n_k = 5, c.n_heads = 2;
  push(c);
  c = named("queries axis, no mask");
  c.axis = SoftmaxAxis::Queries, c.n_heads = 1;
  push(c);
  c = named("queries axis, causal (before)");
  c.axis = SoftmaxAxis::Queries, c.mask = MaskKind::Causal, c.n_q = 4;
  push(c);
  c = named("queries axis, causal (after)");
  c.axis = SoftmaxAxis::Queries, c.mask = MaskKind::Causal, c.mode = MaskMode::AfterSoftmax;
  push(c);
  c = named("queries axis, padded key = fully masked column");
  c.axis = SoftmaxAxis::Queries, c.padding = PaddingKind::LastKey, c.n_heads = 2;
  push(c);
  c = named("cross, no heads");
  c.cross = true, c.n_q = 2, c.n_k = 5;
  push(c);
  c = named("cross, two heads, W_O");
  c.cross = true, c.n_q = 3, c.n_k = 4, c.d_model = 4, c.d_ctx = 6, c.n_heads = 2;
  c.d_k = 3, c.d_v = 2, c.d_out = 3;
  push(c);
  c = named("cross, one query");
  c.cross = true, c.n_q = 1, c.n_k = 3, c.d_model = 3, c.d_ctx = 3;
  push(c);
  c = named("everything at once");
  c.cross = true, c.n_q = 4, c.n_k = 6, c.d_model = 5, c.d_ctx = 3, c.n_heads = 3, c.d_k = 2;
  c.d_v = 4, c.d_out = 2, c.mask = MaskKind::Custom, c.padding = PaddingKind::LastKey;
  c.mode = MaskMode::AfterSoftmax, c.scale = ScaleMode::Temperature, c.temperature = 1.5;
  c.score = ScoreFn::Additive, c.d_att = 3, c.positional = Positional::Sinusoidal;
  c.axis = SoftmaxAxis::Queries;
  push(c);
  return t;
}

}  // namespace

TEST_CASE("reference: every stage of each table case matches at 1e-12") {
  for (const CaseSpec& c : table()) {
    const auto problems = run_case(c);
    INFO(ref::describe(c));
    for (const auto& p : problems) FAIL_CHECK(p);
    CHECK(problems.empty());
  }
  MESSAGE(table().size() << " table cases; largest element error " << g_worst_seen << " (tolerance " << kReferenceTol << ")");
}

TEST_CASE("reference: seeded sweep over masks, modes, scales, scores, positions, axes, layouts") {
  struct Layout {
    const char* name;
    int n_q, n_k, d_model, d_ctx, d_k, d_v, n_heads, d_out;
    bool cross;
  };
  const Layout layouts[] = {{"basic self", 4, 4, 4, 4, 4, 4, 0, 0, false},
                            {"basic cross", 3, 5, 4, 4, 4, 4, 0, 0, true},
                            {"one head", 4, 4, 5, 5, 3, 2, 1, 0, false},
                            {"three heads cross W_O", 3, 4, 4, 6, 2, 3, 3, 5, true}};
  struct MaskCase {
    MaskKind kind;
    bool full_row;
    PaddingKind padding;
  };
  const MaskCase masks[] = {{MaskKind::None, false, PaddingKind::None},
                            {MaskKind::Causal, false, PaddingKind::None},
                            {MaskKind::Custom, false, PaddingKind::None},
                            {MaskKind::Custom, true, PaddingKind::LastKey},
                            {MaskKind::None, false, PaddingKind::LastKey},
                            {MaskKind::Causal, false, PaddingKind::LastKey}};
  int failures = 0, cases = 0;
  unsigned seed = 1000;
  for (const Layout& l : layouts)
    for (const MaskCase& m : masks)
      for (MaskMode mode : {MaskMode::BeforeSoftmax, MaskMode::AfterSoftmax})
        for (ScaleMode scale : {ScaleMode::SqrtDk, ScaleMode::None, ScaleMode::Temperature})
          for (int score = 0; score < 3; ++score)
            for (Positional pos : {Positional::None, Positional::Sinusoidal, Positional::Alibi})
              for (SoftmaxAxis axis : {SoftmaxAxis::Keys, SoftmaxAxis::Queries}) {
                CaseSpec c = named(std::string("sweep: ") + l.name);
                c.n_q = l.n_q, c.n_k = l.n_k, c.d_model = l.d_model, c.d_ctx = l.d_ctx;
                c.d_k = l.d_k, c.d_v = l.d_v, c.n_heads = l.n_heads, c.d_out = l.d_out;
                c.cross = l.cross, c.mask = m.kind, c.full_row = m.full_row;
                c.padding = m.padding, c.mode = mode, c.scale = scale, c.temperature = 0.8;
                c.score = score == 0 ? ScoreFn::Dot : ScoreFn::Additive;
                c.d_att = score == 2 ? 3 : 0;
                c.positional = pos, c.axis = axis, c.seed = ++seed;
                c.output_bias = seed % 2 == 0;  // half the W_O layouts carry b_O
                c.softcap = seed % 3 == 0 ? 0.7 : 0;  // a third cap their scaled scores
                ++cases;
                const auto problems = run_case(c);
                if (problems.empty()) continue;
                if (++failures <= 20) {
                  std::string all = ref::describe(c);
                  for (const auto& p : problems) all += "\n    " + p;
                  FAIL_CHECK(all);
                }
              }
  MESSAGE(cases << " sweep cases, " << failures << " failing; largest element error so far " << g_worst_seen);
  CHECK(failures == 0);
}

// 600 tokens make three row blocks of the softmax-times-V pass (256, 256 and
// 88 rows), which skips the columns a mask blocks for a whole block. Each
// mask below leaves a different corner blocked: causal (the skip grows
// block by block), padded keys (every block skips the same tail), a block
// whose rows are all fully masked (nothing left to multiply), and causal
// with ALiBi (a bias under the mask).
TEST_CASE("masks over several row blocks: the skipped blocked columns change no stage beyond 1e-12") {
  struct BlockCase {
    const char* name;
    MaskKind mask;
    Positional positional;
    int padded_keys;  // the last this many keys blocked
    double softcap;   // Gemma 2's cap, applied inside the fused pass
  };
  const BlockCase cases[] = {{"causal", MaskKind::Causal, Positional::None, 0, 0},
                             {"last 350 keys padded", MaskKind::None, Positional::None, 350, 0},
                             {"custom: rows 256-511 fully masked, rows 0-255 see 100 keys", MaskKind::Custom,
                              Positional::None, 0, 0},
                             {"causal with ALiBi", MaskKind::Causal, Positional::Alibi, 0, 0},
                             {"causal with a soft cap of 0.5", MaskKind::Causal, Positional::None, 0, 0.5}};
  for (const BlockCase& bc : cases) {
    CaseSpec c = named(bc.name);
    c.n_q = 600, c.d_model = 12, c.n_heads = 2, c.d_k = 6, c.d_v = 5, c.d_out = 7;
    c.mask = bc.mask, c.positional = bc.positional, c.softcap = bc.softcap, c.seed = 4242;
    attn::Scenario s = ref::make_scenario(c);
    if (bc.padded_keys) {
      s.key_padding.assign(600, false);
      for (int j = 600 - bc.padded_keys; j < 600; ++j) s.key_padding[static_cast<size_t>(j)] = true;
    }
    if (bc.mask == MaskKind::Custom) {
      s.custom_mask = attn::BoolMat::Constant(600, 600, false);
      s.custom_mask.block(256, 0, 256, 600).setConstant(true);
      s.custom_mask.block(0, 100, 256, 500).setConstant(true);
    }
    INFO(bc.name);
    REQUIRE(attn::validate(s) == "");
    double worst = 0;
    const auto problems = ref::compare_traces(attn::compute_trace(s), ref::reference_trace(s), kReferenceTol, &worst);
    for (const std::string& p : problems) FAIL_CHECK(p);
    CHECK(problems.empty());
  }
}
