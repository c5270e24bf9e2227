// Status and caption text for the active animation step and for each grid.
// Numbers come from the trace and the core's explanation, never recomputed.
#include "model/animation/step_caption.hpp"

#include <algorithm>
#include "attn/text/format_number.hpp"

namespace model {
namespace {

constexpr const char* kDigits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};

std::string label_of(const std::vector<std::string>& labels, int i) {
  return i >= 0 && i < static_cast<int>(labels.size()) ? labels[static_cast<size_t>(i)] : std::to_string(i);
}

std::string products_so_far(const attn::Explanation& e, int done, int total) {
  if (e.steps.empty() || e.steps[0].terms.empty()) return {};
  const std::vector<attn::Term>& terms = e.steps[0].terms;
  std::string s;
  double sum = 0;
  const int shown = std::min(done, 4);
  for (int t = 0; t < done && t < static_cast<int>(terms.size()); ++t) {
    sum += terms[static_cast<size_t>(t)].value;
    if (t < shown)
      s += (t ? " + " : "") + attn::format_number(terms[static_cast<size_t>(t)].lhs, 3) + "×" +
           attn::format_number(terms[static_cast<size_t>(t)].rhs, 3);
  }
  if (done > shown) s += " + …";
  if (done == 0) return "0 of " + std::to_string(total) + " products added";
  s += " = " + attn::format_number(sum, 4);
  if (done < total) s += "  (" + std::to_string(done) + " of " + std::to_string(total) + " products)";
  return s;
}

std::string cell_name(const attn::Stage& s, int r, int c) {
  if (s.id == attn::StageKind::scores) return "q" + subscript(r) + " · k" + subscript(c);
  if (s.id == attn::StageKind::q || s.id == attn::StageKind::k || s.id == attn::StageKind::v)
    return "x" + subscript(r) + " · W_" + std::string(attn::info_of(s.id).symbol) + "[:," +
           std::to_string(c) + "]";
  if (s.id == attn::StageKind::head_output) return "Σⱼ a" + subscript(r) + "ⱼ v" + "ⱼ[" + std::to_string(c) + "]";
  if (s.id == attn::StageKind::output) return "concat" + subscript(r) + " · W_O[:," + std::to_string(c) + "]";
  return s.title + "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

std::string transition_text(const attn::Trace& trace, const attn::Stage& s, const Frame& f) {
  const std::string row = f.active_row >= 0 ? " " + std::to_string(f.active_row) : "";
  switch (f.transition) {
    case Transition::Project:
      return "projecting: each row of the input times the weight matrix gives a row of " + s.title;
    case Transition::Sweep:
      return f.active_row >= 0 ? "query" + row + " sweeps every key: one dot product per key"
                               : "every query meets every key: S = Q · Kᵀ";
    case Transition::Scale: return s.formula;
    case Transition::Bias: return "adding the position bias to every score";
    case Transition::MaskBlank:
      return trace.mask_mode == attn::MaskMode::AfterSoftmax && s.id == attn::StageKind::weights
                 ? "blocked weights are zeroed after softmax (rows no longer sum to 1)"
                 : "blocked cells become −∞, so softmax will give them weight 0";
    case Transition::Softmax:
      return f.step_phase < 0.5 ? "softmax, part 1: exponentiate exp(x − max) — everything becomes positive"
                                : (trace.softmax_axis == attn::SoftmaxAxis::Keys ? "softmax, part 2: divide by the sum so each row of weights adds up to 1" : "softmax, part 2: divide by the sum so each column of weights adds up to 1");
    case Transition::WeightedSum:
      return "each weight scales a value row; the scaled rows add up to the output row" + row;
    case Transition::Concat: return "the heads' outputs are placed side by side";
    case Transition::OutputProject: return "output = concat · W_O mixes the heads back together";
    case Transition::None: break;
  }
  return s.formula;
}

const char* sums_to_one(attn::SoftmaxAxis axis) {
  return axis == attn::SoftmaxAxis::Keys ? "each row sums to 1" : "each column sums to 1";
}

// The caption must never contradict the numbers: which lines sum to 1 depends
// on the axis, zeroing after softmax breaks the sums, and fully masked lines
// are all 0.
std::string weights_caption(const attn::Trace& trace, const attn::Stage& s) {
  const bool rows = trace.softmax_axis == attn::SoftmaxAxis::Keys;
  std::string text;
  if (trace.mask_mode == attn::MaskMode::AfterSoftmax && s.blocked.size() != 0 && s.blocked.any())
    text = std::string("blocked weights zeroed after softmax, not renormalised: ") +
           (rows ? "rows" : "columns") + " may sum to less than 1";
  else
    text = rows ? "each row sums to 1: how much query i attends to key j"
                : "each column sums to 1: how key j's attention splits over queries";
  if (!s.fully_masked.empty()) {
    std::string list;
    for (size_t i = 0; i < s.fully_masked.size() && i < 4; ++i)
      list += (i ? ", " : "") + std::to_string(s.fully_masked[i]);
    if (s.fully_masked.size() > 4) list += ", …";
    const bool one = s.fully_masked.size() == 1;
    text += std::string("; ") + (rows ? (one ? "row " : "rows ") : (one ? "column " : "columns ")) + list +
            (one ? " is" : " are") + " fully masked: all 0";
  }
  return text;
}

std::string scaled_caption(const attn::Scenario& scenario) {
  if (scenario.softcap > 0)
    return "divided, then capped: c·tanh(s / c) keeps every score within ±" + attn::format_number(scenario.softcap, 3);
  switch (scenario.scale) {
    case attn::ScaleMode::None: return "no scaling (scaled = scores)";
    case attn::ScaleMode::Temperature:
      return "divided by τ = " + attn::format_number(scenario.temperature, 3) + ": τ < 1 sharpens, τ > 1 flattens";
    case attn::ScaleMode::SqrtDk: break;
  }
  return "scores shrunk so softmax is not too peaked";
}

}  // namespace

std::string subscript(int n) {
  if (n < 0) return "₋" + subscript(-n);
  std::string s;
  do {
    s.insert(0, kDigits[n % 10]);
    n /= 10;
  } while (n > 0);
  return s;
}

StepCaption describe_step(const attn::Trace& trace, const Timeline& tl, const Frame& f,
                          const attn::Explanation* active) {
  StepCaption c;
  const int total = static_cast<int>(tl.steps.size());
  if (total == 0) return {"nothing to animate", ""};
  if (f.finished || f.active_stage < 0) {
    // "Shown", not "done": the status panel may also say a recompute is
    // running. A big scene's preview has only its first head's steps yet.
    c.status = "all " + std::to_string(total) + " steps shown" + (trace.complete ? "" : " so far");
    c.detail = "press Play (Space) to watch attention being computed, or hover any cell to see its arithmetic";
    return c;
  }
  const attn::Stage& s = trace.stages[static_cast<size_t>(f.active_stage)];
  c.status = "step " + std::to_string(f.step + 1) + " of " + std::to_string(total) + " · ";
  if (s.head >= 0) c.status += "head " + std::to_string(s.head) + " · ";
  c.status += s.title;
  if (f.active_row >= 0) c.status += " · row " + std::to_string(f.active_row) + " (" + label_of(s.row_labels, f.active_row) + ")";
  if (f.active_col >= 0) c.status += " · column " + std::to_string(f.active_col);

  if (f.active_col >= 0 && f.terms_total > 0 && active) {
    c.detail = cell_name(s, f.active_row, f.active_col) + " = " + products_so_far(*active, f.terms_done, f.terms_total);
  } else {
    c.detail = transition_text(trace, s, f);
  }
  return c;
}

// A switch with no default: a stage added to the table without a caption
// here is a compiler warning (an error under -Werror).
std::string stage_caption(const attn::Trace& trace, const attn::Stage& s, const attn::Scenario& scenario) {
  using K = attn::StageKind;
  switch (s.id) {
    case K::x:
    case K::x_raw: return "one row per token, one column per feature";
    case K::context:
    case K::context_raw: return "the sequence the keys and values come from";
    case K::pe:
    case K::pe_context: return "sin/cos of the position, added to the input";
    case K::w_q: return "turns a token into its question (query)";
    case K::w_k: return "turns a token into its label (key)";
    case K::w_v: return "turns a token into its content (value)";
    case K::q: return "queries: what each token is looking for";
    case K::k: return "keys: what each token offers to be found by";
    case K::v: return "values: what each token hands over";
    case K::q_rope: return "each query turned pair by pair by its position";
    case K::k_rope: return "each key turned by its position: scores now depend on distance";
    case K::scores: return "row i, column j: how well query i matches key j";
    case K::scaled: return scaled_caption(scenario);
    case K::alibi: return "penalty growing with distance between tokens";
    case K::biased: return "scaled scores plus the distance penalty";
    case K::masked:
      return s.blocked.size() == 0 || !s.blocked.any() ? "no mask: nothing is blocked"
             : trace.mask_mode == attn::MaskMode::AfterSoftmax ? "the mask waits until after softmax"
                                                               : "hatched cells are blocked (−∞)";
    case K::softmax: return "softmax before the mask: " + std::string(sums_to_one(trace.softmax_axis));
    case K::weights: return weights_caption(trace, s);
    case K::head_output: return "row i = Σⱼ weight[i,j] × value row j";
    case K::concat: return "all heads' outputs side by side";
    case K::w_o: return "mixes the heads into the output";
    case K::output: return "one output row per query token";
    // FlashAttention's tiles are not in a trace; should one be shown, its title says what it is.
    case K::flash_scores:
    case K::flash_max_old:
    case K::flash_max:
    case K::flash_rescale:
    case K::flash_p:
    case K::flash_sum:
    case K::flash_o:
    case K::flash_block_output:
    case K::flash_output: return std::string(attn::info_of(s.id).title) + ": one tile of FlashAttention's loop";
    // A KV-cache decode step: one new token against the rows kept so far.
    case K::step_q: return "the new token's query, the only query this step needs";
    case K::step_k: return "the new token's key, appended to the cache";
    case K::step_v: return "the new token's value, appended to the cache";
    case K::k_cache: return "keys kept from earlier steps, plus the new token's (last row)";
    case K::v_cache: return "values kept from earlier steps, plus the new token's (last row)";
    case K::step_scores: return "the new query against every cached key";
    case K::step_logits: return "scaled, biased and masked: hidden keys become −∞";
    case K::step_weights: return "softmax over the cached keys";
    case K::step_head_output: return "the cached values weighted by the new query's attention";
    case K::step_output: return "the new token's output row";
  }
  return s.formula;
}

}  // namespace model
