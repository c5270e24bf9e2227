// A lesson's slides as one PDF through cairo (see slides_pdf.hpp). cairo
// streams the document into memory as pages are added (a page is a few
// hundred KB compressed); the whole text is then written by the same atomic
// writer as every other file of the app, so a full disk or an unwritable
// folder gives the same message and never leaves half a PDF.
#include "model/export/slides_pdf.hpp"

#include <exception>
#include <new>

#include <cairo-pdf.h>
#include <cairo.h>

#include "attn/io/text_file.hpp"

namespace model {

std::uint32_t cairo_argb32(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  // cairo's ARGB32 holds colour already multiplied by alpha (what it
  // composites with); straight colour would print too bright where the
  // picture is translucent.
  auto pre = [a](std::uint8_t c) { return static_cast<std::uint32_t>((c * a + 127) / 255); };
  return static_cast<std::uint32_t>(a) << 24 | pre(r) << 16 | pre(g) << 8 | pre(b);
}

struct SlidesPdf::Impl {
  std::string bytes;       // the PDF so far, as cairo writes it
  bool out_of_memory = false;
  cairo_surface_t* surface = nullptr;
  cairo_t* cr = nullptr;
  int pages = 0;
  std::string error;       // the first error; the document is dead after it

  static cairo_status_t append(void* self, const unsigned char* data, unsigned int length) {
    Impl& impl = *static_cast<Impl*>(self);
    try {
      impl.bytes.append(reinterpret_cast<const char*>(data), length);
    } catch (const std::bad_alloc&) {
      impl.out_of_memory = true;
      return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
  }

  // Records cairo's status when it is an error; true while all is well.
  bool ok(cairo_status_t status, const char* what) {
    if (!error.empty()) return false;
    if (status == CAIRO_STATUS_SUCCESS) return true;
    error = std::string("the PDF could not be made (") + what + ": " +
            (out_of_memory ? "out of memory" : cairo_status_to_string(status)) + ")";
    return false;
  }

  void close() {
    if (cr) cairo_destroy(cr);
    if (surface) cairo_surface_destroy(surface);
    cr = nullptr;
    surface = nullptr;
  }
};

SlidesPdf::SlidesPdf() : impl_(std::make_unique<Impl>()) {
  // Each page gets its picture's size when it is added; 1 pt until then.
  impl_->surface = cairo_pdf_surface_create_for_stream(&Impl::append, impl_.get(), 1, 1);
  if (!impl_->ok(cairo_surface_status(impl_->surface), "starting the document")) return;
  impl_->cr = cairo_create(impl_->surface);
  impl_->ok(cairo_status(impl_->cr), "starting the document");
}

SlidesPdf::~SlidesPdf() { impl_->close(); }

int SlidesPdf::pages() const { return impl_->pages; }

std::string SlidesPdf::add_page(const std::uint8_t* rgba, int width, int height) {
  Impl& d = *impl_;
  if (!d.error.empty()) return d.error;
  if (!rgba || width <= 0 || height <= 0) return d.error = "the PDF could not be made (an empty picture)";
  cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if (!d.ok(cairo_surface_status(image), "a page's picture")) {
    cairo_surface_destroy(image);
    return d.error;
  }
  cairo_surface_flush(image);
  unsigned char* data = cairo_image_surface_get_data(image);
  const int stride = cairo_image_surface_get_stride(image);
  for (int y = 0; y < height; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
    const std::uint8_t* src = rgba + static_cast<std::size_t>(y) * static_cast<std::size_t>(width) * 4;
    for (int x = 0; x < width; ++x, src += 4) row[x] = cairo_argb32(src[0], src[1], src[2], src[3]);
  }
  cairo_surface_mark_dirty(image);

  cairo_pdf_surface_set_size(d.surface, width * kPointsPerPixel, height * kPointsPerPixel);
  cairo_save(d.cr);
  cairo_scale(d.cr, kPointsPerPixel, kPointsPerPixel);
  cairo_set_source_surface(d.cr, image, 0, 0);
  cairo_paint(d.cr);
  cairo_restore(d.cr);
  cairo_show_page(d.cr);
  cairo_surface_destroy(image);  // cairo has written the page's picture or keeps its own reference
  if (!d.ok(cairo_status(d.cr), "a page") || !d.ok(cairo_surface_status(d.surface), "a page")) return d.error;
  ++d.pages;
  return "";
}

std::string SlidesPdf::write(const std::string& path) {
  Impl& d = *impl_;
  if (d.error.empty() && d.pages == 0) d.error = "the PDF could not be made (no pages)";
  if (!d.error.empty()) return d.error;
  cairo_destroy(d.cr);
  d.cr = nullptr;
  cairo_surface_finish(d.surface);  // writes the page tree, fonts and cross-reference table
  if (!d.ok(cairo_surface_status(d.surface), "ending the document")) return d.error;
  d.close();
  try {
    attn::io::write_text_atomically(path, d.bytes);
  } catch (const std::exception& e) {
    d.error = e.what();  // "cannot write PATH: No space left on device"
    return d.error;
  }
  d.bytes.clear();
  d.bytes.shrink_to_fit();
  d.error = "the PDF has been written";  // a second write() is a mistake
  return "";
}

}  // namespace model
