// doctest entry point shared by the core test executables.
// Each suite is its own executable so CTest can run them in parallel.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
