// QR encoding through libqrencode: its module bytes carry flags in the
// upper bits; bit 0 is the colour.
#include "model/classroom/qr_code.hpp"

#include <qrencode.h>

namespace model {

QrCode encode_qr(const std::string& text) {
  QrCode out;
  if (text.empty()) return out;
  QRcode* code = QRcode_encodeString8bit(text.c_str(), 0, QR_ECLEVEL_M);
  if (!code) return out;
  out.size = code->width;
  out.dark.resize(static_cast<size_t>(code->width) * static_cast<size_t>(code->width));
  for (size_t i = 0; i < out.dark.size(); ++i) out.dark[i] = code->data[i] & 1;
  QRcode_free(code);
  return out;
}

}  // namespace model
