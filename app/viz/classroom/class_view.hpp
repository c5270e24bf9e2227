// The class session's face in the window: its panel (start, the interface
// and port, lock, re-open, skip, reveal, end, the CSV), and what stays over
// the canvas while it runs: the corner with the join address, its QR code,
// the code and the count, and the class's tally once answers are locked.
#pragma once

#include <string>
#include <vector>

#include "attn/platform/network.hpp"
#include "feature/feature_view.hpp"
#include "model/classroom/class_feature.hpp"

namespace viz {

class ClassFeatureView : public FeatureViewOf<model::ClassFeature> {
 public:
  using FeatureViewOf::FeatureViewOf;
  const char* menu_label() const override { return "Class session (answers from phones)"; }
  const char* lessons_menu_label() const override { return "Class session: the class answers from phones..."; }
  void draw(const PanelFrame& frame) override;
  void draw_over_canvas(const PanelFrame& frame) override;

 private:
  void draw_start(const PanelFrame& frame);
  void draw_running(const PanelFrame& frame);
  void draw_csv(const PanelFrame& frame);

  // The interfaces offered, listed when the panel opens (not every frame).
  std::vector<attn::platform::NetworkInterface> interfaces_;
  bool listed_ = false;
  int interface_ = 0;
  int port_ = model::ClassFeature::kDefaultPort;
  std::string csv_path_;
};

// The height of the strip the corner takes above the canvas (0 with no
// session running): App::panels moves the canvas down by it.
float class_corner_height(const model::ClassFeature& f);
// The corner over the canvas: address, QR code, code and count (a click
// switches it between that and one line).
void draw_class_corner(model::ClassFeature& f, const PanelFrame& frame);
// The class's answers, over the canvas's lower right (part of a slide too).
void draw_class_tally_window(const model::ClassFeature& f, const PanelFrame& frame);

}  // namespace viz
