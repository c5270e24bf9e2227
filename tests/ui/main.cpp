// doctest entry point for the UI tests (run under xvfb-run by CTest).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
