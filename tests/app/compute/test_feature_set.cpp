// FeatureSet: panels shown by name (a lesson's "exactly these", the command
// line's "these as well"), features found by type, and the frame's questions
// (animating, working) answered by any feature.
#include <doctest/doctest.h>

#include <stdexcept>

#include "model/feature/feature_set.hpp"

namespace {

class FakePanel : public model::PanelFeature {
 public:
  explicit FakePanel(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  void update(model::FeatureFrame&) override { ++updates; }
  bool animating() const override { return shown_ && playing; }
  int updates = 0;
  bool playing = false;

 private:
  std::string name_;
};

class FakeWorker : public model::Feature {
 public:
  std::string_view name() const override { return "worker"; }
  void update(model::FeatureFrame&) override {}
  bool working() const override { return busy; }
  bool busy = false;
};

}  // namespace

TEST_CASE("feature set: a lesson's request shows exactly the panels it names and the command line's adds to them") {
  model::FeatureSet set;
  FakePanel& a = set.add(std::make_unique<FakePanel>("a"));
  FakePanel& b = set.add(std::make_unique<FakePanel>("b"));
  set.add(std::make_unique<FakeWorker>());
  set.show(model::PanelRequest{{"a"}, false});
  CHECK(a.is_shown());
  CHECK_FALSE(b.is_shown());
  set.show(model::PanelRequest{{"b"}, false});  // as well: a stays
  CHECK(a.is_shown());
  CHECK(b.is_shown());
  set.show(model::PanelRequest{{"b"}, true});  // exactly: a goes
  CHECK_FALSE(a.is_shown());
  CHECK(b.is_shown());
  set.show(model::PanelRequest{{}, true});  // a step with no panels hides them all
  CHECK_FALSE(b.is_shown());
  CHECK(set.find("worker")->shown() == nullptr);  // not a panel: the request leaves it be
}

TEST_CASE("feature set: features are found by type and by name and a missing type is a clear error") {
  model::FeatureSet set;
  FakePanel& a = set.add(std::make_unique<FakePanel>("a"));
  CHECK(&set.get<FakePanel>() == &a);
  CHECK(set.find("a") == &a);
  CHECK(set.find("nothing") == nullptr);
  CHECK_THROWS_AS(set.get<FakeWorker>(), std::logic_error);
}

TEST_CASE("feature set: the window keeps drawing while a shown panel plays or any feature works") {
  model::FeatureSet set;
  FakePanel& a = set.add(std::make_unique<FakePanel>("a"));
  FakeWorker& w = set.add(std::make_unique<FakeWorker>());
  a.playing = true;
  CHECK_FALSE(set.animating());  // playing, but hidden
  set.show(model::PanelRequest{{"a"}, true});
  CHECK(set.animating());
  CHECK_FALSE(set.working());
  w.busy = true;
  CHECK(set.working());
}
