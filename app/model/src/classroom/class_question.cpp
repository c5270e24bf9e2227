// Questions in their phone form, and answers checked against that form
// before they count: a student's request is untrusted input.
#include "model/classroom/class_question.hpp"

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "model/lessons/lesson_answers.hpp"
#include "model/lessons/rich_text.hpp"

namespace model {

const char* form_name(ClassQuestion::Form f) {
  switch (f) {
    case ClassQuestion::Form::Choice: return "choice";
    case ClassQuestion::Form::Cell: return "cell";
    case ClassQuestion::Form::Number: return "number";
  }
  return "choice";
}

std::optional<ClassQuestion> class_question(const attn::io::LessonStep& step, int index, const attn::Trace& trace, std::string* why) {
  if (!step.question) {
    *why = "step " + std::to_string(index + 1) + " asks no question";
    return std::nullopt;
  }
  const attn::io::LessonQuestion& q = *step.question;
  ClassQuestion out;
  out.step = index;
  // A phone shows plain text: the lesson's *emphasis* and `math` markers
  // would show as stray characters.
  out.prompt = plain_text(parse_rich_text(q.prompt));
  switch (q.kind) {
    case attn::io::LessonQuestion::Kind::Choice:
      out.form = ClassQuestion::Form::Choice;
      for (const std::string& choice : q.choices) out.choices.push_back(plain_text(parse_rich_text(choice)));
      return out;
    case attn::io::LessonQuestion::Kind::Number:
      out.form = ClassQuestion::Form::Number;
      return out;
    case attn::io::LessonQuestion::Kind::Cell: {
      const attn::Stage* stage = lesson_stage(trace, q.target);
      if (!stage) {
        *why = "step " + std::to_string(index + 1) + " asks about " + q.target.stage + ", which this scene does not compute";
        return std::nullopt;
      }
      out.form = ClassQuestion::Form::Cell;
      out.grid = stage->title;
      out.rows = static_cast<int>(stage->value.rows());
      out.cols = static_cast<int>(stage->value.cols());
      out.row_labels = stage->row_labels.vec();
      out.col_labels = stage->col_labels.vec();
      out.row_labels.resize(static_cast<size_t>(out.rows));
      out.col_labels.resize(static_cast<size_t>(out.cols));
      return out;
    }
    case attn::io::LessonQuestion::Kind::Head:
      *why = "step " + std::to_string(index + 1) + " asks for a head of the Train view, answered on the projector";
      return std::nullopt;
  }
  *why = "unknown question";
  return std::nullopt;
}

std::string answer_problem(const ClassQuestion& q, const ClassAnswer& a) {
  switch (q.form) {
    case ClassQuestion::Form::Choice:
      if (a.choice < 0 || a.choice >= static_cast<int>(q.choices.size()))
        return "choice " + std::to_string(a.choice + 1) + " of " + std::to_string(q.choices.size());
      return "";
    case ClassQuestion::Form::Cell:
      if (a.row < 0 || a.row >= q.rows || a.col < 0 || a.col >= q.cols)
        return "cell (" + std::to_string(a.row) + ", " + std::to_string(a.col) + ") is outside the " + std::to_string(q.rows) + "x" +
               std::to_string(q.cols) + " grid";
      return "";
    case ClassQuestion::Form::Number:
      // A bound keeps the histogram's range finite (no inf - -inf).
      if (!std::isfinite(a.number)) return "not a number";
      if (std::fabs(a.number) > 1e12) return "a number beyond 1e12 in size";
      return "";
  }
  return "unknown form";
}

nlohmann::json answer_json(const ClassQuestion& q, const ClassAnswer& a) {
  switch (q.form) {
    case ClassQuestion::Form::Choice: return {{"choice", a.choice}};
    case ClassQuestion::Form::Cell: return {{"row", a.row}, {"col", a.col}};
    case ClassQuestion::Form::Number: return {{"number", a.number}};
  }
  return nlohmann::json::object();
}

std::string read_answer(const ClassQuestion& q, const nlohmann::json& j, ClassAnswer* out) {
  if (!j.is_object()) return "an answer is a JSON object";
  const auto integer = [&](const char* key, int* v) -> std::string {
    const auto it = j.find(key);
    if (it == j.end()) return std::string("\"") + key + "\" is missing";
    if (!it->is_number_integer()) return std::string("\"") + key + "\" is not a whole number";
    const long long x = it->get<long long>();
    if (x < -1000000 || x > 1000000) return std::string("\"") + key + "\" is out of range";
    *v = static_cast<int>(x);
    return "";
  };
  ClassAnswer a;
  std::string problem;
  switch (q.form) {
    case ClassQuestion::Form::Choice:
      problem = integer("choice", &a.choice);
      break;
    case ClassQuestion::Form::Cell:
      problem = integer("row", &a.row);
      if (problem.empty()) problem = integer("col", &a.col);
      break;
    case ClassQuestion::Form::Number: {
      const auto it = j.find("number");
      if (it == j.end()) problem = "\"number\" is missing";
      else if (!it->is_number()) problem = "\"number\" is not a number";
      else a.number = it->get<double>();
      break;
    }
  }
  if (problem.empty()) problem = answer_problem(q, a);
  if (problem.empty()) *out = a;
  return problem;
}

nlohmann::json question_json(const ClassQuestion& q) {
  nlohmann::json j = {{"step", q.step}, {"form", form_name(q.form)}, {"prompt", q.prompt}};
  if (q.form == ClassQuestion::Form::Choice) j["choices"] = q.choices;
  if (q.form == ClassQuestion::Form::Cell) {
    j["grid"] = q.grid;
    j["rows"] = q.rows;
    j["cols"] = q.cols;
    j["row_labels"] = q.row_labels;
    j["col_labels"] = q.col_labels;
  }
  return j;
}

std::optional<int> whole_number(const nlohmann::json& v, int low, int high) {
  if (v.is_number_unsigned()) {
    const auto n = v.get<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(high) || (low > 0 && n < static_cast<std::uint64_t>(low))) return std::nullopt;
    return static_cast<int>(n);
  }
  if (!v.is_number_integer()) return std::nullopt;
  const auto n = v.get<std::int64_t>();
  if (n < low || n > high) return std::nullopt;
  return static_cast<int>(n);
}

