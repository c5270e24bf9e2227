// doctest entry point of the core tests (one executable for the layer;
// CTest runs its test cases in parallel).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "../support/doctest_runner.hpp"

int main(int argc, char** argv) { return attnviz_test::run_tests(argc, argv); }
