// The "FlashAttention tiles" panel model: stepping through the loop and
// clamping at its ends, block sizes kept in 1..n, play as a pure function of
// the seconds since it started, the core's refusals as text, and recompute
// only when the trace, head or blocks change (a tile step only picks grids).
#include <doctest/doctest.h>

#include <string>

#include "attn/io/lesson_file.hpp"
#include "attn/io/scenario_file.hpp"
#include "model/lessons/lesson_actions.hpp"
#include "model/flash_tiles/flash_tiles.hpp"
#include "model/flash_tiles/flash_tiles_feature.hpp"
#include "model/lessons/lessons_feature.hpp"
#include "model/session/session.hpp"

namespace {

attn::Trace flash_trace(const std::string& name) {
  return attn::compute_trace(attn::io::load_scenario(ATTNVIZ_ASSETS_DIR "/scenarios/" + name + ".json").scenario);
}

using model::FlashTileIndex;

}  // namespace

TEST_CASE("flash tiles: next and previous walk the loop in order and stop at both ends") {
  // 3 query blocks × 2 key blocks: (0,0) (0,1) (1,0) (1,1) (2,0) (2,1).
  FlashTileIndex t{0, 0};
  t = model::next_tile(t, 3, 2);
  CHECK(t == FlashTileIndex{0, 1});
  t = model::next_tile(t, 3, 2);
  CHECK(t == FlashTileIndex{1, 0});  // the inner loop wraps into the next query block
  CHECK(model::previous_tile(t, 3, 2) == FlashTileIndex{0, 1});
  CHECK(model::previous_tile({0, 0}, 3, 2) == FlashTileIndex{0, 0});
  CHECK(model::next_tile({2, 1}, 3, 2) == FlashTileIndex{2, 1});
  CHECK(model::tile_order({2, 1}, 2) == 5);
  CHECK(model::tile_at_order(5, 3, 2) == FlashTileIndex{2, 1});
  CHECK(model::clamp_tile({7, -3}, 3, 2) == FlashTileIndex{2, 0});
  CHECK(model::clamp_tile({1, 1}, 0, 0) == FlashTileIndex{0, 0});
}

TEST_CASE("flash tiles: block sizes stay between 1 and the sequence length") {
  CHECK(model::clamp_block(0, 10) == 1);
  CHECK(model::clamp_block(-4, 10) == 1);
  CHECK(model::clamp_block(4, 10) == 4);
  CHECK(model::clamp_block(11, 10) == 10);
  CHECK(model::clamp_block(3, 0) == 1);
}

TEST_CASE("flash tiles: play shows one tile a second from where it started, then holds at the last") {
  CHECK(model::played_tile(0, 0.0, 3, 2) == FlashTileIndex{0, 0});
  CHECK(model::played_tile(0, 0.99, 3, 2) == FlashTileIndex{0, 0});
  CHECK(model::played_tile(0, 1.0, 3, 2) == FlashTileIndex{0, 1});
  CHECK(model::played_tile(2, 1.5, 3, 2) == FlashTileIndex{1, 1});
  CHECK(model::played_tile(0, 100.0, 3, 2) == FlashTileIndex{2, 1});
  CHECK(model::played_tile(0, -1.0, 3, 2) == FlashTileIndex{0, 0});
  CHECK_FALSE(model::play_finished(0, 4.5, 3, 2));
  CHECK(model::play_finished(0, 5.0, 3, 2));
}

TEST_CASE("flash tiles: the model runs the head in tiles and matches the plain path") {
  const attn::Trace t = flash_trace("flash_tiles");
  model::FlashTilesModel m;
  model::FlashTilesState s;
  s.block_rows = 3, s.block_cols = 4;
  const model::FlashTilesView& v = m.update(t, 1, -1, s);
  REQUIRE_MESSAGE(v.ok(), v.error);
  CHECK(v.head == 0);  // "all heads" shows head 0
  CHECK(v.query_blocks() == (t.dims.n_q + 2) / 3);
  CHECK(v.key_blocks() == (t.dims.n_k + 3) / 4);
  CHECK(v.run.max_abs_diff < 1e-12);
  CHECK(model::difference_label(v).find("same as the plain softmax path: max |difference| = ") == 0);
  REQUIRE(v.grids.size() == 7);
  CHECK(v.grids[0].kind == attn::StageKind::flash_scores);
  CHECK(v.grids[0].title == std::string(attn::info_of(attn::StageKind::flash_scores).title));
  CHECK(v.grids[0].values.rows() == 3);
  CHECK(v.grids[0].values.cols() == 4);
  CHECK(v.grids[6].values.cols() == t.dims.d_v);
  CHECK_FALSE(v.block_done);
  CHECK(v.scores.values.rows() == t.dims.n_q);
  CHECK(v.scores.values.cols() == t.dims.n_k);
  CHECK(v.tiled.total() < v.standard.total());
  CHECK(model::tile_label(v) == "query block 1 of " + std::to_string(v.query_blocks()) + ", key block 1 of " +
                                    std::to_string(v.key_blocks()));

  // A step only picks the tile's grids; the last key block brings the block output.
  s.tile = {0, v.key_blocks() - 1};
  m.update(t, 1, -1, s);
  CHECK(m.runs() == 1);
  CHECK(v.block_done);
  CHECK(v.block_output.values.cols() == t.dims.d_v);
  // New blocks run again and keep the tile inside the new grid.
  s.block_rows = 5, s.block_cols = 5;
  s.tile = {9, 9};
  m.update(t, 1, -1, s);
  CHECK(m.runs() == 2);
  CHECK(s.tile == FlashTileIndex{v.query_blocks() - 1, v.key_blocks() - 1});
}

