// The trained-model file: a model trained a few steps, saved and reopened,
// must predict bit for bit what it did before (every double round-trips);
// each file of the malformed corpus (tests/data/malformed_models) must be
// refused with a message naming the field and the problem.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "attn/io/model_file.hpp"
#include "attn/io/text_file.hpp"

namespace fs = std::filesystem;
using attn::io::ModelFile;
using namespace attn::train;

namespace {

TrainConfig small_config(bool learned, bool mlp) {
  TrainConfig c;
  c.task.kind = TaskKind::Copy;
  c.task.vocab = 5;
  c.task.length = 4;
  c.model.d_model = 16;
  c.model.n_heads = 2;
  c.model.n_layers = 2;
  c.model.learned_positions = learned;
  c.model.mlp = mlp;
  c.batch = 8;
  c.held_out = 16;
  c.threads = 1;
  c.seed = 42;
  return c;
}

ModelFile trained_file(bool learned, bool mlp) {
  Trainer trainer(small_config(learned, mlp));
  for (int i = 0; i < 3; ++i) trainer.step();
  return ModelFile{trainer.config(), trainer.model(), trainer.steps_done()};
}

// Largest |a - b| over all logits of the held-out sequences; 0 means bit-identical.
double logit_difference(const Model& a, const Model& b, const Batch& batch) {
  double worst = 0;
  for (int s = 0; s < batch.size(); ++s) {
    std::vector<int> tokens(batch.tokens.cols());
    for (Eigen::Index t = 0; t < batch.tokens.cols(); ++t) tokens[static_cast<std::size_t>(t)] = batch.tokens(s, t);
    const attn::Mat la = forward(a, tokens).logits, lb = forward(b, tokens).logits;
    REQUIRE(la.rows() == lb.rows());
    REQUIRE(la.cols() == lb.cols());
    worst = std::max(worst, (la - lb).cwiseAbs().maxCoeff());
  }
  return worst;
}

void check_same_weights(ModelFile& a, ModelFile& b) {
  auto pa = parameters(a.model), pb = parameters(b.model);
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) {
    INFO(pa[i].name);
    CHECK(pa[i].name == pb[i].name);
    CHECK(pa[i].value == pb[i].value);  // exact, not approximate
  }
  CHECK(a.model.positions == b.model.positions);
}

}  // namespace

TEST_CASE("model file: save and reopen gives identical weights and bit-identical logits") {
  const fs::path dir = fs::path(ATTN_IO_TEST_TMP) / "model_round_trip";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const bool learned : {true, false}) {
    for (const bool mlp : {false, true}) {
      CAPTURE(learned);
      CAPTURE(mlp);
      ModelFile before = trained_file(learned, mlp);
      const std::string path = (dir / "model.json").string();
      attn::io::save_model(path, before);
      ModelFile after = attn::io::load_model(path);
      CHECK(after.steps == 3);
      CHECK(after.config.task.kind == TaskKind::Copy);
      CHECK(after.config.task.length == 4);
      CHECK(after.config.seed == 42);
      CHECK(after.config.batch == 8);
      CHECK(after.config.learning_rate == before.config.learning_rate);
      CHECK(after.model.config.learned_positions == learned);
      CHECK(after.model.config.mlp == mlp);
      check_same_weights(before, after);
      const Batch held = held_out_batch(before.config.task, 8, 5);
      CHECK(logit_difference(before.model, after.model, held) == 0.0);
      // Saving the reopened model writes the same text: nothing drifts.
      CHECK(attn::io::model_to_json(after).dump() == attn::io::model_to_json(before).dump());
    }
  }
}

TEST_CASE("model file: a reopened model keeps training exactly like the original") {
  ModelFile file = trained_file(true, false);
  ModelFile again = attn::io::parse_model(attn::io::model_to_json(file).dump());
  // The thread count is a property of the machine, not of the model, so it
  // is not saved; with another count the per-thread sums round differently.
  again.config.threads = file.config.threads;
  Trainer a(file.config, file.model, file.steps), b(again.config, again.model, again.steps);
  for (int i = 0; i < 2; ++i) CHECK(a.step() == b.step());
  CHECK(a.evaluate().loss == b.evaluate().loss);
}

