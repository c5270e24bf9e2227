// A big scene drawn progressively (trace.hpp): its inputs and the head on
// screen first, then the rest. Both halves are the pieces compute_trace is
// made of (trace_parts.hpp), and a head's arithmetic does not depend on the
// thread or the company it is computed in, so a completed preview equals a
// trace computed in one go, bit for bit, and the preview's stages are the
// full trace's own (the same matrices, shared).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "attn/compute/trace.hpp"
#include "compute/trace_parts.hpp"

namespace attn {

namespace {

// The heads a preview holds: the one asked for, and the head whose keys
// and values it reads when it shares another's (grouped-query attention).
std::vector<int> preview_heads(const Trace& preview) {
  std::vector<int> heads;
  for (const Stage& s : preview.stages)
    if (s.head >= 0 && (heads.empty() || heads.back() != s.head)) heads.push_back(s.head);
  return heads;
}

bool holds(const std::vector<int>& heads, int h) { return std::find(heads.begin(), heads.end(), h) != heads.end(); }

}  // namespace

Trace compute_preview(const Scenario& s, int head, const Limits& limits, Progress* progress) {
  if (std::string e = validate(s, limits); !e.empty()) throw std::invalid_argument(e);
  Trace t = detail::start_trace(s);
  if (head < 0 || head >= t.dims.n_heads)
    throw std::out_of_range("compute_preview: head " + std::to_string(head) + " of a scene with " +
                            std::to_string(t.dims.n_heads) + " heads");
  t.complete = false;
  const detail::HeadInputs in = detail::push_inputs(t, s);
  // Alone, the head gets every core for its row blocks (run_heads' helpers).
  std::vector<int> heads{head};
  if (t.dims.shares_kv(head)) heads.insert(heads.begin(), t.dims.kv_leader(head));
  detail::push_heads(t, s, in, progress, heads);
  return t;
}

Trace complete_trace(const Trace& preview, const Scenario& s, const Limits& limits, Progress* progress) {
  if (std::string e = validate(s, limits); !e.empty()) throw std::invalid_argument(e);
  Trace t = detail::start_trace(s);
  const std::vector<int> shown = preview_heads(preview);
  if (preview.complete || shown.empty() || preview.dims != t.dims || preview.softmax_axis != t.softmax_axis ||
      preview.mask_mode != t.mask_mode || preview.score != t.score)
    return compute_trace(s, limits, progress);
  // The inputs as the preview holds them, then every head in order: the
  // preview's own, and the others computed now.
  for (const Stage& st : preview.stages)
    if (st.head < 0) t.stages.push_back(st);
  std::vector<int> rest;
  for (int h = 0; h < t.dims.n_heads; ++h)
    if (!holds(shown, h)) rest.push_back(h);
  std::vector<detail::HeadStages> done = detail::compute_heads(s, t.dims, detail::inputs_of(preview), rest, progress);
  t.softmax.resize(static_cast<size_t>(t.dims.n_heads));
  size_t next = 0;
  for (int h = 0; h < t.dims.n_heads; ++h) {
    if (holds(shown, h)) {
      for (const Stage& st : preview.stages)
        if (st.head == h) t.stages.push_back(st);
      t.softmax[static_cast<size_t>(h)] = preview.softmax[static_cast<size_t>(h)];
      // The preview's notes are its heads' (the inputs make none), in head order.
      const std::string mine = "head " + std::to_string(h) + ":";
      for (const std::string& note : preview.notes)
        if (note.compare(0, mine.size(), mine) == 0) t.notes.push_back(note);
      continue;
    }
    detail::HeadStages& fresh = done[next++];
    if (fresh.error) std::rethrow_exception(fresh.error);
    for (Stage& st : fresh.stages) t.stages.push_back(std::move(st));
    t.softmax[static_cast<size_t>(h)] = std::move(fresh.softmax);
    for (std::string& note : fresh.notes) t.notes.push_back(std::move(note));
  }
  detail::push_output(t, s, t.find(StageKind::x)->row_labels, progress ? progress->max_threads : 0);
  return t;
}

}  // namespace attn
