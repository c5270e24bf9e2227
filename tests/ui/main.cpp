// doctest entry point for the UI tests (run under xvfb-run by CTest).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "../support/doctest_runner.hpp"

int main(int argc, char** argv) { return attnviz_test::run_tests(argc, argv); }
