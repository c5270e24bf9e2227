// Task rules, checked sequence by sequence on generated batches.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "train_helpers.hpp"

using namespace attn::train;
using namespace attn::train::testing;

namespace {

Batch draw(const TaskSpec& task, int count = 40, std::uint64_t seed = 3) {
  std::mt19937_64 rng(seed);
  return make_batch(task, count, rng);
}

void check_shapes(const TaskSpec& task, const Batch& b) {
  REQUIRE(b.tokens.cols() == sequence_length(task));
  REQUIRE(b.target.cols() == b.tokens.cols());
  REQUIRE(b.scored.cols() == b.tokens.cols());
  CHECK(b.tokens.minCoeff() >= 0);
  CHECK(b.tokens.maxCoeff() <= task.vocab);
  CHECK(b.target.minCoeff() >= 0);
  CHECK(b.target.maxCoeff() <= task.vocab);
}

// The second half (after the marker) for copy, reverse and sort.
void check_sequence_task(TaskKind kind) {
  const TaskSpec task = task_of(kind, 7, 6);
  const Batch b = draw(task);
  check_shapes(task, b);
  CHECK(b.tokens.cols() == 12);
  const int L = task.length;
  for (int row = 0; row < b.size(); ++row) {
    std::vector<int> s(L);
    for (int t = 0; t < L; ++t) s[t] = b.tokens(row, t);
    std::vector<int> want = s;
    if (kind == TaskKind::Reverse) std::reverse(want.begin(), want.end());
    if (kind == TaskKind::Sort) std::sort(want.begin(), want.end());
    CHECK(b.tokens(row, L) == task.vocab);
    CHECK(b.target(row, L - 1) == task.vocab);
    for (int i = 0; i < L; ++i) {
      CHECK(b.target(row, L + i) == want[i]);
      if (i + 1 < L) CHECK(b.tokens(row, L + 1 + i) == want[i]);
    }
    for (int t = 0; t < 2 * L; ++t) CHECK(b.scored(row, t) == (t >= L));
  }
}

}  // namespace

TEST_CASE("tasks: copy, reverse and sort write the answer after the separator") {
  check_sequence_task(TaskKind::Copy);
  check_sequence_task(TaskKind::Reverse);
  check_sequence_task(TaskKind::Sort);
}

TEST_CASE("tasks: previous-token targets the token one back") {
  const TaskSpec task = task_of(TaskKind::PreviousToken, 5, 9);
  const Batch b = draw(task);
  check_shapes(task, b);
  CHECK(b.tokens.cols() == 9);
  CHECK(b.tokens.maxCoeff() < task.vocab);  // no markers in this task
  for (int row = 0; row < b.size(); ++row) {
    CHECK_FALSE(b.scored(row, 0));
    CHECK(b.target(row, 0) == 0);
    for (int t = 1; t < 9; ++t) {
      CHECK(b.scored(row, t));
      CHECK(b.target(row, t) == b.tokens(row, t - 1));
    }
  }
}

TEST_CASE("tasks: induction repeats distinct tokens and scores the second copy") {
  const TaskSpec task = task_of(TaskKind::Induction, 16, 6);
  const Batch b = draw(task);
  check_shapes(task, b);
  CHECK(b.tokens.cols() == 12);
  for (int row = 0; row < b.size(); ++row) {
    std::set<int> distinct;
    for (int t = 0; t < 6; ++t) {
      distinct.insert(b.tokens(row, t));
      CHECK(b.tokens(row, t + 6) == b.tokens(row, t));
    }
    CHECK(distinct.size() == 6);
    CHECK(*distinct.rbegin() < task.vocab);
    for (int t = 0; t < 11; ++t) CHECK(b.target(row, t) == b.tokens(row, t + 1));
    CHECK(b.target(row, 11) == task.vocab);
    for (int t = 0; t < 12; ++t) CHECK(b.scored(row, t) == (t >= 6 && t <= 10));
  }
  // As many tokens as symbols: every symbol once in each half.
  const Batch full = draw(task_of(TaskKind::Induction, 5, 5));
  for (int row = 0; row < full.size(); ++row) {
    std::set<int> seen;
    for (int t = 0; t < 5; ++t) seen.insert(full.tokens(row, t));
    CHECK(seen.size() == 5);
  }
  // More tokens than symbols would repeat a symbol and make the next token
  // ambiguous: refused with the limit.
  CHECK(validate_task(task_of(TaskKind::Induction, 3, 5)) ==
        "length: induction needs every symbol of the first half to be different, so 1 to 3 for vocab 3, got 5");
  CHECK_THROWS_AS(draw(task_of(TaskKind::Induction, 3, 5)), std::invalid_argument);
}

