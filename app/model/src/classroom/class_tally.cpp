// Tallies, the CSV and the reveal's judge. The judge is the lesson's own
// (lesson_answers.hpp), so a phone's answer is right exactly when the same
// answer in the window is.
#include "model/classroom/class_tally.hpp"

#include <algorithm>
#include <cmath>

#include "attn/text/format_number.hpp"
#include "model/lessons/lesson_answers.hpp"

namespace model {

ClassTally tally(const QuestionRecord& r, int number_bins) {
  ClassTally t;
  t.form = r.question.form;
  t.answers = static_cast<int>(r.answers.size());
  if (r.phase == QuestionPhase::Revealed) {
    t.right = 0;
    for (const auto& [device, a] : r.answers) t.right += a.right.value_or(false) ? 1 : 0;
    t.right_choice = r.right_choice;
    t.right_cells = r.right_cells;
  }
  switch (r.question.form) {
    case ClassQuestion::Form::Choice:
      t.choice_counts.assign(r.question.choices.size(), 0);
      for (const auto& [device, a] : r.answers) ++t.choice_counts[static_cast<size_t>(a.answer.choice)];
      break;
    case ClassQuestion::Form::Cell:
      t.cell_counts.assign(static_cast<size_t>(r.question.rows) * static_cast<size_t>(r.question.cols), 0);
      for (const auto& [device, a] : r.answers)
        ++t.cell_counts[static_cast<size_t>(a.answer.row) * static_cast<size_t>(r.question.cols) + static_cast<size_t>(a.answer.col)];
      break;
    case ClassQuestion::Form::Number: {
      if (r.phase == QuestionPhase::Revealed) t.truth = r.true_number;
      std::vector<double> values;
      for (const auto& [device, a] : r.answers) values.push_back(a.answer.number);
      if (t.truth) values.push_back(*t.truth);
      if (values.empty()) break;
      t.low = *std::min_element(values.begin(), values.end());
      t.high = *std::max_element(values.begin(), values.end());
      if (!(t.high > t.low)) {  // one value (or all equal): a bin of width one around it
        t.low -= 0.5;
        t.high += 0.5;
      }
      const int bins = std::max(1, number_bins);
      t.bins.assign(static_cast<size_t>(bins), 0);
      const double width = (t.high - t.low) / bins;
      for (const auto& [device, a] : r.answers) {
        const double at = (a.answer.number - t.low) / width;
        const int bin = std::clamp(static_cast<int>(std::floor(std::isfinite(at) ? at : 0.0)), 0, bins - 1);
        ++t.bins[static_cast<size_t>(bin)];
      }
      break;
    }
  }
  return t;
}

namespace {

std::string csv_field(const std::string& text) {
  std::string s = text;
  if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r')) s = "'" + s;
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string counts_text(const QuestionRecord& r, const ClassTally& t) {
  std::string out;
  const auto add = [&](const std::string& label, int n) { out += (out.empty() ? "" : "; ") + label + "=" + std::to_string(n); };
  switch (r.question.form) {
    case ClassQuestion::Form::Choice:
      for (size_t i = 0; i < t.choice_counts.size(); ++i) add(r.question.choices[i], t.choice_counts[i]);
      break;
    case ClassQuestion::Form::Cell:
      for (int row = 0; row < r.question.rows; ++row)
        for (int col = 0; col < r.question.cols; ++col) {
          const int n = t.cell_counts[static_cast<size_t>(row * r.question.cols + col)];
          if (n > 0) add("(" + std::to_string(row) + " " + std::to_string(col) + ")", n);
        }
      break;
    case ClassQuestion::Form::Number: {
      std::vector<double> v;
      for (const auto& [device, a] : r.answers) v.push_back(a.answer.number);
      if (v.empty()) break;
      std::sort(v.begin(), v.end());
      double sum = 0;
      for (const double x : v) sum += x;
      const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
      out = "mean=" + attn::format_number(sum / static_cast<double>(v.size()), 4) + "; median=" + attn::format_number(median, 4);
      if (t.truth) out += "; true=" + attn::format_number(*t.truth, 4);
      break;
    }
  }
  return out;
}

std::string answer_text(const ClassQuestion& q, const ClassAnswer& a) {
  switch (q.form) {
    case ClassQuestion::Form::Choice: return q.choices[static_cast<size_t>(a.choice)];
    case ClassQuestion::Form::Cell: return "(" + std::to_string(a.row) + " " + std::to_string(a.col) + ")";
    case ClassQuestion::Form::Number: return attn::format_number(a.number, 6);
  }
  return "";
}

}  // namespace

std::string session_csv(const ClassSession& s, bool nicknames) {
  std::string out = "step,form,phase,prompt,answers,right,share_right,counts\r\n";
  for (const QuestionRecord& r : s.asked()) {
    const ClassTally t = tally(r);
    const std::string share = t.right >= 0 && t.answers > 0 ? attn::format_number(static_cast<double>(t.right) / t.answers, 3) : "";
    out += std::to_string(r.question.step + 1) + "," + form_name(r.question.form) + "," + phase_name(r.phase) + "," +
           csv_field(r.question.prompt) + "," + std::to_string(t.answers) + "," + (t.right >= 0 ? std::to_string(t.right) : "") + "," +
           share + "," + csv_field(counts_text(r, t)) + "\r\n";
  }
  if (!nicknames) return out;
  out += "\r\nnickname,step,answer,right\r\n";
  for (const QuestionRecord& r : s.asked())
    for (const auto& [device, a] : r.answers) {
      const std::string& name = s.nickname(device);
      out += csv_field(name.empty() ? "(no nickname)" : name) + "," + std::to_string(r.question.step + 1) + "," +
             csv_field(answer_text(r.question, a.answer)) + "," + (a.right ? (*a.right ? "yes" : "no") : "") + "\r\n";
    }
  return out;
}

AnswerJudge lesson_judge(const attn::io::LessonQuestion& q, const attn::Trace& trace) {
  return [q, &trace](const ClassAnswer& a) {
    switch (q.kind) {
      case attn::io::LessonQuestion::Kind::Choice: return check_choice(q, a.choice).right;
      case attn::io::LessonQuestion::Kind::Cell: return check_cell(q, trace, a.row, a.col).right;
      case attn::io::LessonQuestion::Kind::Number: return check_number(q, trace, a.number).right;
      case attn::io::LessonQuestion::Kind::Head: return false;
    }
    return false;
  };
}

Truth lesson_truth(const attn::io::LessonQuestion& q, const attn::Trace& trace) {
  Truth t;
  switch (q.kind) {
    case attn::io::LessonQuestion::Kind::Choice: t.choice = q.answer; break;
    case attn::io::LessonQuestion::Kind::Cell: t.cells = right_cells(q, trace); break;
    case attn::io::LessonQuestion::Kind::Number: t.number = expected_number(q, trace); break;
    case attn::io::LessonQuestion::Kind::Head: break;
  }
  return t;
}

}  // namespace model
