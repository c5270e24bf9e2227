// doctest entry point for the `attn` executable tests; the cases live in the
// test_*.cpp files next to this one.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
