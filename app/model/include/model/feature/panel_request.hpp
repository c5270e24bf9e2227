// Which feature panels to show, asked by name from below the features (a
// lesson step, the command line) and carried out by the session, which
// holds them. Plain data, so the document can hold a request.
#pragma once

#include <string>
#include <vector>

namespace model {

// `only`: exactly these, the rest hidden (a lesson step's panels are its
// content, not left over from the step before); otherwise these as well
// (the command line's --panel).
struct PanelRequest {
  std::vector<std::string> names;
  bool only = true;
};

}  // namespace model