std::string read_question(const nlohmann::json& j, ClassQuestion* out) {
  try {
    ClassQuestion q;
    const std::optional<int> step = whole_number(j.at("step"), 0, 1 << 20);
    if (!step) return "a question's step is not a whole number from 0";
    q.step = *step;
    const std::string form = j.at("form").get<std::string>();
    if (form == "choice") q.form = ClassQuestion::Form::Choice;
    else if (form == "cell") q.form = ClassQuestion::Form::Cell;
    else if (form == "number") q.form = ClassQuestion::Form::Number;
    else return "unknown question form \"" + form + "\"";
    q.prompt = j.at("prompt").get<std::string>();
    if (q.form == ClassQuestion::Form::Choice) q.choices = j.at("choices").get<std::vector<std::string>>();
    if (q.form == ClassQuestion::Form::Cell) {
      q.grid = j.at("grid").get<std::string>();
      const std::optional<int> rows = whole_number(j.at("rows"), 1, 4096), cols = whole_number(j.at("cols"), 1, 4096);
      if (!rows || !cols) return "a cell question's grid is not 1 to 4096 rows and columns";
      q.rows = *rows;
      q.cols = *cols;
      q.row_labels = j.at("row_labels").get<std::vector<std::string>>();
      q.col_labels = j.at("col_labels").get<std::vector<std::string>>();
      if (q.rows < 1 || q.cols < 1 || q.rows > 4096 || q.cols > 4096 || q.row_labels.size() != static_cast<size_t>(q.rows) ||
          q.col_labels.size() != static_cast<size_t>(q.cols))
        return "a cell question's grid shape and labels do not agree";
    }
    if (q.step < 0) return "a question's step is negative";
    *out = std::move(q);
    return "";
  } catch (const nlohmann::json::exception& e) {
    return std::string("a saved question is malformed: ") + e.what();
  }
}

}  // namespace model
