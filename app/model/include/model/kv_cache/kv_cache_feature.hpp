// The "KV cache" panel as a feature: the token step the user chose (and
// play), and the scene decoded token by token for it.
#pragma once

#include "model/feature/feature.hpp"
#include "model/kv_cache/kv_cache_model.hpp"

namespace model {

class KvCacheFeature : public PanelFeature {
 public:
  std::string_view name() const override { return "kv_cache"; }
  void update(FeatureFrame& frame) override;
  bool animating() const override { return shown_ && choice.playing; }
  void dump(nlohmann::json& out) const override;  // "kv_cache"

  KvCacheChoice choice;  // the panel edits it
  const KvCacheModel& model() const { return model_; }

 private:
  KvCacheModel model_;
};

}  // namespace model
