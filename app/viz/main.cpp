// attnviz: the desktop app. Parses options, loads the scenario (or the
// built-in first lesson) and runs the App; explains itself when there is no
// display instead of crashing.
#include <cstdio>
#include <exception>

#include "app.hpp"
#include "app_actions.hpp"

int main(int argc, char** argv) {
  viz::Options options;
  if (std::optional<int> exit_code = viz::parse_options(argc, argv, options)) return *exit_code;

  viz::AppState state;
  viz::actions::open_builtin(state);
  if (!options.file.empty() && !viz::actions::open(state, options.file)) {
    std::fprintf(stderr, "attnviz: %s\n", state.message.c_str());
    if (options.headless()) return 1;  // scripts must notice; the window shows the message instead
  }
  try {
    viz::App app(options, std::move(state));
    return app.run();
  } catch (const viz::NoDisplayError& e) {
    std::fprintf(stderr,
                 "attnviz: %s. attnviz needs a graphical display; use `attn` for the command line "
                 "(e.g. `attn explain FILE`) or run under xvfb-run (e.g. `xvfb-run -a attnviz --screenshot out.png`).\n",
                 e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnviz: %s\n", e.what());
    return 1;
  }
}
