// attnviz --export, the same code as File > Export, checked by independent
// readers: PNGs and GIFs decoded by stb_image (size at --scale 2 twice that
// at 1, a transparent margin, the GIF's frame count from --from/--to/--fps),
// the SVG by Python's xml.etree, a .npy by NumPy against the trace computed
// here, MP4's message without ffmpeg (and ffprobe's frame count with it),
// and the one-line errors for bad requests.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <stb_image.h>

#include "attn/io/scenario_file.hpp"
#include "python_reader.hpp"
#include "ui_support.hpp"

using namespace ui_test;

namespace {

struct Decoded {
  int width = 0, height = 0, frames = 0;
  std::vector<unsigned char> rgba;  // every frame, one after another
};

// A PNG (one frame) or a GIF (every frame) as RGBA.
Decoded decode(const std::string& path, bool gif) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Decoded d;
  int comp = 0;
  unsigned char* px = nullptr;
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  if (gif) {
    int* delays = nullptr;
    px = stbi_load_gif_from_memory(data, static_cast<int>(bytes.size()), &delays, &d.width, &d.height, &d.frames, &comp, 4);
    stbi_image_free(delays);
  } else {
    px = stbi_load_from_memory(data, static_cast<int>(bytes.size()), &d.width, &d.height, &comp, 4);
    d.frames = px ? 1 : 0;
  }
  if (!px) return {};
  d.rgba.assign(px, px + static_cast<size_t>(d.width) * static_cast<size_t>(d.height) * 4 * static_cast<size_t>(d.frames));
  stbi_image_free(px);
  return d;
}

const std::string kTwoHeads = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/multihead_2x4.json";

int run_export(const std::string& args, std::string* out = nullptr) {
  return run(attnviz("--test --size 900x560 " + args), out);
}

}  // namespace

