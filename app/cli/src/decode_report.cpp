// The text and JSON forms of `attn decode`'s output (decode_report.hpp).
// Rows longer than kShown numbers are cut in the text (the JSON has them
// all); a logit the mask blocked is "−∞" in text and null in JSON, which
// has no infinity.
#include "decode_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/text/format_number.hpp"

namespace attn::cli {
namespace {

constexpr Eigen::Index kShown = 12;

std::string row_text(const Stage& st, Eigen::Index r = 0) {
  std::string s = "[";
  const Eigen::Index n = st.value.cols(), shown = std::min(n, kShown);
  for (Eigen::Index c = 0; c < shown; ++c) s += (c ? ", " : "") + format_number(st.value(r, c));
  if (n > shown) s += ", … (" + std::to_string(n - shown) + " more)";
  return s + "]";
}

nlohmann::json row_json(const Stage& st, Eigen::Index r = 0) {
  nlohmann::json row = nlohmann::json::array();
  for (Eigen::Index c = 0; c < st.value.cols(); ++c) {
    const double v = st.value(r, c);
    row.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
  }
  return row;
}

// Whether `st` is shown with --head `head` (-1: every head): that head's
// stages, the shared output, and the cache that head reads (its group's).
bool shows(const DecodeStep& step, const Stage& st, int head) {
  if (head < 0 || st.head < 0 || st.head == head) return true;
  const bool key_value = st.id == StageKind::step_k || st.id == StageKind::step_v || st.id == StageKind::k_cache ||
                         st.id == StageKind::v_cache;
  const Stage* scores = step.find(StageKind::step_scores, head);
  return key_value && scores && scores->inputs.at(1).head == st.head;
}

std::string reused_text(int t) {
  return t == 0 ? "nothing reused (the cache was empty)" : "rows 0–" + std::to_string(t - 1) + " reused from the cache";
}

std::string with_thousands(long long n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

void DecodeCheck::see(const DecodeStep& step, const Trace& full) {
  ++steps;
  for (int h = 0; h < full.dims.n_heads; ++h) {
    const StageValues& z = step.find(StageKind::step_head_output, h)->value;
    const StageValues& z_full = full.find(StageKind::head_output, h)->value;
    for (Eigen::Index c = 0; c < z.cols(); ++c)
      head_output = std::max(head_output, std::abs(z(0, c) - z_full(step.t, c)));
  }
  const StageValues& y = step.find(StageKind::step_output)->value;
  const StageValues& y_full = full.find(StageKind::output)->value;
  for (Eigen::Index c = 0; c < y.cols(); ++c) output = std::max(output, std::abs(y(0, c) - y_full(step.t, c)));
}

void print_step(std::ostream& os, const DecodeStep& step, int head) {
  const Stage& y = *step.find(StageKind::step_output);
  os << "step " << step.t << " (token \"" << y.row_labels[0] << "\"): computed row " << step.new_row
     << " of each cache, " << reused_text(step.t) << "\n";
  for (const Stage& st : step.stages) {
    if (st.id == StageKind::step_output || !shows(step, st, head)) continue;
    os << "  " << name_of(st.id) << " (head " << st.head << ")";
    if (st.id == StageKind::k_cache || st.id == StageKind::v_cache) {
      os << ", " << st.value.rows() << " rows: new row " << step.new_row << " = " << row_text(st, step.new_row) << "\n";
      continue;
    }
    os << " = " << row_text(st) << "\n";
  }
  os << "  step_output = " << row_text(y) << "\n";
  const DecodeCost& c = step.cost;
  os << "  multiply-adds: " << with_thousands(c.cached_macs) << " with the cache, " << with_thousands(c.uncached_macs)
     << " recomputing all " << c.tokens << " tokens; cache " << with_thousands(c.cache_bytes_f64)
     << " bytes as doubles (" << with_thousands(c.cache_bytes_f16) << " as fp16)\n";
}

nlohmann::json step_json(const DecodeStep& step, int head) {
  nlohmann::json j;
  j["t"] = step.t;
  j["token"] = step.find(StageKind::step_output)->row_labels[0];
  j["new_row"] = step.new_row;
  j["reused_rows"] = step.t;
  nlohmann::json stages = nlohmann::json::array();
  for (const Stage& st : step.stages) {
    if (!shows(step, st, head)) continue;
    nlohmann::json s{{"stage", std::string(name_of(st.id))}, {"head", st.head}};
    if (st.id == StageKind::k_cache || st.id == StageKind::v_cache) {
      s["rows"] = st.value.rows();
      s["new_row"] = row_json(st, step.new_row);
    } else {
      s["values"] = row_json(st);
    }
    stages.push_back(std::move(s));
  }
  j["stages"] = std::move(stages);
  const DecodeCost& c = step.cost;
  j["cost"] = {{"tokens", c.tokens},
               {"cached_macs", c.cached_macs},
               {"uncached_macs", c.uncached_macs},
               {"cached_total", c.cached_total},
               {"uncached_total", c.uncached_total},
               {"cache_bytes_f64", c.cache_bytes_f64},
               {"cache_bytes_f16", c.cache_bytes_f16}};
  return j;
}

void print_summary(std::ostream& os, const DecodeStep& last, const DecodeCheck& check) {
  const DecodeCost& c = last.cost;
  os << "after " << c.tokens << " tokens: " << with_thousands(c.cached_total) << " multiply-adds with the cache, "
     << with_thousands(c.uncached_total) << " without ("
     << format_number(static_cast<double>(c.uncached_total) / static_cast<double>(std::max(1LL, c.cached_total)), 3)
     << "× as many)\n";
  os << "cache (one layer): " << with_thousands(c.bytes_per_token_f64) << " bytes per token as doubles, "
     << with_thousands(c.bytes_per_token_f16) << " as fp16; " << with_thousands(c.cache_bytes_f64) << " and "
     << with_thousands(c.cache_bytes_f16) << " in all\n";
  os << "check against the full causal trace over " << check.steps << " steps: max |diff| head outputs "
     << format_number(check.head_output, 3) << ", outputs " << format_number(check.output, 3) << "\n";
}

nlohmann::json summary_json(const DecodeStep& last, const DecodeCheck& check) {
  const DecodeCost& c = last.cost;
  return {{"tokens", c.tokens},
          {"cached_total", c.cached_total},
          {"uncached_total", c.uncached_total},
          {"bytes_per_token_f64", c.bytes_per_token_f64},
          {"bytes_per_token_f16", c.bytes_per_token_f16},
          {"cache_bytes_f64", c.cache_bytes_f64},
          {"cache_bytes_f16", c.cache_bytes_f16},
          {"check",
           {{"steps", check.steps},
            {"max_abs_diff_head_output", check.head_output},
            {"max_abs_diff_output", check.output}}}};
}

}  // namespace attn::cli
