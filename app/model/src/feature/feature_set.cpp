// FeatureSet: the registered features, updated and asked in order.
#include "model/feature/feature_set.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace model {

Feature* FeatureSet::find(const std::string& name) const {
  for (const std::unique_ptr<Feature>& f : features_)
    if (f->name() == name) return f.get();
  return nullptr;
}

void FeatureSet::before_trace(FeatureFrame& frame) {
  for (const std::unique_ptr<Feature>& f : features_) f->before_trace(frame);
}

void FeatureSet::update(FeatureFrame& frame) {
  for (const std::unique_ptr<Feature>& f : features_) f->update(frame);
}

void FeatureSet::show(const PanelRequest& request) {
  for (const std::unique_ptr<Feature>& f : features_) {
    bool* shown = f->shown();
    if (!shown) continue;
    const bool named = std::find(request.names.begin(), request.names.end(), std::string(f->name())) != request.names.end();
    if (named || request.only) *shown = named;
  }
}

bool FeatureSet::animating() const {
  return std::any_of(features_.begin(), features_.end(), [](const std::unique_ptr<Feature>& f) { return f->animating(); });
}

bool FeatureSet::working() const {
  return std::any_of(features_.begin(), features_.end(), [](const std::unique_ptr<Feature>& f) { return f->working(); });
}

void FeatureSet::dump(nlohmann::json& out) const {
  for (const std::unique_ptr<Feature>& f : features_) f->dump(out);
}

void FeatureSet::throw_missing(const char* type) {
  throw std::logic_error(std::string("no feature of type ") + type + " is registered");
}

}  // namespace model
