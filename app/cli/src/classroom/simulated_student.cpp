// A simulated student's identity and answer (see simulated_student.hpp).
#include "classroom/simulated_student.hpp"

#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace attn::cli {

namespace {

// splitmix64: spreads nearby (seed, index) pairs over unrelated streams, so
// student 1 and student 2 do not draw alike.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int positive_field(const nlohmann::json& question, const char* key) {
  const auto it = question.find(key);
  if (it == question.end() || !it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > 1000000)
    throw std::runtime_error(std::string("the question's \"") + key + "\" is missing or not a positive whole number");
  return static_cast<int>(it->get<long long>());
}

}  // namespace

std::string simulated_device(std::uint64_t seed, int index) {
  char id[32];
  std::snprintf(id, sizeof id, "sim-%04d-%08x", index, static_cast<unsigned>(mix(seed) & 0xFFFFFFFFu));
  return id;
}

std::string simulated_nickname(int index) { return "Sim " + std::to_string(index); }

std::mt19937_64 student_random(std::uint64_t seed, int index) { return std::mt19937_64(mix(seed ^ mix(static_cast<std::uint64_t>(index)))); }

nlohmann::json random_answer(const nlohmann::json& question, std::mt19937_64& random) {
  const auto form = question.find("form");
  if (!question.is_object() || form == question.end() || !form->is_string()) throw std::runtime_error("the question has no \"form\"");
  const std::string name = form->get<std::string>();
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  if (name == "choice") {
    const auto choices = question.find("choices");
    if (choices == question.end() || !choices->is_array() || choices->empty())
      throw std::runtime_error("the choice question has no \"choices\"");
    return {{"choice", pick(static_cast<int>(choices->size()))}};
  }
  if (name == "cell") return {{"row", pick(positive_field(question, "rows"))}, {"col", pick(positive_field(question, "cols"))}};
  // A guess at a weight or an output value: the lessons' numbers lie in [-1, 1].
  if (name == "number") return {{"number", std::uniform_real_distribution<double>(-1, 1)(random)}};
  throw std::runtime_error("unknown question form \"" + name + "\"");
}

}  // namespace attn::cli
