// Small helpers on the trace: lookups by stage id and head.
#include "attn/compute/trace.hpp"

#include <algorithm>

namespace attn {

const char* to_string(ValueKind k) {
  switch (k) {
    case ValueKind::Signed: return "signed";
    case ValueKind::Probability: return "probability";
    case ValueKind::Mask: return "mask";
  }
  return "signed";
}

int Trace::index_of(const StageRef& ref) const {
  for (size_t i = 0; i < stages.size(); ++i)
    if (stages[i].id == ref.id && stages[i].head == ref.head) return static_cast<int>(i);
  return -1;
}

const Stage* Trace::find(StageKind id, int head) const {
  const int i = index_of({id, head});
  return i < 0 ? nullptr : &stages[static_cast<size_t>(i)];
}

const Stage* Trace::find_named(std::string_view name, int head) const {
  const int i = index_of_named(name, head);
  return i < 0 ? nullptr : &stages[static_cast<size_t>(i)];
}

int Trace::index_of_named(std::string_view name, int head) const {
  const std::optional<StageKind> kind = stage_kind_named(name);
  return kind ? index_of({*kind, head}) : -1;
}

int Trace::resolve_named(std::string_view name, int head, int fallback_head) const {
  const std::optional<StageKind> kind = stage_kind_named(name);
  return kind ? resolve(*kind, head, fallback_head) : -1;
}

int Trace::resolve(StageKind kind, int head, int fallback_head) const {
  for (const int h : {head, -1, std::max(fallback_head, 0)})
    if (const int i = index_of({kind, h}); i >= 0) return i;
  return -1;
}

}  // namespace attn
