// The doctest entry point every test executable uses (included by exactly
// one file per executable, after DOCTEST_CONFIG_IMPLEMENT).
//
// CTest runs each test case on its own, as --test-case=NAME. A name that
// matches no test case used to pass with nothing run: a ';' in a name splits
// it into two CTest entries, neither of which matches anything. Here a
// filtered run that matches nothing is a failure that says so.
#pragma once

#include <cstdio>
#include <cstring>

namespace attnviz_test {

// Counts the test cases that passed the filters in the last run.
struct MatchCounter : doctest::IReporter {
  inline static unsigned matched = 0;
  explicit MatchCounter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override { matched = stats.numTestCasesPassingFilters; }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

inline const char* test_case_filter(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const char* prefix : {"--test-case=", "-tc="})
      if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return argv[i] + std::strlen(prefix);
  return nullptr;
}

inline int run_tests(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;  // --list-test-cases, --help and the like
  const char* filter = test_case_filter(argc, argv);
  if (filter && MatchCounter::matched == 0) {
    std::fprintf(stderr, "no test case matches --test-case=%s: nothing was run (is a ';' splitting a test case's name?)\n", filter);
    return 1;
  }
  return result;
}

}  // namespace attnviz_test

DOCTEST_REGISTER_LISTENER("match_counter", 0, attnviz_test::MatchCounter);
