// Snapshot undo history with a memory bound: the oldest steps are dropped
// first so a long session on a large scenario cannot exhaust memory.
#include "model/document/undo_history.hpp"

#include "model/document/change_name.hpp"

#include <algorithm>
#include <utility>

namespace model {

std::size_t scenario_bytes(const attn::Scenario& s) {
  std::size_t n = static_cast<std::size_t>(s.x.size());
  if (s.context) n += static_cast<std::size_t>(s.context->size());
  for (const attn::HeadWeights& h : s.heads)
    n += static_cast<std::size_t>(h.w_q.size() + h.w_k.size() + h.w_v.size());
  if (s.w_o) n += static_cast<std::size_t>(s.w_o->size());
  n += static_cast<std::size_t>(s.output_bias.size());
  for (const attn::AdditiveParams& a : s.additive)
    n += static_cast<std::size_t>(a.w.size() + a.u.size() + a.v.size());
  std::size_t bytes = n * sizeof(double) + static_cast<std::size_t>(s.custom_mask.size());
  for (const std::string& t : s.tokens) bytes += t.size() + sizeof(std::string);
  for (const std::string& t : s.context_tokens) bytes += t.size() + sizeof(std::string);
  return bytes + sizeof(attn::Scenario);
}

void UndoHistory::reset(const attn::Scenario& current) {
  committed_ = current;
  committed_id_ = ++next_id_;
  undo_.clear();
  redo_.clear();
  undo_ids_.clear();
  redo_ids_.clear();
  undo_names_.clear();
  redo_names_.clear();
  bytes_ = 0;
}

void UndoHistory::commit(const attn::Scenario& current) {
  undo_names_.push_back(describe_change(committed_, current));
  bytes_ += scenario_bytes(committed_);
  undo_.push_back(std::exchange(committed_, current));
  undo_ids_.push_back(std::exchange(committed_id_, ++next_id_));
  for (const attn::Scenario& s : redo_) bytes_ -= scenario_bytes(s);
  redo_.clear();
  redo_ids_.clear();
  redo_names_.clear();
  trim();
}

const attn::Scenario& UndoHistory::undo() {
  const std::size_t b = scenario_bytes(committed_);
  redo_.push_back(std::move(committed_));
  committed_ = std::move(undo_.back());
  undo_.pop_back();
  redo_ids_.push_back(std::exchange(committed_id_, undo_ids_.back()));
  undo_ids_.pop_back();
  redo_names_.push_back(std::move(undo_names_.back()));
  undo_names_.pop_back();
  bytes_ += b;
  bytes_ -= scenario_bytes(committed_);
  return committed_;
}

const attn::Scenario& UndoHistory::redo() {
  const std::size_t b = scenario_bytes(committed_);
  undo_.push_back(std::move(committed_));
  committed_ = std::move(redo_.back());
  redo_.pop_back();
  undo_ids_.push_back(std::exchange(committed_id_, redo_ids_.back()));
  redo_ids_.pop_back();
  undo_names_.push_back(std::move(redo_names_.back()));
  redo_names_.pop_back();
  bytes_ += b;
  bytes_ -= scenario_bytes(committed_);
  return committed_;
}

bool UndoHistory::leads_here(std::uint64_t position) const {
  return position == committed_id_ || std::find(undo_ids_.begin(), undo_ids_.end(), position) != undo_ids_.end();
}

void UndoHistory::trim() {
  while (!undo_.empty() && (undo_.size() > max_steps_ || (bytes_ > max_bytes_ && undo_.size() > 1))) {
    bytes_ -= scenario_bytes(undo_.front());
    undo_.pop_front();
    undo_ids_.pop_front();
    undo_names_.pop_front();
  }
}

}  // namespace model
