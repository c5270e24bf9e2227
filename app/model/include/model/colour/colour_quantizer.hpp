// 256-colour palettes for GIF export, which stores indexed frames only. The
// palette is made once per animation by median cut over a sample frame
// (the finished pipeline shows every grid's colours) plus colours the
// animation adds on the way (step highlights), so all frames share one
// global palette and the encoder can skip unchanged pixels between frames.
#pragma once

#include <cstdint>
#include <vector>

#include "model/colour/colourmap.hpp"

namespace model {

// At most max_colours colours: every distinct colour of the sample when
// there are few enough, else median cut (split the box with the most
// pixels times its widest channel range at its median) with each box's
// mean colour. `extra` colours are kept exactly and count towards the limit.
std::vector<Rgba> median_cut_palette(const std::uint8_t* rgba, std::size_t pixels, const std::vector<Rgba>& extra,
                                     int max_colours = 256);

// Maps RGBA pixels to the index of the nearest palette colour (squared RGB
// distance; alpha is ignored). Remembers answers, since a frame has few
// distinct colours.
class PaletteMapper {
 public:
  explicit PaletteMapper(std::vector<Rgba> palette) : palette_(std::move(palette)) {}
  std::vector<std::uint8_t> map(const std::uint8_t* rgba, std::size_t pixels);
  const std::vector<Rgba>& palette() const { return palette_; }
  // The palette as RGB triplets, the layout GIF colour tables use.
  std::vector<std::uint8_t> rgb_table() const;

 private:
  std::uint8_t nearest(std::uint32_t rgb) const;
  std::vector<Rgba> palette_;
  std::vector<std::int16_t> cache_ = std::vector<std::int16_t>(1u << 24, -1);  // 24-bit colour -> index
};

}  // namespace model
