// The Model view as a feature: what the user chose in it (ModelUi) and the
// session that runs the model (ModelSession), kept beside the document
// rather than in it. The session (Session::update_model) carries a folder
// the document asked for into it and a built head back to the document,
// before the trace, since a head shown replaces the document.
#pragma once

#include "model/feature/feature.hpp"
#include "model/hf/model_session.hpp"
#include "model/hf/model_ui.hpp"

namespace model {

class ModelViewFeature : public Feature {
 public:
  std::string_view name() const override { return "model"; }
  void update(FeatureFrame& frame) override { (void)frame; }  // the session's update_model does its frame
  bool working() const override { return session.computing() || session.opening_scene(); }
  void dump(nlohmann::json& out) const override { out["model"] = session.dump(ui); }

  ModelUi ui;
  ModelSession session;
};

}  // namespace model
