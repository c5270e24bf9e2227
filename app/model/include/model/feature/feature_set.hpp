// The features of a running app, in the order they were registered: the
// order they update in, and the order the View menu lists their panels.
// The window's views find their feature by type (get<T>), and lessons and
// the command line show panels by name.
#pragma once

#include <memory>
#include <typeinfo>
#include <string>
#include <vector>

#include "model/feature/feature.hpp"
#include "model/feature/panel_request.hpp"

namespace model {

class FeatureSet {
 public:
  // Takes the feature and returns it, so registration can keep a typed reference.
  template <class F>
  F& add(std::unique_ptr<F> feature) {
    F& kept = *feature;
    features_.push_back(std::move(feature));
    return kept;
  }

  // The feature of type F; throws std::logic_error when none was registered
  // (a view registered without its feature is a programming error).
  template <class F>
  F& get() const {
    for (const std::unique_ptr<Feature>& f : features_)
      if (F* typed = dynamic_cast<F*>(f.get())) return *typed;
    throw_missing(typeid(F).name());
  }
  Feature* find(const std::string& name) const;

  void before_trace(FeatureFrame& frame);
  void update(FeatureFrame& frame);
  void show(const PanelRequest& request);
  bool animating() const;
  bool working() const;
  void dump(nlohmann::json& out) const;
  const std::vector<std::unique_ptr<Feature>>& all() const { return features_; }

 private:
  [[noreturn]] static void throw_missing(const char* type);
  std::vector<std::unique_ptr<Feature>> features_;
};

}  // namespace model