TEST_CASE("tasks: induction with a random offset puts fillers before the first copy and between the copies") {
  const TaskSpec task = task_of(TaskKind::Induction, 16, 8, true);
  const Batch b = draw(task, 200);
  check_shapes(task, b);
  CHECK(b.tokens.cols() == 8 * 2 + 4);
  std::set<int> prefixes, gaps;
  for (int row = 0; row < b.size(); ++row) {
    int p = 0;
    while (b.tokens(row, p) == task.vocab) ++p;
    int g = 0;
    while (b.tokens(row, p + 8 + g) == task.vocab) ++g;
    CHECK(p + g <= 4);
    prefixes.insert(p);
    gaps.insert(g);
    const int second = p + 8 + g;  // where the repeat starts
    for (int t = 0; t < 8; ++t) CHECK(b.tokens(row, second + t) == b.tokens(row, p + t));
    for (int t = second + 8; t < 20; ++t) CHECK(b.tokens(row, t) == task.vocab);
    for (int t = 0; t < 19; ++t) CHECK(b.target(row, t) == b.tokens(row, t + 1));
    for (int t = 0; t < 20; ++t) CHECK(b.scored(row, t) == (t >= second && t <= second + 6));
  }
  // Every offset and every distance between the copies occurs in 200 draws:
  // neither where the repeat is nor how far back its copy lies is fixed.
  CHECK(prefixes.size() == 5);
  CHECK(gaps.size() == 5);
}

TEST_CASE("tasks: key-value asks for the value of one earlier key") {
  const TaskSpec task = task_of(TaskKind::KeyValue, 12, 5);
  const Batch b = draw(task);
  check_shapes(task, b);
  CHECK(b.tokens.cols() == 11);
  for (int row = 0; row < b.size(); ++row) {
    std::set<int> keys;
    int answer = -1;
    for (int i = 0; i < 5; ++i) {
      const int k = b.tokens(row, 2 * i), v = b.tokens(row, 2 * i + 1);
      CHECK(k < 6);
      CHECK(v >= 6);
      CHECK(v < 12);
      keys.insert(k);
      if (k == b.tokens(row, 10)) answer = v;
    }
    CHECK(keys.size() == 5);
    CHECK(answer >= 0);
    CHECK(b.target(row, 10) == answer);
    for (int t = 0; t < 11; ++t) CHECK(b.scored(row, t) == (t == 10));
    for (int t = 0; t < 10; ++t) CHECK(b.target(row, t) == b.tokens(row, t + 1));
  }
}

TEST_CASE("tasks: the held-out set is reproducible and apart from training") {
  const TaskSpec task = task_of(TaskKind::Copy, 10, 6);
  const Batch a = held_out_batch(task, 30, 9), b = held_out_batch(task, 30, 9);
  CHECK(a.tokens == b.tokens);
  CHECK(a.target == b.target);
  const Batch training = draw(task, 30, 9);
  CHECK(training.tokens != a.tokens);
  CHECK(held_out_batch(task, 30, 10).tokens != a.tokens);
}

TEST_CASE("tasks: names, rules and token names") {
  for (TaskKind k : {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::PreviousToken,
                     TaskKind::Induction, TaskKind::KeyValue}) {
    CHECK(task_from_name(task_name(k)) == k);
    CHECK_FALSE(task_rule(k).empty());
  }
  CHECK_THROWS_AS(task_from_name("copying"), std::invalid_argument);
  const TaskSpec copy = task_of(TaskKind::Copy, 30, 4);
  CHECK(model_vocab(copy) == 31);
  CHECK(token_name(copy, 0) == "A");
  CHECK(token_name(copy, 25) == "Z");
  CHECK(token_name(copy, 26) == "t26");
  CHECK(token_name(copy, 30) == "|");
  CHECK(token_name(task_of(TaskKind::Induction, 30, 4), 30) == ".");
  CHECK(token_name(task_of(TaskKind::KeyValue, 30, 4), 30) == "|");
  CHECK(parse_tokens(copy, "A t27  | Z") == std::vector<int>{0, 27, 30, 25});
  CHECK_THROWS_WITH_AS(parse_tokens(copy, "A t31"), "tokens: unknown token \"t31\" for copy with vocab 30",
                       std::invalid_argument);
  try {  // a pasted paragraph is not repeated whole
    parse_tokens(copy, std::string(5000, 'Z'));
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.size() < 150);
    CHECK(what.find("(5000 characters)") != std::string::npos);
  }
}
