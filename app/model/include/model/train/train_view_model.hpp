// What the Train view shows, derived from the session and TrainUi outside
// draw code: the chosen snapshot's attention grids on the chosen held-out
// example (one small forward pass, redone only when either changes), and
// the scenario that opens a trained layer in the pipeline view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attn/io/scenario_file.hpp"
#include "model/train/train_session.hpp"
#include "model/train/train_why.hpp"

namespace model {

struct TrainGrids {
  int snapshot = -1;  // index into the session's snapshots; -1: nothing yet
  int step = 0;
  std::vector<std::string> tokens;                   // the example's token names
  std::vector<std::vector<attn::Mat>> weights;       // [layer][head] (seq_len, seq_len)
  std::vector<std::string> predicted;                // the model's guess at each position
  std::vector<bool> scored, correct;                 // per position
  std::vector<attn::train::HeadScore> heads;         // the snapshot's held-out scores
  attn::train::HeadScore best;                       // best_induction_head(heads)
  std::optional<TrainWhy> why;                       // why `best` attends where it does most
};

// A number the Train view prints, with `format` (one double conversion), or
// "not a number" when it is not finite. Opening a model whose forward pass
// overflows is refused (attn::train::forward_overflow); this is the second
// line, so no "-nan" or "inf" ever reaches the screen.
std::string train_number(double value, const char* format);
// A head grid's title, "Layer 0, head 1" (or "L0 H1" where a column is
// narrow). Layers and heads count from 0, as in the Model view, `attn model`,
// `attn train --layer` and PyTorch.
std::string train_grid_title(int layer, int head, bool short_form = false);
// "Strongest induction head at step 40: layer 1, head 1 (85% of its
// attention on the target)", for the snapshot in `g`.
std::string best_head_line(const TrainGrids& g);
// "prev 0.12  ind 0.85" under a head's grid (zeros when it has no score);
// `between`: "\n" puts the two on lines of their own, for a narrow column.
std::string head_score_text(const attn::train::HeadScore* score, const char* between = "  ");

// The snapshot index `shown` stands for (-1: the newest), clamped.
int shown_snapshot(const TrainSession& session, int shown);

// The Train view's status line for the snapshot shown (-1: the newest): that
// snapshot's step, training loss and held-out accuracy, and, scrubbed back,
// the newest step too ("Step 200 of 1500 shown ..."). "" before any snapshot.
std::string train_status_line(const TrainSession& session, int shown);
TrainGrids train_grids(const TrainSession& session, int shown, int example);

// Layer `layer` of snapshot `shown` on held-out example `example`, as an
// ordinary scenario file titled with the task, layer and step.
attn::io::ScenarioFile trained_layer_scene(const TrainSession& session, int shown, int example, int layer);

// Caches train_grids by (session generation, snapshot, example).
class TrainGridsCache {
 public:
  const TrainGrids& get(const TrainSession& session, int shown, int example);

 private:
  TrainGrids grids_;
  std::uint64_t generation_ = ~0ull;
  int snapshot_ = -2, example_ = -1;
};

}  // namespace model

namespace model {
// The newest snapshot taken at or before `step` (0 when none is).
int snapshot_at_or_before(const TrainSession& session, int step);
}  // namespace model
