// Why the Train view's strongest induction head attends where it does, on
// the example shown: its largest weight among the scored positions, and
// that score split over the sources of the residual stream (token, position,
// each layer-0 head, the MLP). On a trained induction model the key side's
// largest source is the layer-0 head that looks at the previous token: the
// K-composition the induction head is built from, made visible.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/train/model.hpp"
#include "attn/train/trainer.hpp"
#include "attn/why/source_split.hpp"

namespace model {

struct TrainWhy {
  // split.cell says which: the head's layer and head, and the query's and
  // key's positions in the example.
  std::string query_token, key_token;
  double weight = 0;  // the head's attention weight there
  attn::SourceSplit split;
  // The earlier layers' head that, at the key's position, gives the token
  // before it the most weight, as a source index of `split` (-1: none), and
  // that weight.
  int previous_token_source = -1;
  double previous_token_weight = 0;
  int previous_token_layer = -1, previous_token_head = -1;  // that head (-1: none)
};

// nullopt when nothing is scored or no head is. `weights` and `scored` are
// the example's, as the Train view's grids hold them.
std::optional<TrainWhy> train_why(const attn::train::Model& model, const attn::train::TaskSpec& task,
                                  const std::vector<int>& tokens, const std::vector<std::vector<attn::Mat>>& weights,
                                  const std::vector<bool>& scored, const std::vector<attn::train::HeadScore>& heads);

// "Why layer 1, head 2 looks from "B" (position 9) to "C" (position 3)"
std::string train_why_headline(const TrainWhy& why);
// A source's name, with "(previous-token head)" after the one that is.
std::string train_why_source(const TrainWhy& why, int source);
// "L0 H1 is the previous-token head here: at the key's position 5 it puts
// 93% of its weight on position 4, ..."; "" when no earlier head is found.
std::string train_why_previous(const TrainWhy& why);
// "Largest part: key L0 H1 (previous-token head) × query token embedding, 61% of the score"
std::string train_why_largest(const TrainWhy& why);

}  // namespace model
