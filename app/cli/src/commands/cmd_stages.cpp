// `attn stages FILE`: lists the stages of the computed trace (id, head,
// shape, title, formula), i.e. the valid arguments for `attn explain`.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include "commands/commands.hpp"
#include "loaded_scenario.hpp"

namespace attn::cli {

namespace {

int run_stages(const std::string& path) {
  const LoadedScenario loaded = load_and_compute(path);
  std::size_t id_width = 5;
  for (const Stage& st : loaded.trace.stages) id_width = std::max(id_width, name_of(st.id).size());
  std::cout << std::left << std::setw(static_cast<int>(id_width)) << "stage" << "  head  "
            << std::setw(11) << "shape" << "  formula\n";
  for (const Stage& st : loaded.trace.stages) {
    const std::string head = st.head < 0 ? "-" : std::to_string(st.head);
    const std::string shape = std::to_string(st.value.rows()) + "x" + std::to_string(st.value.cols());
    std::cout << std::setw(static_cast<int>(id_width)) << name_of(st.id) << "  " << std::setw(4) << head << "  "
              << std::setw(11) << shape << "  " << st.formula << "\n";
  }
  return 0;
}

}  // namespace

void add_stages_command(CLI::App& app, Action& action) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "stages", "List the stages of the computation (id, head, rows x cols, formula).");
  cmd->add_option("file", *path, "Scenario file (JSON, format \"attnviz-scenario\")")->required();
  cmd->callback([path, &action] { action = [path] { return run_stages(*path); }; });
}

}  // namespace attn::cli
