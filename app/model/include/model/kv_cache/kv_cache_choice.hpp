// What the user controls in the "KV cache" panel: the token step shown,
// play (a start step plus the seconds since play began, so the step shown
// is a pure function of time) and the hovered cell. Kept in AppState.
#pragma once

#include <optional>

#include "attn/compute/stage_kind.hpp"

namespace model {

struct KvCacheChoice {
  int step = 0;            // token t decoded (0-based); the model clamps it to the scene's tokens
  bool playing = false;
  int play_from = 0;       // the step shown when play started
  double play_time = 0;    // seconds since play started (advanced by the session's dt)
  struct Hover {
    attn::StageKind stage = attn::StageKind::step_q;
    int head = -1, row = 0, col = 0;
    bool operator==(const Hover& o) const { return stage == o.stage && head == o.head && row == o.row && col == o.col; }
  };
  std::optional<Hover> hover;  // the cell under the mouse, explained in a tooltip next frame
};

}  // namespace model
