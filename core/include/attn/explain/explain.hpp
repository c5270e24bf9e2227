// Explains one cell of one stage with its actual arithmetic.
// Returned as structured data (terms, steps, source regions) so the app can
// render and highlight it; to_text() gives the plain form the CLI prints.
#pragma once

#include <string>
#include <vector>

#include "attn/compute/trace.hpp"

namespace attn {

// A rectangle of cells in a stage that the explained cell was computed from,
// e.g. row i of Q or column j of K. Inclusive-exclusive bounds.
struct SourceRegion {
  StageRef stage;
  int row0 = 0, row1 = 0;
  int col0 = 0, col1 = 0;
};

// One elementary operation in an explanation: lhs op rhs = value,
// e.g. "q[0,1] × k[2,1]" = 0.3 × -1.2 = -0.36. For unary steps rhs is unused.
struct Term {
  std::string lhs_label;
  double lhs = 0;
  std::string op;  // "×", "+", "÷", "exp", "tanh", ...
  std::string rhs_label;
  double rhs = 0;
  double value = 0;
};

// A named step: a list of terms and the result they lead to,
// e.g. "products" then "sum", or "row max", "exp", "row sum", "quotient".
struct ExplainStep {
  std::string title;
  std::vector<Term> terms;
  std::string equation;  // one-line summary with numbers
  double result = 0;
};

struct Explanation {
  StageRef stage;
  int row = 0, col = 0;
  double value = 0;         // the cell's value (may be -inf for masked logits)
  std::string formula;      // symbolic, e.g. "scores[i,j] = q_i · k_j"
  std::vector<ExplainStep> steps;
  std::vector<SourceRegion> sources;
  std::string note;         // e.g. "blocked by the causal mask"

  std::string to_text() const;
};

// Throws std::out_of_range naming the problem when the stage, head or cell
// does not exist.
Explanation explain(const Trace& trace, const Scenario& scenario,
                    const StageRef& stage, int row, int col);

}  // namespace attn
