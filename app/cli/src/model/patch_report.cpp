// Runs activation patching (attn/hf/why/patching.hpp) on two prompts read
// as the other `attn model` commands read one, and prints it
// (patch_report.hpp). The tokens default to the two runs' own top guesses
// (chosen in the core from its own two runs): the difference between them
// is what the corruption changed.
#include "model/patch_report.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/why/patching.hpp"
#include "attn/text/format_number.hpp"
#include "cli_error.hpp"
#include "model/model_input.hpp"

namespace attn::cli {

int run_patching(const PatchOptions& o) {
  if (o.site != "heads" && o.site != "positions") throw CliError("--site: \"" + o.site + "\" is not heads or positions");
  const OpenedModel clean = open_model({o.dir, o.clean, o.clean_ids}, true);
  const OpenedModel corrupted = open_model({o.dir, o.corrupted, o.corrupted_ids}, true);
  if (clean.ids.size() != corrupted.ids.size())
    throw CliError("the clean prompt is " + std::to_string(clean.ids.size()) + " tokens and the corrupted one " +
                   std::to_string(corrupted.ids.size()) + ": patching needs prompts of the same length");
  hf::PatchingResult r;
  try {
    r = hf::patch_activations<float>(*clean.checkpoint, clean.ids, corrupted.ids, {o.answer, o.wrong, -1},
                                     o.site == "heads" ? hf::PatchSite::HeadOutput : hf::PatchSite::ResidualStream);
  } catch (const hf::ModelError& e) {
    throw CliError(std::string(e.what()) + (o.answer < 0 || o.wrong < 0 ? " (--answer and --wrong choose them)" : ""));
  }
  if (o.json) {
    std::cout << nlohmann::json({{"format", "attnviz-patching"}, {"version", 1}, {"site", o.site},
                                 {"answer", r.answer}, {"answer_text", clean.token_text(r.answer)},
                                 {"wrong", r.wrong}, {"wrong_text", clean.token_text(r.wrong)},
                                 {"clean", r.clean}, {"corrupted", r.corrupted}, {"patched", r.patched},
                                 {"recovered", r.recovered}, {"precision", "float32"}})
                     .dump(1)
              << "\n";
    return 0;
  }
  std::cout << "logit(\"" << clean.token_text(r.answer) << "\") - logit(\"" << clean.token_text(r.wrong)
            << "\") after the last token: clean " << format_number(r.clean) << ", corrupted "
            << format_number(r.corrupted) << ".\nShare of that difference each patch brings back (1 = all of it):\n\n";
  std::printf("%-6s", "layer");
  const std::size_t columns = r.recovered.empty() ? 0 : r.recovered[0].size();
  for (std::size_t c = 0; c < columns; ++c)
    std::printf(" %7s", (o.site == "heads" ? "H" + std::to_string(c) : "p" + std::to_string(c)).c_str());
  std::printf("\n");
  for (std::size_t l = 0; l < r.recovered.size(); ++l) {
    std::printf("%-6zu", l);
    for (double v : r.recovered[l]) std::printf(" %7.3f", v);
    std::printf("\n");
  }
  return 0;
}

}  // namespace attn::cli
