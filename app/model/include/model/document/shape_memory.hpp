// Remembers the rows and columns that shape edits cut off (fewer tokens, a
// smaller d_model, d_k or d_v, fewer heads), so that growing the shape back
// restores the numbers and names that were there instead of seeding new ones.
// It lives beside the open document and is forgotten when another is opened.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "attn/scenario/scenario.hpp"

namespace model::edit {

class ShapeMemory {
 public:
  // Call with the scenario as it is just before a shape edit.
  void remember(const attn::Scenario& s);
  // After the edit: every entry of `after` outside the extents it had in
  // `before` takes the remembered value, where one is known.
  void restore(const attn::Scenario& before, attn::Scenario& after) const;
  // Row positions shift when a token is inserted or removed in the middle,
  // so what was remembered by position no longer lines up.
  void forget_token_rows();
  void clear();
  bool empty() const { return mats_.empty() && labels_.empty(); }

 private:
  struct Slot {
    attn::Mat values;
    attn::BoolMat known;
  };
  std::map<std::string, Slot> mats_;
  std::map<std::string, std::vector<std::string>> labels_;
};

}  // namespace model::edit
