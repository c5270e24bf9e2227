// `attn lesson check FILE`: reads a lesson, resolves every step's scene and
// checks every stage, cell and question against the real traces. Each
// problem is one "attn: FILE: steps[i].field: ..." line; exit 2 if any.
#include <iostream>
#include <memory>
#include <string>

#include "attn/io/lesson_file.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"

namespace attn::cli {

namespace {

int run_lesson_check(const std::string& path) {
  try {
    const io::LessonFile lesson = io::load_lesson(path);
    std::cout << "ok: \"" << lesson.title << "\": " << lesson.steps.size() << " steps, " << lesson.questions()
              << " questions\n";
    return kExitOk;
  } catch (const io::LessonError& e) {
    for (const std::string& problem : e.problems) std::cerr << "attn: " << one_line(problem) << "\n";
    return kExitBadInput;
  }
}

}  // namespace

void add_lesson_command(CLI::App& app, Action& action) {
  CLI::App* lesson = app.add_subcommand("lesson", "Work with lesson files (format \"attnviz-lesson\", see docs/lessons.md).");
  lesson->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  CLI::App* check = lesson->add_subcommand(
      "check", "Check a lesson: its scenes, edits, stages, cells and questions (exit 2 listing every problem).");
  check->add_option("file", *path, "Lesson file (JSON)")->required();
  check->callback([path, &action] { action = [path] { return run_lesson_check(*path); }; });
}

}  // namespace attn::cli
