// doctest entry point shared by the core test executables.
// Each suite is its own executable so CTest can run them in parallel.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "../support/doctest_runner.hpp"

int main(int argc, char** argv) { return attnviz_test::run_tests(argc, argv); }
