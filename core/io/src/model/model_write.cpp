// Writes a trained model to the "attnviz-model" format. Every setting is
// written, defaults included, and every weight at full precision (nlohmann
// prints the shortest text that reads back as the same double), so
// parse_model(model_to_json(f)) predicts exactly what f does.
#include "attn/io/model_file.hpp"
#include "json/field_path.hpp"
#include "files/file_io.hpp"
#include "json/json_pretty.hpp"
#include "json/matrix_json.hpp"

namespace attn::io {

using nlohmann::json;
using namespace detail;

namespace {

json task_json(const train::TaskSpec& t) {
  return {{"name", train::task_name(t.kind)},
          {"vocab", t.vocab},
          {"length", t.length},
          {"random_offset", t.random_offset}};
}

json model_config_json(const train::ModelConfig& m) {
  return {{"vocab", m.vocab},
          {"seq_len", m.seq_len},
          {"d_model", m.d_model},
          {"n_heads", m.n_heads},
          {"n_layers", m.n_layers},
          {"positions", m.learned_positions ? "learned" : "sinusoidal"},
          {"mlp", m.mlp},
          {"d_mlp", m.d_mlp}};
}

json training_json(const ModelFile& f) {
  const train::TrainConfig& c = f.config;
  return {{"batch", c.batch},         {"learning_rate", c.learning_rate}, {"beta1", c.beta1},
          {"beta2", c.beta2},         {"epsilon", c.epsilon},             {"seed", c.seed},
          {"held_out", c.held_out},   {"steps", f.steps}};
}

json layer_json(const train::LayerParams& l, bool mlp, const std::string& path) {
  json heads = json::array();
  for (std::size_t h = 0; h < l.heads.size(); ++h) {
    const std::string p = path_index(path_key(path, "heads"), h);
    heads.push_back({{"w_q", finite_rows(l.heads[h].w_q, path_key(p, "w_q"))},
                     {"w_k", finite_rows(l.heads[h].w_k, path_key(p, "w_k"))},
                     {"w_v", finite_rows(l.heads[h].w_v, path_key(p, "w_v"))}});
  }
  json out = {{"heads", std::move(heads)}, {"w_o", finite_rows(l.w_o, path_key(path, "w_o"))}};
  if (mlp) {
    out["mlp_in"] = finite_rows(l.mlp_in, path_key(path, "mlp_in"));
    out["mlp_in_bias"] = finite_list(l.mlp_in_bias, path_key(path, "mlp_in_bias"));
    out["mlp_out"] = finite_rows(l.mlp_out, path_key(path, "mlp_out"));
    out["mlp_out_bias"] = finite_list(l.mlp_out_bias, path_key(path, "mlp_out_bias"));
  }
  return out;
}

json weights_json(const train::Model& m) {
  json layers = json::array();
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    layers.push_back(layer_json(m.layers[i], m.config.mlp, path_index("weights.layers", i)));
  }
  // Sinusoidal positions are written too, though not trained: the file then
  // holds everything a forward pass adds, for readers outside attnviz.
  return {{"embed", finite_rows(m.embed, "weights.embed")},
          {"positions", finite_rows(m.positions, "weights.positions")},
          {"layers", std::move(layers)},
          {"unembed", finite_rows(m.unembed, "weights.unembed")}};
}

}  // namespace

json model_to_json(const ModelFile& file) {
  json out = json::object();
  out["format"] = "attnviz-model";
  out["version"] = 1;
  out["task"] = task_json(file.config.task);
  out["model"] = model_config_json(file.model.config);
  out["training"] = training_json(file);
  out["weights"] = weights_json(file.model);
  return out;
}

void save_model(const std::string& path, const ModelFile& file) {
  write_text_file_atomically(path, pretty_json(model_to_json(file)));
}

}  // namespace attn::io
