// The Model view's scene job (model_session.hpp): one head's layer of a
// real model as a float64 scene for the pipeline view, and the same layer
// with heads switched off for the compare view, from as few float64 layers
// as the passes already done allow (issue 41).
#include "model/hf/model_session.hpp"

#include <algorithm>

#include "attn/hf/forward/layer_scene.hpp"

namespace model {

namespace {

// "L0 H1, L0 H3 off (zero)": the compare view's name for the switched-off side.
std::string heads_off_label(const std::vector<attn::hf::HeadRef>& heads, attn::hf::AblationMode mode) {
  std::string s;
  for (const attn::hf::HeadRef& h : heads)
    s += (s.empty() ? "L" : ", L") + std::to_string(h.layer) + " H" + std::to_string(h.head);
  return s + " off (" + (mode == attn::hf::AblationMode::Mean ? "mean" : "zero") + ")";
}

}  // namespace

// The head's layer as a float64 scene (layer_scene.hpp), and the same layer
// with the heads switched off at or before it for the compare view. Both
// start from one float64 pass with every head on that kept each layer's
// input: the precision check's when it is done (no layer computed here),
// else one run here up to this layer. The pass with heads off resumes from
// it at the first switched-off layer, so only the layers from there on are
// computed again. Inputs kept here: (layer + 1) x n x d_model doubles.
ModelSession::Scene ModelSession::open_scene(const SceneInput& in, TaskContext<Scene>& control) {
  const int layer = in.head.layer;
  const std::function<bool(int)> go_on = [&](int) { return !control.cancelled(); };
  std::shared_ptr<const attn::hf::ForwardResult<double>> on = in.float64;
  if (!on || on->ids != in.ids || on->first_layer != 0 || layer >= static_cast<int>(on->layers.size())) {
    attn::hf::ForwardOptions options;
    options.keep_inputs = true;
    options.keep_attentions = false;  // the scene recomputes its layer's attention itself
    options.stop_after_layer = layer;
    options.progress = in.counts ? in.counts->pass<double>(go_on) : go_on;
    on = std::make_shared<const attn::hf::ForwardResult<double>>(attn::hf::run_forward<double>(*in.checkpoint, in.ids, options));
    control.throw_if_cancelled();
  }
  const attn::hf::LayerScene scene = attn::hf::layer_scene(*in.checkpoint, *on, layer, in.labels);
  auto file = std::make_shared<attn::io::ScenarioFile>();
  file->scenario = scene.scenario;
  const std::string name = in.checkpoint->config().model_type;
  file->title = name + ", layer " + std::to_string(layer) + ", head " + std::to_string(in.head.head);
  file->description = scene.description;
  Scene out{file, in.folder_name + ", layer " + std::to_string(layer) + ", head " + std::to_string(in.head.head),
            in.head.head, nullptr, "", "all heads on", layer, in.ids};
  // The compare view's B from another pass up to this layer: the model
  // beside (quantization), or the corrupted prompt (patching).
  const auto other_side = [&](const attn::hf::Checkpoint& checkpoint, const std::vector<int>& ids,
                              const std::vector<std::string>& labels, std::string own, std::string other) {
    attn::hf::ForwardOptions options;
    options.keep_inputs = true;
    options.keep_attentions = false;
    options.stop_after_layer = layer;
    options.progress = in.counts ? in.counts->pass<double>(go_on) : go_on;
    const attn::hf::ForwardResult<double> pass = attn::hf::run_forward<double>(checkpoint, ids, options);
    control.throw_if_cancelled();
    out.switched_off = std::make_shared<const attn::Scenario>(attn::hf::layer_scene(checkpoint, pass, layer, labels).scenario);
    out.on_label = std::move(own);
    out.off_label = std::move(other);
    return out;
  };
  if (in.beside) return other_side(*in.beside, in.ids, in.labels, in.own_label, in.beside_label);
  if (!in.corrupted.empty()) return other_side(*in.checkpoint, in.corrupted, in.corrupted_labels, "clean", in.corrupted_label);
  // Heads switched off at or before this layer change it: the same
  // layer from a pass with them off is the compare view's B.
  std::vector<attn::hf::HeadRef> reaching;
  int first_off = layer;
  for (const attn::hf::HeadRef& h : in.heads_off)
    if (h.layer <= layer) {
      reaching.push_back(h);
      first_off = std::min(first_off, h.layer);
    }
  if (!reaching.empty()) {
    attn::hf::ForwardOptions options;
    options.heads_off = reaching;
    options.mode = in.mode;
    options.keep_details = true;  // this layer's head outputs: the switched-off heads' replacements
    options.keep_attentions = false;
    options.stop_after_layer = layer;
    options.details_of_last_layer_only = true;
    options.progress = in.counts ? in.counts->pass<double>(go_on) : go_on;
    const attn::hf::ForwardResult<double> off = attn::hf::resume_forward<double>(*in.checkpoint, *on, first_off, options);
    control.throw_if_cancelled();
    out.switched_off = std::make_shared<const attn::Scenario>(
        attn::hf::layer_scene(*in.checkpoint, off, layer, in.labels, reaching).scenario);
    out.off_label = heads_off_label(reaching, in.mode);
  }
  return out;
}

}  // namespace model
