// The installed package's fast path. `make package` builds every program
// three times: for any x86-64 (SSE2, what /usr/bin holds, so the .deb runs
// on a lab machine without AVX2), for x86-64-v3 (AVX2 and FMA, in
// lib/attnviz/x86-64-v3 beside bin), whose products and exps run about 2.5
// times as fast, and for x86-64-v4 (AVX-512, lib/attnviz/x86-64-v4), whose
// double products run about 1.8 times as fast again. At start-up a program
// asks the CPU, and becomes the most capable copy the CPU runs that is
// installed (execv) with the same arguments. ATTNVIZ_EXE, set for the copy, names the program that was
// started: it finds the installed assets from there, and is never
// dispatched again. The copy takes it out of its environment, so the
// programs it starts do not inherit it.
#pragma once

#include <string>

namespace attn::launch {

// The tuned levels, most capable first.
inline constexpr const char* kTunedLevels[] = {"x86-64-v4", "x86-64-v3"};

// Where the tuned copy of the program at `exe` (…/bin/NAME) for `level` is
// installed: …/lib/attnviz/LEVEL/NAME.
std::string tuned_copy_path(const std::string& exe, const std::string& level = "x86-64-v3");

// Whether this CPU runs code built for `level`: x86-64-v3 (AVX, AVX2,
// BMI1/2, F16C, FMA, LZCNT, MOVBE) or x86-64-v4 (AVX-512 F, BW, CD, DQ, VL).
bool cpu_runs(const std::string& level);
bool cpu_runs_tuned_code();  // cpu_runs("x86-64-v3")

// Becomes the tuned copy when the CPU runs it, it is installed, and this is
// not the copy already; otherwise returns and the program goes on.
void run_tuned_copy_if_any(char** argv);

// The program the user started: ATTNVIZ_EXE when set, else this process's
// own executable ("" when unknown).
std::string started_program();

// The instruction set this program was built for: "x86-64-v4" (AVX-512),
// "x86-64-v3" (AVX2, FMA) or "x86-64" (any), for --version and the about box.
const char* built_for();

}  // namespace attn::launch
