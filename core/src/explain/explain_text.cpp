// Plain-text rendering of an explanation (what `attn explain` prints); the
// numbers in it use the shared format (attn/text/format_number.hpp).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "attn/explain/explain.hpp"
#include "attn/text/format_number.hpp"

namespace attn {

std::string Explanation::to_text() const {
  std::ostringstream os;
  os << name_of(stage.id);
  if (stage.head >= 0) os << " (head " << stage.head << ")";
  os << " [" << row << "," << col << "] = " << format_number(value, 6) << "\n";
  os << "  " << formula << "\n";
  for (const ExplainStep& s : steps) {
    os << "  " << s.title << ":";
    const bool list_terms = !s.terms.empty() && s.title != "sum" && s.terms.size() <= 64;
    if (list_terms) {
      os << "\n";
      for (const Term& t : s.terms) {
        os << "    ";
        if (t.op == "exp" || t.op == "tanh" || t.op == "sin" || t.op == "cos")
          os << t.op << "(" << t.lhs_label << ") = " << t.op << "(" << format_number(t.lhs, 6) << ")";
        else if (t.op.empty())
          os << t.lhs_label;
        else
          os << t.lhs_label << " " << t.op << " " << t.rhs_label << " = " << format_number(t.lhs, 6) << " "
             << t.op << " " << format_number(t.rhs, 6);
        os << " = " << format_number(t.value, 6) << "\n";
      }
      // A single term already shows the whole calculation.
      if (!s.equation.empty() && s.terms.size() > 1) os << "    " << s.equation << "\n";
    } else {
      os << " " << s.equation << "\n";
    }
  }
  if (!note.empty()) os << "  note: " << note << "\n";
  return os.str();
}

}  // namespace attn
