// Every family's forward pass against float64 references computed by
// PyTorch from the published model definitions (tests/fixtures/
// make_hf_fixtures.py, Debian's torch 1.13; the weights as stored, BF16 and
// F16 included): embeddings, each layer's attention input, attention
// weights, head outputs, attention output and output, the final hidden
// state, the next-token logits, and both ways of switching heads off. Held
// to 1e-9 (absolute, values of order 1); a failure names the worst element.
// The float32 path (what the Model view draws) is held to
// kFloatWeightsAgreement on its weights and on its next-token probabilities
// (on these tiny models; the view states the gap it measures on real ones).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "attn/hf/checkpoint/checkpoint.hpp"
#include "attn/hf/forward/forward.hpp"
#include "attn/hf/forward/layer_scene.hpp"
#include "attn/compute/trace.hpp"

using namespace attn::hf;
using nlohmann::json;

namespace {

constexpr double kTolerance = 1e-9;
constexpr double kFloatTolerance = kFloatWeightsAgreement;
// The last four are the config keys that change the math, each against its
// own reference: GPT-2 scaled by layer and not by sqrt(d), transformers 5's
// rope_parameters (theta 500000), YaRN with attention and MLP biases, and
// Qwen2's window from max_window_layers on with linear RoPE scaling; and Gemma 2.
const char* kFolders[] = {"gpt2",           "gpt2_prefixed",     "gpt2_sharded",          "bert",
                          "llama_gqa_bf16", "qwen2_bias_f16",    "mistral_window",        "gpt2_layer_scaled",
                          "llama_rope_parameters", "llama_yarn_biases", "qwen2_window_layers", "gemma2"};

std::string dir_of(const std::string& name) { return std::string(ATTN_HF_DATA_DIR) + "/" + name; }

json reference(const std::string& name) {
  std::ifstream in(dir_of(name) + "/reference.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

// The largest |ours - theirs| over a matrix given as nested JSON rows, with
// where it is, for the failure message.
template <class M>
void check_matrix(const M& ours, const json& theirs, const std::string& what, double tolerance) {
  REQUIRE_MESSAGE(static_cast<std::size_t>(ours.rows()) == theirs.size(), what << ": rows differ");
  double worst = 0;
  long wr = 0, wc = 0;
  for (Eigen::Index r = 0; r < ours.rows(); ++r) {
    REQUIRE_MESSAGE(static_cast<std::size_t>(ours.cols()) == theirs[static_cast<std::size_t>(r)].size(),
                    what << ": columns differ");
    for (Eigen::Index c = 0; c < ours.cols(); ++c) {
      const double diff =
          std::abs(static_cast<double>(ours(r, c)) - theirs[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)].get<double>());
      if (!(diff <= worst)) worst = diff, wr = static_cast<long>(r), wc = static_cast<long>(c);
    }
  }
  INFO(what << ": worst |difference| " << worst << " at [" << wr << "][" << wc << "] (ours "
            << static_cast<double>(ours(wr, wc)) << ", PyTorch " << theirs[static_cast<std::size_t>(wr)][static_cast<std::size_t>(wc)].get<double>() << ")");
  CHECK(worst <= tolerance);
}

void check_vector(const std::vector<double>& ours, const json& theirs, const std::string& what) {
  Eigen::MatrixXd m(1, static_cast<Eigen::Index>(ours.size()));
  for (std::size_t i = 0; i < ours.size(); ++i) m(0, static_cast<Eigen::Index>(i)) = ours[i];
  check_matrix(m, json::array({theirs}), what, kTolerance);
}

// Two of our own matrices (a scene's trace against the forward pass).
void check_close(const Eigen::MatrixXd& ours, const Eigen::MatrixXd& want, const std::string& what) {
  REQUIRE_MESSAGE((ours.rows() == want.rows() && ours.cols() == want.cols()), what << ": shapes differ");
  Eigen::Index wr = 0, wc = 0;
  const double worst = (ours - want).cwiseAbs().maxCoeff(&wr, &wc);
  INFO(what << ": worst |difference| " << worst << " at [" << wr << "][" << wc << "] (scene " << ours(wr, wc)
            << ", forward " << want(wr, wc) << ")");
  CHECK(worst <= kTolerance);
}

// A fixture's "ablation" entry as forward options: its heads and mode.
ForwardOptions ablation_of(const json& a) {
  ForwardOptions o;
  o.mode = a["mode"] == "mean" ? AblationMode::Mean : AblationMode::Zero;
  for (const auto& h : a["heads"]) o.heads_off.push_back({h[0].get<int>(), h[1].get<int>()});
  return o;
}

std::vector<int> ids_of(const json& ref) { return ref["ids"].get<std::vector<int>>(); }

// The double forward on the fixture's ids with every intermediate kept.
ForwardResult<double> detailed_forward(const Checkpoint& ck, const json& ref, int stop_after_layer = -1) {
  ForwardOptions o;
  o.keep_details = true;
  o.stop_after_layer = stop_after_layer;
  return run_forward<double>(ck, ids_of(ref), o);
}

}  // namespace

TEST_CASE("forward: every family matches PyTorch's float64 forward layer by layer") {
  for (const char* name : kFolders) {
    INFO("model " << name);
    const json ref = reference(name);
    const auto ck = Checkpoint::open(dir_of(name));
    const auto r = detailed_forward(*ck, ref);
    check_matrix(r.embeddings, ref["embeddings"], std::string(name) + " embeddings", kTolerance);
    REQUIRE(r.layers.size() == ref["layers"].size());
    for (std::size_t l = 0; l < r.layers.size(); ++l) {
      const json& rl = ref["layers"][l];
      const std::string at = std::string(name) + " layer " + std::to_string(l);
      check_matrix(r.layers[l].attn_input, rl["attn_input"], at + " attn_input", kTolerance);
      for (std::size_t h = 0; h < r.layers[l].attentions.size(); ++h) {
        check_matrix(r.layers[l].attentions[h], rl["attentions"][h], at + " head " + std::to_string(h) + " weights",
                     kTolerance);
        check_matrix(r.layers[l].head_outputs[h], rl["head_outputs"][h],
                     at + " head " + std::to_string(h) + " output", kTolerance);
      }
      check_matrix(r.layers[l].attn_output, rl["attn_output"], at + " attn_output", kTolerance);
      check_matrix(r.layers[l].output, rl["output"], at + " output", kTolerance);
    }
    check_matrix(r.final, ref["final"], std::string(name) + " final", kTolerance);
    if (ref.contains("logits_last"))
      check_vector(logits_at(*ck, r, static_cast<int>(r.ids.size()) - 1), ref["logits_last"],
                   std::string(name) + " logits at the last position");
  }
}

TEST_CASE("forward: heads switched off (zero and mean) match PyTorch's") {
  for (const char* name : kFolders) {
    const json ref = reference(name);
    const auto ck = Checkpoint::open(dir_of(name));
    for (const char* key : {"ablation", "ablation_mean"}) {
      INFO("model " << name << ", " << key);
      const json& a = ref[key];
      const ForwardOptions o = ablation_of(a);
      const auto r = run_forward<double>(*ck, ids_of(ref), o);
      check_matrix(r.final, a["final"], std::string(name) + " " + key + " final", kTolerance);
      if (a.contains("logits_last"))
        check_vector(logits_at(*ck, r, static_cast<int>(r.ids.size()) - 1), a["logits_last"],
                     std::string(name) + " " + key + " logits");
      // And the switch is real: the output moved.
      const auto plain = run_forward<double>(*ck, ids_of(ref));
      CHECK((plain.final - r.final).cwiseAbs().maxCoeff() > 1e-6);
    }
  }
}

TEST_CASE("forward: the float path draws the same weights within float rounding") {
  for (const char* name : kFolders) {
    INFO("model " << name);
    const json ref = reference(name);
    const auto ck = Checkpoint::open(dir_of(name));
    const auto r = run_forward<float>(*ck, ids_of(ref));
    for (std::size_t l = 0; l < r.layers.size(); ++l)
      for (std::size_t h = 0; h < r.layers[l].attentions.size(); ++h)
        check_matrix(r.layers[l].attentions[h], ref["layers"][l]["attentions"][h],
                     std::string(name) + " float layer " + std::to_string(l) + " head " + std::to_string(h), kFloatTolerance);
  }
}

TEST_CASE("forward: the float path's next-token probabilities agree with float64's") {
  for (const char* name : kFolders) {
    const json ref = reference(name);
    if (!ref.contains("logits_last")) continue;  // BERT makes no predictions
    INFO("model " << name);
    const auto ck = Checkpoint::open(dir_of(name));
    const auto r = run_forward<float>(*ck, ids_of(ref));
    const int last = static_cast<int>(r.ids.size()) - 1;
    std::vector<double> expected;
    for (double x : ref["logits_last"]) expected.push_back(x);
    const std::vector<Prediction> ours = top_predictions(logits_at(*ck, r, last), 10);
    const std::vector<Prediction> theirs = top_predictions(expected, 10);
    REQUIRE(ours.size() == theirs.size());
    REQUIRE(!ours.empty());
    // Probabilities by id (a near tie may swap two neighbours' order).
    double worst = 0;
    int worst_id = -1;
    for (const Prediction& p : ours) {
      const auto it = std::find_if(theirs.begin(), theirs.end(), [&](const Prediction& t) { return t.id == p.id; });
      const double theirs_p = it != theirs.end() ? it->probability : 0.0;
      if (std::abs(p.probability - theirs_p) >= worst) worst = std::abs(p.probability - theirs_p), worst_id = p.id;
    }
    INFO("worst: id " << worst_id << ", |float32 - float64| = " << worst);
    CHECK(worst <= kFloatTolerance);
  }
}

TEST_CASE("forward: results do not depend on the thread count") {
  const json ref = reference("gpt2");
  const auto ck = Checkpoint::open(dir_of("gpt2"));
  ForwardOptions one, two;
  one.max_threads = 1;
  two.max_threads = 2;
  const auto a = run_forward<double>(*ck, ids_of(ref), one), b = run_forward<double>(*ck, ids_of(ref), two);
  CHECK((a.final - b.final).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("forward: progress reports each layer and cancel stops after it") {
  const json ref = reference("llama_gqa_bf16");
  const auto ck = Checkpoint::open(dir_of("llama_gqa_bf16"));
  ForwardOptions o;
  std::vector<int> seen;
  o.progress = [&](int done) {
    seen.push_back(done);
    return done < 1;
  };
  const auto r = run_forward<double>(*ck, ids_of(ref), o);
  CHECK(r.cancelled);
  CHECK(r.layers.size() == 1);
  CHECK(seen == std::vector<int>{1});
}

TEST_CASE("layer scene: the core's trace of a layer reproduces the model's weights and attention output") {
  for (const char* name : kFolders) {
    INFO("model " << name);
    const json ref = reference(name);
    const auto ck = Checkpoint::open(dir_of(name));
    const auto r = detailed_forward(*ck, ref);
    for (int l = 0; l < static_cast<int>(r.layers.size()); ++l) {
      const LayerScene scene = layer_scene(*ck, r, l, {});
      REQUIRE(attn::validate(scene.scenario) == "");
      const attn::Trace t = attn::compute_trace(scene.scenario);
      for (int h = 0; h < ck->config().n_heads; ++h) {
        const attn::Stage* w = t.find(attn::StageKind::weights, h);
        REQUIRE(w);
        check_matrix(w->value, ref["layers"][static_cast<std::size_t>(l)]["attentions"][static_cast<std::size_t>(h)],
                     std::string(name) + " scene layer " + std::to_string(l) + " head " + std::to_string(h), kTolerance);
      }
      const attn::Stage* out = t.find(attn::StageKind::output);
      REQUIRE(out);
      // The families with an attention output bias (GPT-2's c_proj, BERT's
      // output.dense) carry it in the scene: its output is the layer's.
      CHECK(scene.scenario.output_bias.size() == (ck->config().o_bias ? ck->config().d_model : 0));
      check_matrix(out->value.dense(), ref["layers"][static_cast<std::size_t>(l)]["attn_output"],
                   std::string(name) + " scene layer " + std::to_string(l) + " output (with W_O's bias)", kTolerance);
    }
  }
}

TEST_CASE("layer scene: heads switched off fold into W_O and b_O, so the scene's output is the ablated layer's") {
  for (const char* name : kFolders) {
    const json ref = reference(name);
    const auto ck = Checkpoint::open(dir_of(name));
    for (const char* key : {"ablation", "ablation_mean"}) {
      INFO("model " << name << ", " << key);
      // The fixture's heads (checked against PyTorch above), and one of layer 1.
      ForwardOptions o = ablation_of(ref[key]);
      o.keep_details = true;
      o.heads_off.push_back({1, 0});
      const auto r = run_forward<double>(*ck, ids_of(ref), o);
      for (int l = 0; l < 2; ++l) {
        const attn::Trace folded = attn::compute_trace(layer_scene(*ck, r, l, {}, o.heads_off).scenario);
        const attn::Trace unfolded = attn::compute_trace(layer_scene(*ck, r, l, {}).scenario);
        const attn::Mat want = r.layers[static_cast<std::size_t>(l)].attn_output;
        check_close(folded.find(attn::StageKind::output)->value.dense(), want,
                    std::string(name) + " " + key + " layer " + std::to_string(l) + " folded output");
        // Without the fold, the switched-off heads would still reach the output.
        CHECK((unfolded.find(attn::StageKind::output)->value.dense() - want).cwiseAbs().maxCoeff() > 1e-6);
      }
    }
  }
}

TEST_CASE("forward: stopping after a layer keeps that layer as the full pass computes it") {
  const json ref = reference("llama_gqa_bf16");
  const auto ck = Checkpoint::open(dir_of("llama_gqa_bf16"));
  const auto r = detailed_forward(*ck, ref, 0);
  CHECK_FALSE(r.cancelled);
  REQUIRE(r.layers.size() == 1);
  CHECK(r.final.size() == 0);
  check_matrix(r.layers[0].output, ref["layers"][0]["output"], "stopped after layer 0: output", kTolerance);
}

TEST_CASE("forward: a scene's pass keeps only the last layer's details, as the full pass computes them") {
  // The Model view opens layer L of a long text this way: the layers before
  // it keep nothing (30 MB a layer for GPT-2 at 1,001 tokens).
  const json ref = reference("gpt2_layer_scaled");
  const auto ck = Checkpoint::open(dir_of("gpt2_layer_scaled"));
  ForwardOptions o;
  o.keep_details = true;
  o.stop_after_layer = 1;
  o.details_of_last_layer_only = true;
  const auto r = run_forward<double>(*ck, ids_of(ref), o);
  REQUIRE(r.layers.size() == 2);
  CHECK(r.layers[0].input.size() == 0);
  CHECK(r.layers[0].attn_input.size() == 0);
  CHECK(r.layers[0].head_outputs.empty());
  CHECK(r.layers[0].output.size() == 0);
  const json& rl = ref["layers"][1];
  check_matrix(r.layers[1].attn_input, rl["attn_input"], "layer 1 attn_input", kTolerance);
  for (std::size_t h = 0; h < r.layers[1].head_outputs.size(); ++h)
    check_matrix(r.layers[1].head_outputs[h], rl["head_outputs"][h], "layer 1 head " + std::to_string(h) + " output",
                 kTolerance);
  check_matrix(r.layers[1].output, rl["output"], "layer 1 output", kTolerance);
  REQUIRE(r.layers[1].head_outputs.size() == static_cast<std::size_t>(ck->config().n_heads));
  // The scene from it is the scene from a pass that kept every layer's details.
  const auto whole = detailed_forward(*ck, ref, 1);
  const std::vector<std::string> labels(ids_of(ref).size(), "t");
  const attn::Scenario a = layer_scene(*ck, r, 1, labels).scenario;
  const attn::Scenario b = layer_scene(*ck, whole, 1, labels).scenario;
  CHECK(a.x == b.x);
  REQUIRE(a.heads.size() == b.heads.size());
  for (std::size_t h = 0; h < a.heads.size(); ++h) CHECK(a.heads[h].w_q == b.heads[h].w_q);
}