TEST_CASE("model file: the small valid corpus file loads") {
  const ModelFile f = attn::io::load_model(std::string(ATTN_MODEL_CORPUS_DIR) + "/valid_small.json");
  CHECK(f.model.config.d_model == 4);
  CHECK(f.model.layers.size() == 1);
  CHECK(f.steps == 5);
}

TEST_CASE("model file: every malformed file is refused with a message naming the problem") {
  struct Case {
    const char* file;
    const char* fragment;
  };
  const Case cases[] = {
      {"truncated.json", "is it truncated?"},
      {"wrong_format.json", "format: expected \"attnviz-model\", got string \"attnviz-scenario\" (this is a scenario file, not a model)"},
      {"bad_version.json", "version: unsupported version 2 (this build reads version 1)"},
      {"missing_weights.json", "weights: missing"},
      {"wrong_shape.json", "weights.layers[0].w_o: expected 4 rows for 4×4 (heads × d_v by d_model), got 3"},
      {"nan_string.json", "weights.embed[1][2]: expected a number, got string \"NaN\""},
      {"nan_literal.json", "weights.embed[2][1]: NaN and Infinity are not valid JSON numbers (at line 46, column 5)"},
      {"huge_dims.json", "model.d_model: 4096 is outside 1..1024"},
      {"bad_task.json", "task.name: unknown task \"addition\" (expected \"copy\", \"reverse\", \"sort\", \"previous-token\", \"induction\" or \"key-value\")"},
      {"heads_not_dividing.json", "model.n_heads: 3 does not divide d_model 4"},
      {"wrong_vocab.json", "model.vocab: expected 4 (the task's symbols and markers), got 5"},
      {"missing_mlp_weights.json", "weights.layers[0].mlp_in: missing"},
      {"mlp_weights_without_mlp.json", "weights.layers[0].mlp_in: unknown key"},
      {"ragged_row.json", "weights.unembed[1]: row has 3 numbers, expected 4 like row 0"},
      {"missing_layer.json", "weights.layers: expected 1 layer, got 0"},
      {"negative_seed.json", "training.seed: expected a whole number from 0 to 18446744073709551615, got number -3"},
      {"unknown_positions.json", "model.positions: unknown value \"rotary\" (expected \"learned\" or \"sinusoidal\")"},
      // Weights whose forward pass overflows: the tensor (stage, head, layer) and the cell.
      {"overflowing_embed.json", "weights: the forward pass overflows on the input \"A A A A\", layer 0: stage \"scores\" "
                                 "(head 0), cell [0][0]: value overflowed (scores = Q · Kᵀ); the inputs are too large for double precision"},
      {"overflowing_unembed.json", "weights: the forward pass overflows on the input \"A A A A\": logits[0][0] overflowed"},
  };
  for (const Case& c : cases) {
    const std::string path = std::string(ATTN_MODEL_CORPUS_DIR) + "/" + c.file;
    std::string message;
    try {
      attn::io::load_model(path);
    } catch (const attn::io::FormatError& e) {
      message = e.what();
    }
    INFO(c.file << ": " << (message.empty() ? std::string("loaded without an error") : message));
    CHECK(message.rfind(path + ": ", 0) == 0);  // the file name comes first
    CHECK(message.find(c.fragment) != std::string::npos);
  }
}

TEST_CASE("model file: a model with NaN weights is refused on save, naming the cell") {
  ModelFile f = trained_file(true, false);
  f.model.layers[1].w_o(2, 3) = std::nan("");
  CHECK_THROWS_WITH_AS(attn::io::model_to_json(f),
                       "weights.layers[1].w_o[2][3]: not finite; cannot save it (JSON has no NaN or infinity)",
                       attn::io::FormatError);
}