TEST_CASE("flash tiles: play advances the state's tile with the seconds the session adds") {
  const attn::Trace t = flash_trace("flash_tiles");
  model::FlashTilesModel m;
  model::FlashTilesState s;
  m.update(t, 1, 0, s);
  s.playing = true;
  s.play_from = 0;
  s.play_seconds = 2.2;
  m.update(t, 1, 0, s);
  CHECK(model::tile_order(s.tile, m.view().key_blocks()) == 2);
  s.play_seconds = 1e6;
  m.update(t, 1, 0, s);
  CHECK_FALSE(s.playing);  // stopped at the last tile
  CHECK(s.tile == FlashTileIndex{m.view().query_blocks() - 1, m.view().key_blocks() - 1});
}

TEST_CASE("flash tiles: the core's refusals become the panel's text, never a throw") {
  model::FlashTilesModel m;
  model::FlashTilesState s;
  const attn::Trace after = flash_trace("masking_after_softmax");
  const model::FlashTilesView& v = m.update(after, 1, 0, s);
  CHECK_FALSE(v.ok());
  CHECK(v.error.find("softmax") != std::string::npos);
  CHECK(v.query_blocks() == 0);
  CHECK(model::tile_label(v) == "no tiles");

  const attn::Trace t = flash_trace("flash_tiles");
  s.block_rows = t.dims.n_q + 1;  // a tile larger than the sequence: the core says so
  m.update(t, 2, 0, s);
  CHECK_FALSE(m.view().ok());
  CHECK_FALSE(m.view().error.empty());
  s.block_rows = 2;
  m.update(t, 2, 0, s);
  CHECK(m.view().ok());
}

TEST_CASE("flash tiles: a hovered cell is explained by the core") {
  const attn::Trace t = flash_trace("flash_tiles");
  model::FlashTilesModel m;
  model::FlashTilesState s;
  m.update(t, 1, 0, s);
  s.hover = model::FlashHover{static_cast<int>(attn::StageKind::flash_p), {0, 0}, 1, 0};
  const model::FlashTilesView& v = m.update(t, 1, 0, s);
  REQUIRE(v.hovered_ok);
  CHECK(v.hovered.value == doctest::Approx(v.grids[4].values(1, 0)));
  s.hover.reset();
  m.update(t, 1, 0, s);
  CHECK_FALSE(v.hovered_ok);
}

TEST_CASE("flash tiles: a lesson step opens the panel by the name \"flash_tiles\" and the next one closes it") {
  const std::string text = R"({
    "format": "attnviz-lesson", "version": 1, "title": "Tiles", "article": "FlashAttention",
    "steps": [
      {"title": "tiles", "text": "x", "scene": "flash_tiles.json", "view": {"panels": {"flash_tiles": true}}},
      {"title": "done", "text": "x", "view": {"panels": {"flash_tiles": false}}}
    ]})";
  model::SessionOptions quiet;
  quiet.watch_disk = false;
  model::Session session(model::AppState{}, quiet);
  model::CanvasMetrics canvas;
  canvas.width = 1200;
  canvas.height = 800;
  canvas.line_height = 20;
  // The step asks by name; the session hands the request to the feature that owns the panel.
  model::LessonState& lessons = session.features().get<model::LessonsFeature>().state;
  model::actions::start_lesson(session.state(), lessons, attn::io::parse_lesson(text, std::string(ATTNVIZ_ASSETS_DIR) + "/scenarios", "flash_test"));
  session.update(0, canvas);
  model::Feature* tiles = session.features().find("flash_tiles");
  REQUIRE(tiles != nullptr);
  CHECK(tiles->is_shown());
  CHECK(&session.features().get<model::FlashTilesFeature>() == tiles);
  model::actions::lesson_step(session.state(), lessons, 1);
  session.update(0, canvas);
  CHECK_FALSE(tiles->is_shown());
}
