// The join address as a QR code, so a class joins by pointing phones at the
// projector instead of typing an address. Encoded by libqrencode (Debian
// libqrencode-dev); this holds only the modules, which the window draws as
// squares and a slide export paints the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace model {

struct QrCode {
  int size = 0;                      // modules per side; 0: none
  std::vector<std::uint8_t> dark;    // size * size, row by row: 1 for a dark module
  bool at(int row, int col) const { return dark[static_cast<size_t>(row * size + col)] != 0; }
};

// The QR code of `text` at error correction level M (readable with a
// quarter of a smudged projector image lost); an empty code when the text
// is too long for a QR code or cannot be encoded.
QrCode encode_qr(const std::string& text);

}  // namespace model
