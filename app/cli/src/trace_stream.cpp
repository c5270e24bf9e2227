// Stage-by-stage trace writer (see trace_stream.hpp). It reuses
// io::trace_to_json for the header and for each stage so the format is
// defined in one place, and only re-creates nlohmann's layout around them:
// compact "key":value, or with indent N, "key": value with nested lines
// shifted by N spaces per level.
#include "trace_stream.hpp"

#include <string>
#include <utility>

#include "attn/io/scenario_file.hpp"

namespace attn::cli {

namespace {

// Shifts every line after the first by `pad` (JSON strings never hold raw
// newlines, so every '\n' in a dump is layout).
std::string shifted(const std::string& text, const std::string& pad) {
  if (pad.empty()) return text;
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

void write_stages(std::ostream& out, Trace& trace, int indent) {
  if (trace.stages.empty()) {
    out << "[]";
    return;
  }
  const bool pretty = indent >= 0;
  const std::string pad1 = pretty ? std::string(static_cast<std::size_t>(indent), ' ') : "";
  const std::string pad2 = pad1 + pad1;
  out << "[";
  for (std::size_t i = 0; i < trace.stages.size(); ++i) {
    Trace one;  // a one-stage trace, so trace_to_json formats the stage
    one.stages.push_back(std::move(trace.stages[i]));
    const nlohmann::json stage = io::trace_to_json(one)["stages"][0];
    if (i > 0) out << ",";
    if (pretty) out << "\n" << pad2;
    out << shifted(stage.dump(indent), pad2);
  }
  if (pretty) out << "\n" << pad1;
  out << "]";
}

}  // namespace

void write_trace_json(std::ostream& out, Trace trace, int indent) {
  Trace header;  // everything but the stages
  header.dims = trace.dims;
  header.softmax_axis = trace.softmax_axis;
  header.mask_mode = trace.mask_mode;
  header.notes = trace.notes;
  const nlohmann::json head = io::trace_to_json(header);

  const bool pretty = indent >= 0;
  const std::string pad1 = pretty ? std::string(static_cast<std::size_t>(indent), ' ') : "";
  out << "{";
  bool first = true;
  for (auto it = head.begin(); it != head.end(); ++it) {
    if (!first) out << ",";
    first = false;
    if (pretty) out << "\n" << pad1;
    out << nlohmann::json(it.key()).dump() << (pretty ? ": " : ":");
    if (it.key() == "stages") {
      write_stages(out, trace, indent);
    } else {
      out << shifted(it.value().dump(indent), pad1);
    }
  }
  if (pretty) out << "\n";
  out << "}";
}

}  // namespace attn::cli