TEST_SUITE("export") {
  TEST_CASE("ui: --export PNG at --scale 2 is about twice the size of --scale 1, and 4 twice 2") {
    // Each scale lays the canvas out again at that many pixels with text
    // rasterised for it (never a blurry enlargement), so 1x and 2x may fit
    // the grids a little differently: within 10% (labels and titles are
    // measured in each size's own font). The whole canvas from 2x up is exact.
    for (const std::string what : {"", "--stage weights --head 0 "}) {
      CAPTURE(what);
      std::vector<Decoded> shots;
      for (int scale : {1, 2, 4}) {
        const std::string path = temp_path("export_" + std::to_string(scale) + "x.png");
        std::string out;
        REQUIRE_MESSAGE(run_export(what + "--export " + path + " --scale " + std::to_string(scale), &out) == 0, out);
        shots.push_back(decode(path, false));
        REQUIRE(shots.back().frames == 1);
      }
      const Decoded &a = shots[0], &b = shots[1], &c = shots[2];
      CHECK(a.width > 100);
      CHECK(std::abs(b.width - 2 * a.width) <= 0.1 * 2 * a.width);
      CHECK(std::abs(b.height - 2 * a.height) <= 0.1 * 2 * a.height);
      if (what.empty()) {
        CHECK(std::abs(c.width - 2 * b.width) <= 2);
        CHECK(std::abs(c.height - 2 * b.height) <= 2);
      } else {  // one grid: the fit may zoom S times closer at scale S, so 4x is not capped at 2x
        CHECK(std::abs(c.width - 2 * b.width) <= 0.1 * 2 * b.width);
        CHECK(std::abs(c.height - 2 * b.height) <= 0.1 * 2 * b.height);
      }
    }
  }

  TEST_CASE("ui: --export PNG --transparent has alpha 0 in the margin and opaque cells") {
    const std::string path = temp_path("export_transparent.png");
    std::string out;
    REQUIRE_MESSAGE(run_export("--stage weights --head 0 --transparent --export " + path, &out) == 0, out);
    const Decoded d = decode(path, false);
    REQUIRE(d.frames == 1);
    CHECK(d.rgba[3] == 0);  // the top-left corner is margin
    CHECK(d.rgba[(static_cast<size_t>(d.height - 1) * static_cast<size_t>(d.width) + static_cast<size_t>(d.width - 1)) * 4 + 3] == 0);
    // The grid fills most of the picture: its cells are opaque, the gaps between them clear.
    size_t opaque = 0, clear = 0;
    for (size_t i = 3; i < d.rgba.size(); i += 4) opaque += d.rgba[i] == 255, clear += d.rgba[i] == 0;
    const double pixels = static_cast<double>(d.rgba.size() / 4);
    CHECK(static_cast<double>(opaque) > 0.3 * pixels);
    CHECK(static_cast<double>(clear) > 0.05 * pixels);
    // Without --transparent the same corner is opaque white.
    const std::string plain = temp_path("export_white.png");
    REQUIRE(run_export("--stage weights --head 0 --export " + plain) == 0);
    const Decoded w = decode(plain, false);
    REQUIRE(w.frames == 1);
    CHECK(w.rgba[0] == 255);
    CHECK(w.rgba[3] == 255);
  }

  TEST_CASE("ui: --export GIF has one frame per 1/fps seconds of --from..--to, at the canvas size") {
    const std::string path = temp_path("export.gif");
    std::string out;
    REQUIRE_MESSAGE(run_export("--export " + path + " --from 1 --to 3 --fps 5", &out) == 0, out);
    const Decoded d = decode(path, true);
    CHECK(d.frames == 11);  // 1.0, 1.2, ..., 3.0
    CHECK(d.width == 900);  // headless, the canvas spans the window
    CHECK(d.height > 280);
    CHECK(d.height < 560);
    // It animates: the first and last frames differ.
    const size_t frame_bytes = static_cast<size_t>(d.width) * static_cast<size_t>(d.height) * 4;
    REQUIRE(d.rgba.size() == frame_bytes * static_cast<size_t>(d.frames));
    CHECK(!std::equal(d.rgba.begin(), d.rgba.begin() + static_cast<std::ptrdiff_t>(frame_bytes),
                      d.rgba.end() - static_cast<std::ptrdiff_t>(frame_bytes)));
  }

  TEST_CASE("ui: an exported animation carries no app control: the top right, where Fit and the zoom sit, is background") {
    const std::string path = temp_path("no_controls.gif");
    std::string out;
    REQUIRE_MESSAGE(run_export("--export " + path + " --from 12 --to 12.8 --fps 2", &out) == 0, out);
    const Decoded d = decode(path, true);
    REQUIRE(d.frames >= 1);
    // The last frame's top-right corner: 120 x 30 pixels (the Fit button and
    // "100%" take about 110 x 25 there in the window; the caption panel ends left of it).
    const size_t frame = static_cast<size_t>(d.frames - 1) * static_cast<size_t>(d.width) * static_cast<size_t>(d.height) * 4;
    int off = 0;
    for (int y = 2; y < 32; ++y)
      for (int x = d.width - 122; x < d.width - 2; ++x) {
        const size_t i = frame + (static_cast<size_t>(y) * static_cast<size_t>(d.width) + static_cast<size_t>(x)) * 4;
        if (d.rgba[i] < 235 || d.rgba[i + 1] < 235 || d.rgba[i + 2] < 235) ++off;
      }
    CHECK_MESSAGE(off == 0, off << " pixels that are not the white background where the Fit button would be");
  }

  TEST_CASE("ui: a lesson step exports its own stretch of the animation, not the whole") {
    // Lesson 1: step 4 plays one row of outputs filling in; step 1 shows the scene at its end.
    const std::string lesson = "--lesson " + std::string(ATTNVIZ_ASSETS_DIR) + "/lessons/01_attention_from_scratch.json";
    std::string out;
    const std::string step = temp_path("lesson_step.gif"), whole = temp_path("lesson_whole.gif");
    REQUIRE_MESSAGE(run_export(lesson + " --step 4 --fps 5 --export " + step, &out) == 0, out);
    REQUIRE_MESSAGE(run_export(lesson + " --step 4 --fps 5 --from 0 --to 1000 --export " + whole, &out) == 0, out);
    const Decoded a = decode(step, true), b = decode(whole, true);
    CHECK(a.frames > 1);
    CHECK(a.frames < b.frames);
  }

  TEST_CASE("ui: --export MP4 without ffmpeg says how to get it and exits non-zero") {
    const std::string path = temp_path("export.mp4");
    std::remove(path.c_str());
    std::string out;
    const int status = run("PATH=/nonexistent " + attnviz("--test --size 640x400 --export " + path), &out);
    CHECK(status != 0);
    CHECK(out.find("ffmpeg not found: install it with `sudo apt install ffmpeg`, or export a GIF") != std::string::npos);
    std::ifstream left(path);
    CHECK_FALSE(left.good());
    if (run("command -v ffprobe >/dev/null") != 0) {
      MESSAGE("ffmpeg/ffprobe are not installed: the MP4 frame count is not checked");
      return;
    }
    REQUIRE_MESSAGE(run_export("--export " + path + " --from 0 --to 2 --fps 5", &out) == 0, out);
    std::string frames;
    run("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 " + path, &frames);
    CHECK(std::stoi(frames) == 11);
  }

  TEST_CASE("ui: --export SVG of one grid has a rect per cell (xml.etree)") {
    const std::string path = temp_path("export.svg");
    std::string out;
    REQUIRE_MESSAGE(run_export(kTwoHeads + " --stage scores --head 1 --export " + path, &out) == 0, out);
    const auto py = attn::test::run_python(
        "import sys, xml.etree.ElementTree as ET\n"
        "root = ET.parse(sys.argv[1]).getroot()\n"
        "print(len([r for r in root.iter('{http://www.w3.org/2000/svg}rect') if r.get('class') == 'cell']))\n",
        {path});
    if (!py.ran) {
      MESSAGE("skipped the xml.etree read-back: " << py.skip_reason);
      return;
    }
    REQUIRE(py.status == 0);
    REQUIRE(!py.lines.empty());
    const attn::Trace trace = attn::compute_trace(attn::io::load_scenario(kTwoHeads).scenario);
    const attn::Stage* s = trace.find(attn::StageKind::scores, 1);
    REQUIRE(s);
    CHECK(std::stoi(py.lines[0]) == s->value.rows() * s->value.cols());
  }

  TEST_CASE("ui: --export .npy of a stage matches the trace computed here to 1e-12 (NumPy)") {
    const std::string path = temp_path("export_weights.npy");
    std::string out;
    REQUIRE_MESSAGE(run_export(kTwoHeads + " --stage weights --head 1 --export " + path, &out) == 0, out);
    const auto py = attn::test::run_python(
        "import sys\ntry:\n    import numpy as np\nexcept ImportError:\n"
        "    print('python3-numpy is not installed (apt install python3-numpy)'); sys.exit(77)\n"
        "a = np.load(sys.argv[1])\nprint(a.shape[0], a.shape[1])\nfor v in a.ravel(): print(repr(float(v)))\n",
        {path});
    if (!py.ran) {
      MESSAGE("skipped the NumPy read-back: " << py.skip_reason);
      return;
    }
    REQUIRE(py.status == 0);
    const attn::Trace trace = attn::compute_trace(attn::io::load_scenario(kTwoHeads).scenario);
    const attn::Stage* s = trace.find(attn::StageKind::weights, 1);
    REQUIRE(s);
    REQUIRE(py.lines.size() == 1 + static_cast<size_t>(s->value.rows() * s->value.cols()));
    CHECK(py.lines[0] == std::to_string(s->value.rows()) + " " + std::to_string(s->value.cols()));
    double worst = 0;
    for (Eigen::Index i = 0; i < s->value.rows() * s->value.cols(); ++i)
      worst = std::max(worst, std::abs(attn::test::parse_double(py.lines[1 + static_cast<size_t>(i)]) - s->value(i / s->value.cols(), i % s->value.cols())));
    INFO("worst difference " << worst);
    CHECK(worst <= 1e-12);
  }

  TEST_CASE("ui: --export of a 1024-token scene waits for the whole trace (computed in the background): .npy and .png") {
    // It once failed with "cannot be computed: " (an empty reason) and exit 2.
    const std::string big = std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios/large_1024x8.json";
    const std::string npy = temp_path("big_weights.npy"), png = temp_path("big.png");
    std::string out;
    REQUIRE_MESSAGE(run_export(big + " --stage weights --head 3 --export " + npy, &out) == 0, out);
    REQUIRE_MESSAGE(run_export(big + " --export " + png, &out) == 0, out);
    const Decoded picture = decode(png, false);
    CHECK(picture.frames == 1);
    CHECK(picture.width > 100);
    // The .npy (version 1.0: magic, 2-byte header length, header, then
    // little-endian doubles) against head 3's weights computed here.
    std::ifstream in(npy, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 10);
    REQUIRE(bytes.compare(0, 6, "\x93NUMPY") == 0);
    const size_t header = static_cast<unsigned char>(bytes[8]) | (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    CHECK(bytes.find("'shape': (1024, 1024)") != std::string::npos);
    const attn::Trace trace = attn::compute_trace(attn::io::load_scenario(big).scenario);
    const attn::Stage* s = trace.find(attn::StageKind::weights, 3);
    REQUIRE(s);
    const size_t n = static_cast<size_t>(s->value.size());
    REQUIRE(bytes.size() == 10 + header + 8 * n);
    double worst = 0;
    Eigen::Index worst_at = 0;
    for (Eigen::Index i = 0; i < s->value.size(); ++i) {
      double v = 0;
      std::memcpy(&v, bytes.data() + 10 + header + 8 * static_cast<size_t>(i), 8);
      const double d = std::abs(v - s->value(i / s->value.cols(), i % s->value.cols()));
      if (d > worst) worst = d, worst_at = i;
    }
    CHECK_MESSAGE(worst <= 1e-12, "worst difference " << worst << " at [" << worst_at / s->value.cols() << ", "
                                                      << worst_at % s->value.cols() << "]");
  }

  TEST_CASE("ui: --export-size gives a picture of exactly that size, laid out for it, numbers printed, no window around it") {
    // The window is 900x560; each picture is laid out at its own size, the
    // canvas alone (no menu bar, panel or transport bar) and, for a still,
    // no caption: the grids and the legend fill it.
    std::vector<double> value_px;  // the smallest number's size, per picture
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1920, 1080}, {1024, 768}, {1280, 720}}) {
      const std::string size = std::to_string(w) + "x" + std::to_string(h);
      CAPTURE(size);
      const std::string path = temp_path("sized_" + size + ".png"), layout = temp_path("sized_" + size + ".json");
      std::string out;
      REQUIRE_MESSAGE(run_export("--export " + path + " --export-size " + size + " --dump-layout " + layout, &out) == 0, out);
      const Decoded d = decode(path, false);
      CHECK(d.width == w);
      CHECK(d.height == h);
      const nlohmann::json l = load_json(layout);
      CHECK(l["window"][0] == w);
      CHECK(l["window"][1] == h);
      // Every grid prints its numbers at this size, and the grids span the picture.
      double x0 = w, x1 = 0, y0 = h, y1 = 0;
      for (const auto& g : l["grids"]) {
        CHECK_MESSAGE(g["numbers"].get<bool>(), g["id"] << " head " << g["head"] << " has no numbers at " << size);
        x0 = std::min(x0, g["box"][0].get<double>()), y0 = std::min(y0, g["box"][1].get<double>());
        x1 = std::max(x1, g["box"][2].get<double>()), y1 = std::max(y1, g["box"][3].get<double>());
      }
      CHECK(x0 >= 0);
      CHECK(y0 >= 0);
      CHECK(x1 <= w);
      CHECK(y1 <= h);
      double smallest = 1e9;
      for (const auto& g : l["grids"]) smallest = std::min(smallest, g["value_px"].get<double>());
      value_px.push_back(smallest);
      CHECK_MESSAGE(std::max((x1 - x0) / w, (y1 - y0) / h) > 0.85, "the grids fill " << (x1 - x0) << "x" << (y1 - y0) << " of " << size);
      // No menu bar: the top-left strip, where "File Edit View" would sit, is white.
      int off = 0;
      for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 200; ++x) {
          const size_t i = (static_cast<size_t>(y) * static_cast<size_t>(d.width) + static_cast<size_t>(x)) * 4;
          if (d.rgba[i] < 235 || d.rgba[i + 1] < 235 || d.rgba[i + 2] < 235) ++off;
        }
      CHECK_MESSAGE(off == 0, off << " pixels of the top-left strip are not background");
    }
    // Numbers are drawn for the picture (each grid printed them above, so at
    // 8.5 px or more), larger in the larger one.
    REQUIRE(value_px.size() == 3);
    CHECK_MESSAGE(value_px[0] > 1.3 * value_px[1], "numbers " << value_px[0] << " px at 1920x1080, " << value_px[1] << " px at 1024x768");
  }

  TEST_CASE("ui: --export-size with a GIF: every frame that size, one per 1/fps seconds") {
    const std::string path = temp_path("sized.gif");
    std::string out;
    REQUIRE_MESSAGE(run_export("--export " + path + " --export-size 640x360 --from 1 --to 2 --fps 4", &out) == 0, out);
    const Decoded d = decode(path, true);
    CHECK(d.width == 640);
    CHECK(d.height == 360);
    CHECK(d.frames == 5);  // 1, 1.25, 1.5, 1.75, 2
  }

  TEST_CASE("ui: --export-size mistakes name what is wrong") {
    std::string out;
    CHECK(run_export("--export " + temp_path("x.png") + " --export-size 10x10", &out) == 2);
    CHECK(out.find("--export-size: 10x10 is too small (64 to 8192 pixels a side)") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --export-size 0x0", &out) == 2);
    CHECK(out.find("--export-size: 0x0 is too small") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --export-size wide", &out) == 2);
    CHECK(out.find("--export-size expects WxH") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.svg") + " --export-size 800x600", &out) == 2);
    CHECK(out.find("an SVG has no pixel size") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --export-size 800x600 --scale 2", &out) == 2);
    CHECK(out.find("give one") != std::string::npos);
  }

  TEST_CASE("ui: --export mistakes get one clear line and a non-zero exit") {
    std::string out;
    CHECK(run_export("--export " + temp_path("x.bmp"), &out) == 2);
    CHECK(out.find("--export: cannot tell the format of") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --stage nope", &out) == 2);
    CHECK(out.find("--stage: no stage \"nope\"") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --stage weights --head 7", &out) == 2);
    CHECK(out.find("--head: 7 is out of range") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.png") + " --scale 3", &out) == 2);
    CHECK(out.find("--scale: 3 is not offered (use 1, 2 or 4)") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.gif") + " --from 4 --to 2", &out) == 2);
    CHECK(out.find("--from 4 is after --to 2") != std::string::npos);
    CHECK(run_export("--export " + temp_path("x.npy"), &out) != 0);
    CHECK(out.find("which stage?") != std::string::npos);
  }
}
