// doctest entry point for the attn_hf tests; the test cases live in the
// test_*.cpp files next to this one.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "../support/doctest_runner.hpp"

int main(int argc, char** argv) { return attnviz_test::run_tests(argc, argv); }
