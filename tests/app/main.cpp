// doctest entry point for the app model-layer tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "../support/doctest_runner.hpp"

int main(int argc, char** argv) { return attnviz_test::run_tests(argc, argv); }
