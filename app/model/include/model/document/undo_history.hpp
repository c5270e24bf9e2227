// Undo/redo of scenario edits as whole snapshots. A continuous edit (dragging
// a value over many frames) becomes one undo step: the view edits the live
// scenario freely and calls commit() when the gesture ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "attn/scenario/scenario.hpp"

namespace model {

class UndoHistory {
 public:
  explicit UndoHistory(std::size_t max_bytes = 256u << 20, std::size_t max_steps = 200)
      : max_bytes_(max_bytes), max_steps_(max_steps) {}

  // Forgets everything; `current` becomes the committed state (file loaded).
  void reset(const attn::Scenario& current);
  // Records that the scenario changed from the last committed state to
  // `current`: the old state becomes undoable and the redo list is cleared.
  void commit(const attn::Scenario& current);

  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }
  std::size_t undo_size() const { return undo_.size(); }
  std::size_t redo_size() const { return redo_.size(); }

  // The steps by name (change_name.hpp), for Edit > History: those undo
  // can take back, oldest first, and those redo can bring back, next first.
  std::vector<std::string> undo_names() const { return {undo_names_.begin(), undo_names_.end()}; }
  std::vector<std::string> redo_names() const { return {redo_names_.rbegin(), redo_names_.rend()}; }

  // Returns the state to show; call only when can_undo()/can_redo().
  const attn::Scenario& undo();
  const attn::Scenario& redo();

  const attn::Scenario& committed() const { return committed_; }
  // Names the committed state: every reset and commit gets a new number, and
  // undo/redo bring a state's number back with it. Remember it when saving;
  // the document is unchanged since exactly when the number is the same.
  std::uint64_t position() const { return committed_id_; }
  // True when `position` is the current state or one that undo can go back
  // to: the current state was reached from it without undoing it.
  bool leads_here(std::uint64_t position) const;

 private:
  void trim();

  std::size_t max_bytes_, max_steps_;
  std::size_t bytes_ = 0;
  attn::Scenario committed_;
  std::deque<attn::Scenario> undo_, redo_;
  std::uint64_t next_id_ = 0, committed_id_ = 0;
  std::deque<std::uint64_t> undo_ids_, redo_ids_;  // beside undo_, redo_
  // Beside undo_ and redo_: the name of the step that left each state.
  std::deque<std::string> undo_names_, redo_names_;
};

// Approximate heap size of a scenario, used to bound the history's memory.
std::size_t scenario_bytes(const attn::Scenario& s);

}  // namespace model
