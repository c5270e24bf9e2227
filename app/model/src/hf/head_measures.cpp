// Per-head measures and the rules that name a head's role (head_measures.hpp).
#include "model/hf/head_measures.hpp"

#include <cmath>

namespace model {

const char* measure_name(HeadMeasure m) {
  switch (m) {
    case HeadMeasure::Previous: return "previous token";
    case HeadMeasure::First: return "first token";
    case HeadMeasure::Self: return "itself";
    case HeadMeasure::Entropy: return "entropy";
  }
  return "";
}

HeadMeasures measure_head(const attn::hf::AttentionMap<float>& w) {
  HeadMeasures m;
  const Eigen::Index n = w.rows();
  if (n == 0 || w.cols() != n) return m;
  // With one token there is only query 0; otherwise it is left out, since a
  // causal query 0 gives all its weight to itself (and to the first token).
  const Eigen::Index from = n > 1 ? 1 : 0;
  for (Eigen::Index i = from; i < n; ++i) {
    if (i >= 1) m.previous += w(i, i - 1);
    m.first += w(i, 0);
    m.self += w(i, i);
  }
  const double queries = static_cast<double>(n - from);
  m.previous = n > 1 ? m.previous / queries : 0;
  m.first /= queries;
  m.self /= queries;
  int even_rows = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    double h = 0;
    int visible = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double p = w(i, j);
      if (p == 0) continue;  // masked (or no weight): adds nothing to the entropy
      ++visible;
      h -= p * std::log(p);
    }
    m.entropy += h;
    if (visible >= 2) {
      m.evenness += h / std::log(static_cast<double>(visible));
      ++even_rows;
    }
  }
  m.entropy /= static_cast<double>(n);
  m.evenness = even_rows > 0 ? m.evenness / even_rows : 0;
  return m;
}

std::string head_role(const HeadMeasures& m) {
  constexpr double kMostly = 0.5, kEven = 0.9;
  if (m.previous > kMostly && m.previous >= m.first && m.previous >= m.self) return "mostly attends to the previous token";
  if (m.first > kMostly && m.first >= m.self) return "mostly attends to the first token";
  if (m.self > kMostly) return "mostly attends to itself";
  if (m.evenness >= kEven) return "spreads its attention evenly";
  return "";
}

double measure_value(const HeadMeasures& m, HeadMeasure which) {
  switch (which) {
    case HeadMeasure::Previous: return m.previous;
    case HeadMeasure::First: return m.first;
    case HeadMeasure::Self: return m.self;
    case HeadMeasure::Entropy: return m.entropy;
  }
  return 0;
}

}  // namespace model
