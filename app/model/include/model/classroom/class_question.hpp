// A lesson question as a student's phone shows it, and a student's answer
// to it. The phone sees only what the question needs: the prompt, the
// choices, or the asked grid's shape and its row and column labels, never
// the grid's values (they would give the answer away). Pure data, built from
// the lesson step and the trace the projector shows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "attn/compute/trace.hpp"
#include "attn/io/lesson_file.hpp"

namespace model {

struct ClassQuestion {
  enum class Form { Choice, Cell, Number };
  int step = -1;  // the lesson step it belongs to (0-based)
  Form form = Form::Choice;
  std::string prompt;
  std::vector<std::string> choices;                 // Choice
  std::string grid;                                 // Cell: the asked grid's name ("weights, head 1")
  int rows = 0, cols = 0;                           // Cell: its shape
  std::vector<std::string> row_labels, col_labels;  // Cell: one per row and column
};

// "choice", "cell" or "number": the form's name on the wire and in the CSV.
const char* form_name(ClassQuestion::Form f);

// What one student sent: the field of the question's form is used.
struct ClassAnswer {
  int choice = -1;
  int row = -1, col = -1;
  double number = 0;
};

// Step `index`'s question in its phone form. Empty, with `why` set, when the
// step asks nothing or its question cannot be answered from a phone (a
// "which head" question is answered by clicking the Train view).
std::optional<ClassQuestion> class_question(const attn::io::LessonStep& step, int index, const attn::Trace& trace, std::string* why);

// "" when `answer` fits the question's form and range, else why not
// ("choice 7 of 4", "cell (9, 0) is outside the 4x4 grid", "not a number").
std::string answer_problem(const ClassQuestion& q, const ClassAnswer& answer);

// The answer in the question's form, as the phone sends it and autosave keeps
// it: {"choice": 2}, {"row": 1, "col": 3} or {"number": 0.25}.
nlohmann::json answer_json(const ClassQuestion& q, const ClassAnswer& answer);
// Reads an answer in the question's form; "" or what is wrong with it.
std::string read_answer(const ClassQuestion& q, const nlohmann::json& j, ClassAnswer* out);

// A whole number within [low, high] read from JSON, or nothing: a float, a
// string or a number out of range (converting 1e19 to an int is undefined,
// and a damaged autosave may hold one).
std::optional<int> whole_number(const nlohmann::json& v, int low, int high);

nlohmann::json question_json(const ClassQuestion& q);
// Reads a question back (autosave); "" or what is wrong with it.
std::string read_question(const nlohmann::json& j, ClassQuestion* out);

}  // namespace model
