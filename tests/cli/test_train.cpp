// `attn train`: a short copy run prints parseable progress and a final
// held-out accuracy that matches the training engine run here with the same
// settings (training is deterministic in the seed and the thread count); the
// model it saves reopens to the same weights; a layer exported as a scenario
// passes `attn check` and `attn explain` and holds the model's own numbers.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "run_attn.hpp"

using attn::cli::test::run_attn;

namespace {

std::string out_path(const std::string& name) {
  std::filesystem::create_directories(ATTN_CLI_TEST_TMP);
  const std::string p = std::string(ATTN_CLI_TEST_TMP) + "/" + name;
  std::filesystem::remove(p);
  return p;
}

// The number after "final held-out accuracy: ", or -1 when the line is missing.
double final_accuracy(const std::string& out) {
  const std::string key = "final held-out accuracy: ";
  const auto at = out.find(key);
  if (at == std::string::npos) return -1;
  std::istringstream in(out.substr(at + key.size()));
  double v = -1;
  in >> v;
  return v;
}

// Progress rows: lines before the final summary that start with a step number.
std::vector<int> progress_steps(const std::string& out) {
  std::vector<int> steps;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line) && line.rfind("final", 0) != 0) {
    std::istringstream in(line);
    int step = 0;
    std::string loss;
    double held_loss = 0, acc = 0;
    if (in >> step >> loss >> held_loss >> acc) steps.push_back(step);
  }
  return steps;
}

const std::vector<std::string> kCopyRun = {"train", "--task", "copy", "--vocab", "6", "--length", "4",
                                           "--d-model", "16", "--heads", "2", "--layers", "1", "--steps", "40",
                                           "--batch", "16", "--seed", "9", "--threads", "1", "--eval-every", "10"};

}  // namespace

TEST_CASE("train: a fixed-length copy run prints progress, the final accuracy and the head table") {
  const auto r = run_attn(kCopyRun);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(progress_steps(r.out) == std::vector<int>{0, 10, 20, 30, 40});
  const double acc = final_accuracy(r.out);
  CHECK(acc >= 0);
  CHECK(acc <= 1);
  // The same run through the library gives the same held-out accuracy (to the 4 decimals printed).
  attn::train::TrainConfig c;
  c.task = {attn::train::TaskKind::Copy, 6, 4, false};
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.model.n_layers = 1;
  c.batch = 16;
  c.seed = 9;
  c.threads = 1;
  attn::train::Trainer t(c);
  for (int i = 0; i < 40; ++i) t.step();
  CHECK(acc == doctest::Approx(t.evaluate().accuracy).epsilon(1e-4));
  CHECK(r.out.find("after 40 steps") != std::string::npos);
  const auto best = r.out.find("<- best induction head");
  REQUIRE(best != std::string::npos);
  // The one-layer model's table counts its layer from 0, as the Train view does.
  const auto line = r.out.rfind('\n', best) + 1;
  int layer = -1;
  std::istringstream(r.out.substr(line, best - line)) >> layer;
  CHECK(layer == 0);
}

TEST_CASE("train: --until stops at the first evaluation that reaches the accuracy") {
  std::vector<std::string> args = kCopyRun;
  args[14] = "2000";  // --steps: a cap, far above what is needed
  args.insert(args.end(), {"--until", "0.5"});
  const auto r = run_attn(args);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("reached held-out accuracy 0.5000 at step") != std::string::npos);
  CHECK(final_accuracy(r.out) >= 0.5);
  CHECK(progress_steps(r.out).back() < 2000);
}

TEST_CASE("train: -o writes a model file that reopens, and a layer exports to a scenario explain can read") {
  const std::string model = out_path("copy_model.json");
  std::vector<std::string> args = kCopyRun;
  args.insert(args.end(), {"-o", model});
  REQUIRE(run_attn(args).status == 0);
  const attn::io::ModelFile f = attn::io::load_model(model);
  CHECK(f.steps == 40);
  CHECK(f.config.task.kind == attn::train::TaskKind::Copy);
  CHECK(f.model.config.d_model == 16);

  const std::string scene = out_path("copy_layer.json");
  const auto e = run_attn({"train", "--model", model, "--input", "A B C D | A", "-o", scene});
  INFO(e.err);
  REQUIRE(e.status == 0);
  CHECK(run_attn({"check", scene}).status == 0);
  const auto x = run_attn({"explain", scene, "--stage", "weights", "--head", "1", "--row", "5", "--col", "1"});
  CHECK(x.status == 0);
  const attn::io::ScenarioFile s = attn::io::load_scenario(scene);
  CHECK(s.scenario.tokens == std::vector<std::string>{"A", "B", "C", "D", "|", "A"});
  CHECK(s.title.find("copy") != std::string::npos);
  CHECK(s.title.find("layer 0,") != std::string::npos);  // the default --layer, counted from 0 as everywhere
  const auto again = run_attn({"train", "--model", model, "--input", "A B", "--layer", "0", "-o", out_path("copy_layer0.json")});
  CHECK(again.status == 0);
  CHECK(again.out.find("layer 0 of the copy model") != std::string::npos);
  CHECK(s.description.find("40 steps") != std::string::npos);
  // Layer 0's input is the embedding plus positions: the exported x is the model's own numbers.
  const std::vector<int> ids = {0, 1, 2, 3, 6, 0};
  for (int t = 0; t < 6; ++t)
    for (int d = 0; d < 16; ++d)
      CHECK(s.scenario.x(t, d) == doctest::Approx(f.model.embed(ids[t], d) + f.model.positions(t, d)).epsilon(1e-12));
  CHECK(s.scenario.heads.size() == 2);
}
