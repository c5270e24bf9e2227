// The Train view's grids for the snapshot and example shown, kept until
// either changes (train_view_model.hpp).
#include "model/train/train_view_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace model {
namespace {

std::vector<int> example_tokens(const TrainSession& session, int example) {
  const attn::train::Batch& b = session.held_out();
  if (b.size() == 0) return {};
  const int row = std::clamp(example, 0, b.size() - 1);
  std::vector<int> tokens(static_cast<size_t>(b.tokens.cols()));
  for (Eigen::Index t = 0; t < b.tokens.cols(); ++t) tokens[static_cast<size_t>(t)] = b.tokens(row, t);
  return tokens;
}

}  // namespace

int shown_snapshot(const TrainSession& session, int shown) {
  const int n = static_cast<int>(session.snapshots().size());
  if (n == 0) return -1;
  return shown < 0 ? n - 1 : std::min(shown, n - 1);
}

TrainGrids train_grids(const TrainSession& session, int shown, int example) {
  TrainGrids g;
  g.snapshot = shown_snapshot(session, shown);
  if (g.snapshot < 0) return g;
  const TrainSnapshot& snap = session.snapshots()[static_cast<size_t>(g.snapshot)];
  const attn::train::TaskSpec& task = session.config().task;
  const std::vector<int> tokens = example_tokens(session, example);
  if (tokens.empty()) return g;
  g.step = snap.step;
  g.heads = snap.heads;
  if (!g.heads.empty()) g.best = attn::train::best_induction_head(g.heads);
  const attn::train::SequenceForward f = attn::train::forward(*snap.model, tokens);
  g.weights = f.weights;
  const attn::train::Batch& b = session.held_out();
  const int row = std::clamp(example, 0, b.size() - 1);
  for (size_t t = 0; t < tokens.size(); ++t) {
    g.tokens.push_back(attn::train::token_name(task, tokens[t]));
    Eigen::Index guess = 0;
    f.logits.row(static_cast<Eigen::Index>(t)).maxCoeff(&guess);
    g.predicted.push_back(attn::train::token_name(task, static_cast<int>(guess)));
    const auto col = static_cast<Eigen::Index>(t);
    g.scored.push_back(b.scored(row, col));
    g.correct.push_back(static_cast<int>(guess) == b.target(row, col));
  }
  g.why = train_why(*snap.model, task, tokens, g.weights, g.scored, g.heads);
  return g;
}

attn::io::ScenarioFile trained_layer_scene(const TrainSession& session, int shown, int example, int layer) {
  attn::io::ScenarioFile file;
  const int index = shown_snapshot(session, shown);
  if (index < 0) return file;
  const TrainSnapshot& snap = session.snapshots()[static_cast<size_t>(index)];
  const attn::train::TaskSpec& task = session.config().task;
  file.scenario = attn::train::layer_scenario(*snap.model, task, example_tokens(session, example), layer);
  file.title = "Trained " + attn::train::task_name(task.kind) + " model, layer " + std::to_string(layer) +
               " after " + std::to_string(snap.step) + " steps";
  file.description = "Layer " + std::to_string(layer) + " of a tiny attention model trained on the " +
                     attn::train::task_name(task.kind) + " task. " + attn::train::task_rule(task.kind) +
                     " X is the residual stream entering the layer (token embedding plus position" +
                     (layer > 0 ? ", plus what earlier layers added" : "") + ").";
  return file;
}

const TrainGrids& TrainGridsCache::get(const TrainSession& session, int shown, int example) {
  const int snapshot = shown_snapshot(session, shown);
  if (session.generation() != generation_ || snapshot != snapshot_ || example != example_) {
    grids_ = train_grids(session, shown, example);
    generation_ = session.generation();
    snapshot_ = snapshot;
    example_ = example;
  }
  return grids_;
}

}  // namespace model

namespace model {

int snapshot_at_or_before(const TrainSession& session, int step) {
  int found = 0;
  const std::vector<TrainSnapshot>& snaps = session.snapshots();
  for (size_t i = 0; i < snaps.size(); ++i)
    if (snaps[i].step <= step) found = static_cast<int>(i);
  return found;
}

std::string train_status_line(const TrainSession& session, int shown) {
  const int index = shown_snapshot(session, shown);
  if (index < 0) return "";
  const TrainSnapshot& snap = session.snapshots()[static_cast<size_t>(index)];
  const bool newest = static_cast<size_t>(index) + 1 == session.snapshots().size();
  // The newest snapshot's loss is the session's latest (it may be a step on).
  const double loss = newest && !session.losses().empty() ? session.losses().back() : snap.loss;
  const std::string loss_text = train_number(loss, "%.3f");
  const std::string accuracy = train_number(100 * snap.held_out.accuracy, "%.1f%%");
  char line[200];
  if (newest)
    std::snprintf(line, sizeof line, "Step %d%s   loss %s   held-out accuracy %s", session.steps(),
                  session.running() ? " (training)" : "", loss_text.c_str(), accuracy.c_str());
  else
    std::snprintf(line, sizeof line, "Step %d shown (newest: %d%s)   loss %s   held-out accuracy %s", snap.step,
                  session.steps(), session.running() ? ", training" : "", loss_text.c_str(), accuracy.c_str());
  return line;
}

std::string train_number(double value, const char* format) {
  if (!std::isfinite(value)) return "not a number";
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string train_grid_title(int layer, int head, bool short_form) {
  return short_form ? "L" + std::to_string(layer) + " H" + std::to_string(head)
                    : "Layer " + std::to_string(layer) + ", head " + std::to_string(head);
}

std::string best_head_line(const TrainGrids& g) {
  char line[160];
  std::snprintf(line, sizeof line, "Strongest induction head at step %d: layer %d, head %d (%s of its attention on the target)",
                g.step, g.best.layer, g.best.head, train_number(100 * g.best.induction, "%.0f%%").c_str());
  return line;
}

std::string head_score_text(const attn::train::HeadScore* score, const char* between) {
  return "prev " + train_number(score ? score->previous_token : 0, "%.2f") + between + "ind " +
         train_number(score ? score->induction : 0, "%.2f");
}

}  // namespace model
