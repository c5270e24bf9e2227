// Prints score splits (see why_report.hpp). Shares of the score are printed
// beside each part, since a part's size means little without the whole.
#include "why/why_report.hpp"

#include <cstdarg>
#include <cmath>
#include <cstdio>

#include "attn/text/format_number.hpp"

namespace attn::cli {

namespace {

std::string share_of(double part, double whole) {
  if (whole == 0) return "";
  return "  (" + format_number(100.0 * part / whole, 3) + "%)";
}

std::string row(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string row(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

nlohmann::json vector_json(const Vec& v) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

}  // namespace

std::string why_text(const ScoreSplit& s) {
  std::string out = "head " + std::to_string(s.head) + ", query " + std::to_string(s.query) + ", key " +
                    std::to_string(s.key) + ": S = q · k = " + format_number(s.score) + "; the logit is S × " +
                    format_number(s.scale) + " = " + format_number(s.score * s.scale) + "\n";
  if (s.key_head != s.head)
    out += "(head " + std::to_string(s.head) + " reads the keys of head " + std::to_string(s.key_head) +
           ": grouped-query attention)\n";
  out += "\nBy dimension, largest first: q[d] × k[d]\n";
  for (const DimensionTerm& d : s.by_dimension)
    out += row("  d %-3d %10s × %-10s = %10s", d.dim, format_number(d.q).c_str(), format_number(d.k).c_str(),
               format_number(d.term).c_str()) +
           share_of(d.term, s.score) + "\n";
  if (!s.by_rope) return out;
  const RopeSplit& r = *s.by_rope;
  out += "\nBy rotary pair: |q||k| cos(φ_q − φ_k + Δθ), Δ = " + std::to_string(r.distance) + " positions\n";
  out += row("  %-5s %-8s %-10s %10s %10s %10s\n", "pair", "dims", "θ", "content", "at Δ", "position");
  for (const RopePairTerm& p : r.pairs)
    out += row("  %-5d %-8s %-10s %10s %10s %10s\n", p.pair,
               (std::to_string(p.dim_a) + "," + std::to_string(p.dim_b)).c_str(), format_number(p.theta).c_str(),
               format_number(p.content).c_str(), format_number(p.term).c_str(), format_number(p.position()).c_str());
  if (r.unrotated != 0 || r.pairs.size() * 2 < s.by_dimension.size())
    out += "  dimensions RoPE leaves alone: " + format_number(r.unrotated) + "\n";
  out += "  content " + format_number(r.content()) + " + position " + format_number(r.position()) + " = " +
         format_number(r.content() + r.position()) + "\n";
  return out;
}

nlohmann::json why_json(const ScoreSplit& s) {
  nlohmann::json out = {{"format", "attnviz-why"}, {"version", 1}, {"split", "score"},
                        {"head", s.head},          {"key_head", s.key_head}, {"query", s.query},
                        {"key", s.key},            {"score", s.score},       {"scale", s.scale}};
  nlohmann::json dims = nlohmann::json::array();
  for (const DimensionTerm& d : s.by_dimension) dims.push_back({{"dim", d.dim}, {"q", d.q}, {"k", d.k}, {"term", d.term}});
  out["by_dimension"] = dims;
  if (s.by_rope) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const RopePairTerm& p : s.by_rope->pairs)
      pairs.push_back({{"pair", p.pair}, {"dims", {p.dim_a, p.dim_b}}, {"theta", p.theta}, {"q_norm", p.q_norm},
                       {"k_norm", p.k_norm}, {"q_phase", p.q_phase}, {"k_phase", p.k_phase}, {"content", p.content},
                       {"term", p.term}, {"position", p.position()}});
    out["by_rope"] = {{"distance", s.by_rope->distance}, {"unrotated", s.by_rope->unrotated},
                      {"content", s.by_rope->content()}, {"position", s.by_rope->position()}, {"pairs", pairs}};
  }
  return out;
}

std::string why_text(const SourceSplit& s, int top) {
  std::string out = "layer " + std::to_string(s.cell.layer) + ", head " + std::to_string(s.cell.head) + ", query " +
                    std::to_string(s.cell.query) + ", key " + std::to_string(s.cell.key) + ": S = q · k = " +
                    format_number(s.score) + "; the logit is S × " + format_number(s.scale) + " = " +
                    format_number(s.score * s.scale) + "\n";
  out += "\nThe largest (query source, key source) pairs:\n";
  for (const SourceTerm& t : s.largest(top)) out += "  " + s.describe(t) + "\n";
  const Vec by_key = s.by_key_source(), by_query = s.by_query_source();
  out += "\nBy key source (summed over the query's):\n";
  for (Eigen::Index b = 0; b < by_key.size(); ++b)
    out += row("  %-16s %10s", s.key_sources[static_cast<std::size_t>(b)].c_str(), format_number(by_key(b)).c_str()) +
           share_of(by_key(b), s.score) + "\n";
  out += "\nBy query source (summed over the key's):\n";
  for (Eigen::Index a = 0; a < by_query.size(); ++a)
    out += row("  %-16s %10s", s.query_sources[static_cast<std::size_t>(a)].c_str(),
               format_number(by_query(a)).c_str()) +
           share_of(by_query(a), s.score) + "\n";
  out += "\nAll " + std::to_string(s.terms.size()) + " pairs sum to " + format_number(s.terms.sum()) + "\n";
  return out;
}

nlohmann::json why_json(const SourceSplit& s) {
  nlohmann::json terms = nlohmann::json::array();
  for (Eigen::Index a = 0; a < s.terms.rows(); ++a) terms.push_back(vector_json(s.terms.row(a).transpose()));
  nlohmann::json largest = nlohmann::json::array();
  for (const SourceTerm& t : s.largest(10))
    largest.push_back({{"query_source", s.query_sources[static_cast<std::size_t>(t.query_source)]},
                       {"key_source", s.key_sources[static_cast<std::size_t>(t.key_source)]},
                       {"value", t.value},
                       {"share", t.share}});
  return {{"format", "attnviz-why"}, {"version", 1},       {"split", "source"},       {"layer", s.cell.layer},
          {"head", s.cell.head},     {"query", s.cell.query}, {"key", s.cell.key},            {"score", s.score},
          {"scale", s.scale},        {"query_sources", s.query_sources},              {"key_sources", s.key_sources},
          {"terms", terms},          {"by_query_source", vector_json(s.by_query_source())},
          {"by_key_source", vector_json(s.by_key_source())}, {"largest", largest}};
}

}  // namespace attn::cli
