// --stage/--head resolution with messages that list the valid choices.
#include "stage_choice.hpp"

#include <vector>

#include "attn/io/excerpt.hpp"
#include "cli_error.hpp"

namespace attn::cli {
namespace {

std::string stage_ids(const Trace& trace) {
  std::vector<StageKind> ids;
  for (const Stage& st : trace.stages) {
    bool seen = false;
    for (StageKind id : ids) seen = seen || id == st.id;
    if (!seen) ids.push_back(st.id);
  }
  std::string out;
  for (StageKind id : ids) out += (out.empty() ? "" : ", ") + to_string(id);
  return out;
}

}  // namespace

// Picks the stage named by --stage/--head, or explains which ones exist.
// The name is read through the stage table; a name that is no stage at all
// gets the same message as one this scene lacks.
const Stage& resolve_stage(const Trace& trace, const StageChoice& opts) {
  const std::optional<StageKind> kind = stage_kind_named(opts.stage);
  const Stage* any = nullptr;
  for (const Stage& st : trace.stages) {
    if (kind && st.id == *kind) {
      any = &st;
      break;
    }
  }
  if (!any) {
    throw CliError("--stage: unknown stage " + io::quoted_excerpt(opts.stage) + " (valid: " + stage_ids(trace) + ")");
  }
  const int n_heads = trace.dims.n_heads;
  if (any->head < 0) {
    if (opts.head_given) {
      throw CliError("--head: stage \"" + opts.stage + "\" is shared by all heads; leave out --head");
    }
    return *any;
  }
  if (!opts.head_given && n_heads > 1) {
    throw CliError("--head: stage \"" + opts.stage + "\" has one grid per head; pass --head 0 to " +
                   std::to_string(n_heads - 1));
  }
  const int head = opts.head_given ? opts.head : 0;
  const Stage* st = trace.find(*kind, head);
  if (!st && head >= 0 && head < n_heads && trace.dims.shares_kv(head)) {
    const int leader = trace.dims.kv_leader(head);
    throw CliError("--head: head " + std::to_string(head) + " has no stage \"" + opts.stage + "\" of its own: it reads " +
                   "the keys and values of head " + std::to_string(leader) + " (grouped-query attention); pass --head " +
                   std::to_string(leader));
  }
  if (!st) {
    throw CliError("--head: " + std::to_string(head) + " is out of range (the scenario has " +
                   std::to_string(n_heads) + (n_heads == 1 ? " head" : " heads") + ", 0 to " +
                   std::to_string(n_heads - 1) + ")");
  }
  return *st;
}

// CLI11 reads "0x1" and "1e0" as 1; an index is written in plain decimal.
const CLI::Validator kDecimal(
    [](std::string& text) -> std::string {
      const size_t digits = text.find_first_not_of("0123456789", text.rfind('-', 0) == 0 ? 1 : 0);
      const bool ok = !text.empty() && text != "-" && digits == std::string::npos;
      return ok ? std::string() : "expected a whole number in decimal, got \"" + text + "\"";
    },
    "INT");

const CLI::Validator kNonNegativeDecimal(
    [](std::string& text) -> std::string {
      const bool ok = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
      return ok ? std::string() : "expected a whole number, 0 or more, in decimal, got \"" + text + "\"";
    },
    "UINT");


}  // namespace attn::cli
