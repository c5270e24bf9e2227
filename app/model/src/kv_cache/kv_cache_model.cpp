// KvCacheModel: decodes the scene once per trace and keeps every step, so
// the panel's stepping and play are only an index; see kv_cache_model.hpp.
#include "model/kv_cache/kv_cache_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/explain/decode_explain.hpp"

namespace model {
namespace {

// Max |a(0, c) − b(row, c)| over the columns both have.
double row_difference(const attn::StageValues& a, const attn::StageValues& b, int row) {
  double worst = 0;
  if (row >= b.rows()) return worst;
  for (Eigen::Index c = 0; c < std::min(a.cols(), b.cols()); ++c) worst = std::max(worst, std::abs(a(0, c) - b(row, c)));
  return worst;
}

}  // namespace

int kv_play_step(int from, double seconds, int steps) {
  if (steps <= 0) return 0;
  const int advanced = seconds > 0 ? static_cast<int>(std::floor(seconds * kKvTokensPerSecond)) : 0;
  return std::clamp(from + advanced, 0, steps - 1);
}

std::string kv_refusal(const attn::Scenario& s, int tokens) {
  try {
    attn::check_decodable(s, tokens);
  } catch (const std::exception& e) {
    return e.what();
  }
  if (tokens > kKvMaxTokens)
    return "This scene has " + std::to_string(tokens) + " tokens; the KV cache panel keeps every step of at most " +
           std::to_string(kKvMaxTokens) + " tokens. Try a shorter scene (attn decode shows long ones).";
  if (tokens <= 0) return "This scene has no tokens to generate.";
  return "";
}

void KvCacheModel::build(const attn::Trace& trace, const attn::Scenario& scenario) {
  ++builds_;
  view_ = KvCacheView{};
  const int tokens = static_cast<int>(scenario.x.rows());
  view_.error = kv_refusal(scenario, tokens);
  if (!view_.error.empty()) return;
  try {
    view_.decode = attn::compute_decode(scenario, tokens);
  } catch (const std::exception& e) {
    view_.error = e.what();
    return;
  }
  view_.has_w_o = scenario.w_o.has_value();
  for (int t = 0; t < tokens; ++t)
    view_.tokens.push_back(t < static_cast<int>(scenario.tokens.size()) ? scenario.tokens[static_cast<size_t>(t)] : "token " + std::to_string(t));
  // Rows so far against the full causal trace: step t's rows equal its row t.
  double worst = 0;
  for (const attn::DecodeStep& step : view_.decode.steps) {
    for (int h = 0; h < view_.decode.dims.n_heads; ++h) {
      const attn::Stage* z = step.find(attn::StageKind::step_head_output, h);
      const attn::Stage* z_full = trace.find(attn::StageKind::head_output, h);
      if (z && z_full) worst = std::max(worst, row_difference(z->value, z_full->value, step.t));
    }
    const attn::Stage* y = step.find(attn::StageKind::step_output);
    const attn::Stage* y_full = trace.find(attn::StageKind::output);
    if (y && y_full) worst = std::max(worst, row_difference(y->value, y_full->value, step.t));
    view_.max_difference.push_back(worst);
  }
  view_.ok = true;
}

void KvCacheModel::update(const attn::Trace& trace, const attn::Scenario& scenario, std::uint64_t generation, int view_head,
                          KvCacheChoice& choice, double dt) {
  if (builds_ == 0 || generation != generation_) {
    build(trace, scenario);
    generation_ = generation;
    hover_key_.reset();
    hover_ok_ = false;
  }
  const int n = steps();
  head_ = std::clamp(view_head, 0, std::max(0, view_.decode.dims.n_heads - 1));
  if (choice.playing) {
    choice.play_time += dt;
    choice.step = kv_play_step(choice.play_from, choice.play_time, n);
    if (n == 0 || choice.step >= n - 1) choice.playing = false;  // the last token has arrived
  }
  choice.step = std::clamp(choice.step, 0, std::max(0, n - 1));
  step_ = choice.step;
  playing_ = choice.playing;
  explain_hover(scenario, choice);
}

void KvCacheModel::explain_hover(const attn::Scenario& scenario, const KvCacheChoice& choice) {
  if (choice.hover == hover_key_ && hover_step_ == step_) return;
  hover_key_ = choice.hover;
  hover_step_ = step_;
  hover_ok_ = false;
  const attn::DecodeStep* step = current();
  if (!step || !choice.hover) return;
  try {
    hover_text_ = attn::explain_decode(*step, scenario, attn::StageRef{choice.hover->stage, choice.hover->head}, choice.hover->row,
                                       choice.hover->col);
    hover_ok_ = true;
  } catch (const std::exception&) {
    hover_ok_ = false;  // a cell of a step that changed under the mouse: no tooltip this frame
  }
}

nlohmann::json KvCacheModel::dump(bool open) const {
  nlohmann::json j{{"open", open}, {"head", head_}, {"step", step_}, {"steps", steps()}, {"playing", playing_},
                   {"error", view_.error}};
  const attn::DecodeStep* s = current();
  j["new_row"] = s ? s->new_row : -1;
  j["cache_rows"] = s ? s->cache.tokens : 0;
  j["macs_cached"] = s ? s->cost.cached_macs : 0;
  j["macs_uncached"] = s ? s->cost.uncached_macs : 0;
  j["max_difference"] = s ? view_.max_difference[static_cast<size_t>(step_)] : 0.0;
  return j;
}

}  // namespace model
