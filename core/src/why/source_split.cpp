// Ranks and names the (query source, key source) pairs of one score
// (attn/why/source_split.hpp); the models only supply each source's part.
#include "attn/why/source_split.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/text/format_number.hpp"

namespace attn {

Vec SourceSplit::by_query_source() const { return terms.rowwise().sum(); }

Vec SourceSplit::by_key_source() const { return terms.colwise().sum().transpose(); }

std::vector<SourceTerm> SourceSplit::largest(int count) const {
  std::vector<SourceTerm> all;
  for (Eigen::Index a = 0; a < terms.rows(); ++a)
    for (Eigen::Index b = 0; b < terms.cols(); ++b)
      all.push_back({static_cast<int>(a), static_cast<int>(b), terms(a, b), score != 0 ? terms(a, b) / score : 0.0});
  std::stable_sort(all.begin(), all.end(),
                   [](const SourceTerm& x, const SourceTerm& y) { return std::abs(x.value) > std::abs(y.value); });
  if (count >= 0 && static_cast<std::size_t>(count) < all.size()) all.resize(static_cast<std::size_t>(count));
  return all;
}

std::string SourceSplit::describe(const SourceTerm& t) const {
  std::string text = "key: " + key_sources.at(static_cast<std::size_t>(t.key_source)) +
                     " × query: " + query_sources.at(static_cast<std::size_t>(t.query_source)) + " = " +
                     format_number(t.value);
  if (score != 0) text += " (" + format_number(100.0 * t.share, 3) + "% of the score)";
  return text;
}

SourceSplit bilinear_split(const ScoreCell& cell, std::vector<std::string> query_sources, const Mat& q_parts,
                           std::vector<std::string> key_sources, const Mat& k_parts, double score, double scale) {
  if (static_cast<Eigen::Index>(query_sources.size()) != q_parts.rows() ||
      static_cast<Eigen::Index>(key_sources.size()) != k_parts.rows())
    throw std::invalid_argument("source split: each source needs one row of parts");
  if (q_parts.cols() != k_parts.cols())
    throw std::invalid_argument("source split: the query's parts are " + std::to_string(q_parts.cols()) +
                                " wide, the key's " + std::to_string(k_parts.cols()));
  SourceSplit s;
  s.cell = cell;
  s.score = score;
  s.scale = scale;
  s.query_sources = std::move(query_sources);
  s.key_sources = std::move(key_sources);
  s.terms = q_parts * k_parts.transpose();
  return s;
}

}  // namespace attn
