// Judging a "head" question: which head of the trained model is the
// induction head? The scores come from the snapshot the Train view shows, so
// the answer follows the model as it learns; until some head clearly does the
// job (min_score) there is no right answer yet, and the student is told to
// keep training rather than marked wrong.
#include <algorithm>
#include <cmath>

#include "model/lessons/lesson_answers.hpp"

namespace model {
namespace {

// Heads are named as the Train view labels them: layers and heads from 0.
std::string head_name(int layer, int head) { return "layer " + std::to_string(layer) + ", head " + std::to_string(head); }

std::string percent(double share) { return std::to_string(static_cast<int>(std::lround(share * 100))) + "%"; }

const attn::train::HeadScore* find_head(const std::vector<attn::train::HeadScore>& scores, int layer, int head) {
  const auto it = std::find_if(scores.begin(), scores.end(),
                               [&](const attn::train::HeadScore& s) { return s.layer == layer && s.head == head; });
  return it == scores.end() ? nullptr : &*it;
}

}  // namespace

Verdict check_head(const attn::io::LessonQuestion& q, const std::vector<attn::train::HeadScore>& scores, int layer, int head) {
  Verdict v;
  if (scores.empty()) {
    v.not_yet = true;
    v.why = "There is no model to look at yet: press Train first.";
    return v;
  }
  const attn::train::HeadScore best = attn::train::best_induction_head(scores);
  if (best.induction < q.min_score) {
    v.not_yet = true;
    v.why = "No head has learned the pattern yet (the best one puts " + percent(best.induction) +
            " of its attention on the token after the earlier copy). Keep training until one grid shows the diagonal stripe.";
    return v;
  }
  const attn::train::HeadScore* picked = find_head(scores, layer, head);
  if (!picked) {
    v.why = "That is not a head of this model: click one of the grids.";
    return v;
  }
  if (picked->layer == best.layer && picked->head == best.head) {
    v.right = true;
    v.why = "Right: " + head_name(layer, head) + " puts " + percent(picked->induction) +
            " of its attention on the token that followed the current token's earlier copy.";
    return v;
  }
  v.why = "Not this one: " + head_name(layer, head) + " puts " + percent(picked->induction) +
          " of its attention on the token after the earlier copy, another head " + percent(best.induction) + ".";
  return v;
}

std::string reveal_head(const attn::io::LessonQuestion& q, const std::vector<attn::train::HeadScore>& scores) {
  if (scores.empty()) return "Press Train first: the answer is whichever head learns to look one token past the earlier copy.";
  const attn::train::HeadScore best = attn::train::best_induction_head(scores);
  std::string why = "It is " + head_name(best.layer, best.head) + ": " + percent(best.induction) +
                    " of its attention goes to the token after the earlier copy of the current token.";
  if (best.induction < q.min_score)
    why += " That is still weak; train longer and its stripe gets sharper.";
  return why;
}

}  // namespace model
