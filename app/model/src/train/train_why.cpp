// Picks the strongest induction head's top cell and splits its score by
// source (train_why.hpp). Runs with the Train view's grids, outside draw code.
#include "model/train/train_why.hpp"

#include <cmath>

#include "attn/text/format_number.hpp"
#include "attn/train/score_sources.hpp"

namespace model {

std::optional<TrainWhy> train_why(const attn::train::Model& model, const attn::train::TaskSpec& task,
                                  const std::vector<int>& tokens, const std::vector<std::vector<attn::Mat>>& weights,
                                  const std::vector<bool>& scored, const std::vector<attn::train::HeadScore>& heads) {
  if (heads.empty()) return std::nullopt;
  const attn::train::HeadScore best = attn::train::best_induction_head(heads);
  if (best.layer >= static_cast<int>(weights.size()) ||
      best.head >= static_cast<int>(weights[static_cast<std::size_t>(best.layer)].size()))
    return std::nullopt;
  const attn::Mat& w = weights[static_cast<std::size_t>(best.layer)][static_cast<std::size_t>(best.head)];
  TrainWhy why;
  why.weight = -1;
  int query = 0, key = 0;
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    if (static_cast<std::size_t>(i) >= scored.size() || !scored[static_cast<std::size_t>(i)]) continue;
    for (Eigen::Index j = 0; j <= i; ++j)
      if (w(i, j) > why.weight) why.weight = w(i, j), query = static_cast<int>(i), key = static_cast<int>(j);
  }
  if (why.weight < 0) return std::nullopt;
  why.query_token = attn::train::token_name(task, tokens[static_cast<std::size_t>(query)]);
  why.key_token = attn::train::token_name(task, tokens[static_cast<std::size_t>(key)]);
  why.split = attn::train::split_score_by_source(model, tokens, best.layer, best.head, query, key);
  // The earlier head that, at the key's position, looks most at the token
  // before it: the previous-token head, measured where the induction head
  // reads it (the Train view's "prev" averages over the scored positions,
  // the second copy, where a previous-token head has nothing to do).
  if (key >= 1)
    for (int l = 0; l < best.layer; ++l)
      for (std::size_t h = 0; h < weights[static_cast<std::size_t>(l)].size(); ++h) {
        const double back = weights[static_cast<std::size_t>(l)][h](key, key - 1);
        if (back <= why.previous_token_weight) continue;
        const std::string name = attn::train::head_source_name(l, static_cast<int>(h));
        for (std::size_t s = 0; s < why.split.key_sources.size(); ++s)
          if (why.split.key_sources[s] == name) {
            why.previous_token_source = static_cast<int>(s);
            why.previous_token_weight = back;
            why.previous_token_layer = l;
            why.previous_token_head = static_cast<int>(h);
          }
      }
  return why;
}

std::string train_why_headline(const TrainWhy& why) {
  const attn::ScoreCell& c = why.split.cell;
  return "Why layer " + std::to_string(c.layer) + ", head " + std::to_string(c.head) + " looks from \"" +
         why.query_token + "\" (position " + std::to_string(c.query) + ") to \"" + why.key_token + "\" (position " +
         std::to_string(c.key) + ")";
}

std::string train_why_source(const TrainWhy& why, int source) {
  std::string name = why.split.key_sources.at(static_cast<std::size_t>(source));
  if (source == why.previous_token_source)
    name += " (previous-token head)";
  return name;
}

std::string train_why_largest(const TrainWhy& why) {
  const auto top = why.split.largest(1);
  if (top.empty()) return "";
  const attn::SourceTerm& t = top.front();
  std::string line = "Largest part: key " + train_why_source(why, t.key_source) + " × query " +
                     why.split.query_sources.at(static_cast<std::size_t>(t.query_source));
  if (why.split.score != 0) line += ", " + attn::format_number(100.0 * t.share, 3) + "% of the score";
  return line;
}

}  // namespace model

namespace model {

std::string train_why_previous(const TrainWhy& why) {
  if (why.previous_token_source < 0) return "";
  return why.split.key_sources.at(static_cast<std::size_t>(why.previous_token_source)) +
         " is the previous-token head here: at the key's position " + std::to_string(why.split.cell.key) + " it puts " +
         attn::format_number(100.0 * why.previous_token_weight, 3) + "% of its weight on position " +
         std::to_string(why.split.cell.key - 1) + ", so its output tells the key which token came before it.";
}

}  // namespace model
