// Answer checks. A tolerance is compared with a tiny allowance for the
// decimal the student typed (0.34 is not exactly representable), so an
// answer exactly at the stated tolerance counts as right.
#include "model/lessons/lesson_answers.hpp"

#include <algorithm>
#include <cmath>

#include "attn/text/format_number.hpp"

namespace model {
namespace {

using attn::io::LessonQuestion;

std::string num(double v) { return attn::format_number(v, 4); }

std::string cell_name(const attn::Stage& s, int r, int c) {
  std::string name = s.title + " [" + std::to_string(r) + ", " + std::to_string(c) + "]";
  if (r < static_cast<int>(s.row_labels.size()) && c < static_cast<int>(s.col_labels.size()))
    name += " (" + s.row_labels[static_cast<size_t>(r)] + " → " + s.col_labels[static_cast<size_t>(c)] + ")";
  return name;
}

bool in_target(const LessonQuestion& q, int r, int c) {
  return (q.target.row < 0 || q.target.row == r) && (q.target.col < 0 || q.target.col == c);
}

}  // namespace

const attn::Stage* lesson_stage(const attn::Trace& trace, const attn::io::CellSpec& spec) {
  if (spec.head >= 0) return trace.find_named(spec.stage, spec.head);
  if (const attn::Stage* s = trace.find_named(spec.stage, -1)) return s;
  return trace.find_named(spec.stage, 0);
}

std::vector<std::pair<int, int>> right_cells(const LessonQuestion& q, const attn::Trace& trace) {
  if (q.rule == LessonQuestion::Rule::Cells) return q.cells;
  const attn::Stage* s = lesson_stage(trace, q.target);
  if (!s) return {};
  double best = q.rule == LessonQuestion::Rule::Max ? -INFINITY : INFINITY;
  std::vector<std::pair<int, int>> out;
  for (int r = 0; r < s->value.rows(); ++r)
    for (int c = 0; c < s->value.cols(); ++c) {
      if (!in_target(q, r, c)) continue;
      const double v = s->value(r, c);
      const bool better = q.rule == LessonQuestion::Rule::Max ? v > best : v < best;
      if (better) out.clear(), best = v;
      if (better || v == best) out.emplace_back(r, c);
    }
  return out;
}

Verdict check_cell(const LessonQuestion& q, const attn::Trace& trace, int row, int col) {
  const attn::Stage* s = lesson_stage(trace, q.target);
  if (!s || !in_target(q, row, col)) return {false, "Pick a cell in the place the question asks about."};
  const std::vector<std::pair<int, int>> right = right_cells(q, trace);
  const bool ok = std::find(right.begin(), right.end(), std::make_pair(row, col)) != right.end();
  const double picked = s->value(row, col);
  if (ok) return {true, "Right: " + cell_name(*s, row, col) + " = " + num(picked) + "."};
  if (right.empty() || q.rule == LessonQuestion::Rule::Cells) return {false, "Not this one: try another cell."};
  const char* word = q.rule == LessonQuestion::Rule::Min ? "smaller" : "larger";
  // No numbers yet: the grid is still hidden and the student may try again.
  return {false, "Not quite: another cell there is " + std::string(word) + " than " + cell_name(*s, row, col) + "."};
}

double expected_number(const LessonQuestion& q, const attn::Trace& trace) {
  if (q.number) return *q.number;
  const attn::Stage* s = lesson_stage(trace, q.target);
  return s ? s->value(q.target.row, q.target.col) : 0.0;
}

Verdict check_number(const LessonQuestion& q, const attn::Trace& trace, double value) {
  const double truth = expected_number(q, trace);
  const double off = std::abs(value - truth);
  const double slack = 1e-9 * std::max(1.0, std::abs(truth));
  if (std::isfinite(value) && off <= q.tolerance + slack)
    return {true, "Right: the value is " + num(truth) + (off > 0 ? " (you were within " + num(q.tolerance) + ")." : ".")};
  return {false, "Not quite: " + num(value) + " is " + (value > truth ? "too high" : "too low") +
                     ". Answers within " + num(q.tolerance) + " of the value count."};
}

Verdict check_choice(const LessonQuestion& q, int index) {
  if (index == q.answer) return {true, "Right."};
  return {false, "Not this one."};
}

std::vector<int> hidden_stages(const LessonQuestion& q, const attn::Trace& trace) {
  std::vector<int> hidden;
  if (q.hide_given) {
    for (size_t i = 0; i < trace.stages.size(); ++i)
      if (std::find(q.hide.begin(), q.hide.end(), name_of(trace.stages[i].id)) != q.hide.end())
        hidden.push_back(static_cast<int>(i));
    return hidden;
  }
  // A choice names no stage; a head question is asked about the Train view.
  if (q.kind == LessonQuestion::Kind::Choice || q.kind == LessonQuestion::Kind::Head) return hidden;
  const attn::Stage* asked = lesson_stage(trace, q.target);
  if (!asked) return hidden;
  // Trace order is computation order: one pass finds everything downstream.
  std::vector<bool> mark(trace.stages.size(), false);
  for (size_t i = 0; i < trace.stages.size(); ++i) {
    const attn::Stage& s = trace.stages[i];
    bool down = &s == asked;
    for (const attn::StageRef& in : s.inputs) {
      const int j = trace.index_of(in);
      down = down || (j >= 0 && mark[static_cast<size_t>(j)]);
    }
    mark[i] = down;
    if (down) hidden.push_back(static_cast<int>(i));
  }
  return hidden;
}

}  // namespace model
