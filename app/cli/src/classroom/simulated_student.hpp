// One simulated student of `attn class simulate`: its device id, nickname and
// the answer it gives. Pure functions of (seed, index) and the question as
// the server's /api/state shows it, so a run is repeatable with --seed and a
// second run with the same seed rejoins as the same devices (the server
// counts a rejoin as the same student; new ids would fill the class).
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace attn::cli {

// "sim-0007-1f2e3d4c": the index and a tag of the seed, of the form the
// server accepts (8 to 64 of [A-Za-z0-9_-]).
std::string simulated_device(std::uint64_t seed, int index);
std::string simulated_nickname(int index);

// A student's own random source, independent of the thread that runs it.
std::mt19937_64 student_random(std::uint64_t seed, int index);

// A random answer of the question's form ({"choice": i}, {"row", "col"} or
// {"number": x}), inside its range. Throws std::runtime_error naming what is
// missing when the question JSON has no usable form (an older server).
nlohmann::json random_answer(const nlohmann::json& question, std::mt19937_64& random);

}  // namespace attn::cli
