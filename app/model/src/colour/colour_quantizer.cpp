// Median-cut palette and nearest-colour mapping (colour_quantizer.hpp).
#include "model/colour/colour_quantizer.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace model {
namespace {

struct Entry {
  std::uint32_t rgb;
  std::uint64_t count;
  int channel(int c) const { return static_cast<int>((rgb >> (16 - 8 * c)) & 0xff); }
};

struct Box {
  std::vector<Entry> entries;
  std::uint64_t pixels = 0;
  int widest = 0, range = 0;  // channel with the largest spread, and that spread
  void measure() {
    pixels = 0;
    std::array<int, 3> lo{255, 255, 255}, hi{0, 0, 0};
    for (const Entry& e : entries) {
      pixels += e.count;
      for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], e.channel(c)), hi[c] = std::max(hi[c], e.channel(c));
    }
    range = -1;
    for (int c = 0; c < 3; ++c)
      if (hi[c] - lo[c] > range) range = hi[c] - lo[c], widest = c;
  }
  Rgba mean() const {
    std::array<std::uint64_t, 3> sum{};
    for (const Entry& e : entries)
      for (int c = 0; c < 3; ++c) sum[c] += static_cast<std::uint64_t>(e.channel(c)) * e.count;
    auto avg = [&](int c) { return static_cast<std::uint8_t>((sum[c] + pixels / 2) / std::max<std::uint64_t>(pixels, 1)); };
    return {avg(0), avg(1), avg(2), 255};
  }
};

std::uint32_t pack(const std::uint8_t* p) { return (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2]; }

}  // namespace

std::vector<Rgba> median_cut_palette(const std::uint8_t* rgba, std::size_t pixels, const std::vector<Rgba>& extra,
                                     int max_colours) {
  std::unordered_map<std::uint32_t, std::uint64_t> histogram;
  for (std::size_t i = 0; i < pixels; ++i) ++histogram[pack(rgba + 4 * i)];
  std::vector<Rgba> out(extra.begin(), extra.begin() + std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(extra.size()), max_colours));
  const int room = max_colours - static_cast<int>(out.size());
  if (room <= 0) return out;
  Box all;
  for (const auto& [rgb, count] : histogram) all.entries.push_back({rgb, count});
  if (static_cast<int>(all.entries.size()) <= room) {
    for (const Entry& e : all.entries)
      out.push_back({static_cast<std::uint8_t>(e.channel(0)), static_cast<std::uint8_t>(e.channel(1)), static_cast<std::uint8_t>(e.channel(2)), 255});
    return out;
  }
  all.measure();
  std::vector<Box> boxes{std::move(all)};
  while (static_cast<int>(boxes.size()) < room) {
    // The box most worth splitting: many pixels over a wide range of colour.
    auto worst = std::max_element(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
      const bool a_ok = a.entries.size() > 1, b_ok = b.entries.size() > 1;
      if (a_ok != b_ok) return !a_ok;
      return static_cast<double>(a.pixels) * a.range < static_cast<double>(b.pixels) * b.range;
    });
    if (worst->entries.size() < 2) break;
    Box& b = *worst;
    const int c = b.widest;
    std::sort(b.entries.begin(), b.entries.end(), [c](const Entry& x, const Entry& y) { return x.channel(c) < y.channel(c); });
    // Split where half the pixels lie on each side (never an empty side).
    std::uint64_t seen = 0;
    size_t cut = 1;
    for (; cut < b.entries.size() - 1; ++cut) {
      seen += b.entries[cut - 1].count;
      if (seen * 2 >= b.pixels) break;
    }
    Box upper;
    upper.entries.assign(b.entries.begin() + static_cast<std::ptrdiff_t>(cut), b.entries.end());
    b.entries.resize(cut);
    b.measure();
    upper.measure();
    boxes.push_back(std::move(upper));
  }
  for (const Box& b : boxes) out.push_back(b.mean());
  return out;
}

std::uint8_t PaletteMapper::nearest(std::uint32_t rgb) const {
  const int r = static_cast<int>(rgb >> 16), g = static_cast<int>((rgb >> 8) & 0xff), b = static_cast<int>(rgb & 0xff);
  int best = 0, best_d = 1 << 30;
  for (size_t i = 0; i < palette_.size(); ++i) {
    const int dr = r - palette_[i].r, dg = g - palette_[i].g, db = b - palette_[i].b;
    const int d = dr * dr + dg * dg + db * db;
    if (d < best_d) best_d = d, best = static_cast<int>(i);
  }
  return static_cast<std::uint8_t>(best);
}

std::vector<std::uint8_t> PaletteMapper::map(const std::uint8_t* rgba, std::size_t pixels) {
  std::vector<std::uint8_t> out(pixels);
  for (std::size_t i = 0; i < pixels; ++i) {
    const std::uint32_t rgb = pack(rgba + 4 * i);
    std::int16_t& hit = cache_[rgb];
    if (hit < 0) hit = nearest(rgb);
    out[i] = static_cast<std::uint8_t>(hit);
  }
  return out;
}

std::vector<std::uint8_t> PaletteMapper::rgb_table() const {
  std::vector<std::uint8_t> t;
  for (const Rgba& c : palette_) t.insert(t.end(), {c.r, c.g, c.b});
  return t;
}

}  // namespace model
