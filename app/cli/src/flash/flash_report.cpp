// Text and JSON forms of a FlashAttention run (flash_report.hpp).
#include "flash/flash_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/text/format_number.hpp"

namespace attn::cli {
namespace {

// A grid as rows of numbers, labelled by its row labels when it has them.
void print_grid(std::ostream& out, const Stage& s) {
  out << "  " << s.title << ": " << s.formula << "\n";
  const Mat m = s.value.dense();
  size_t label_width = 0;
  for (const std::string& l : s.row_labels.vec()) label_width = std::max(label_width, l.size());
  const auto cell = [](const std::string& v) {
    size_t width = 0;  // in characters, not bytes: "−∞" is 5 bytes wide in UTF-8 and 2 on screen
    for (const char ch : v) width += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    return " " + std::string(width < 9 ? 9 - width : 0, ' ') + v;
  };
  if (s.col_labels.size() == static_cast<size_t>(m.cols())) {  // the keys (or value dims) above their columns
    out << "    " << std::string(label_width, ' ');
    for (const std::string& l : s.col_labels.vec()) out << cell(l.size() > 9 ? l.substr(0, 9) : l);
    out << "\n";
  }
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    std::string label = r < static_cast<Eigen::Index>(s.row_labels.size()) ? s.row_labels[static_cast<size_t>(r)] : "";
    label.resize(label_width, ' ');
    out << "    " << label;
    for (Eigen::Index c = 0; c < m.cols(); ++c) out << cell(format_number(m(r, c)));
    out << "\n";
  }
}

void print_tile(std::ostream& out, const FlashTile& t) {
  out << "tile (" << t.i << ", " << t.j << "): queries " << t.row0 << " to " << t.row0 + t.rows - 1 << ", keys "
      << t.col0 << " to " << t.col0 + t.cols - 1 << "\n";
  for (const Stage* s : {&t.scores, &t.max_old, &t.max_new, &t.rescale, &t.p, &t.sum, &t.o}) print_grid(out, *s);
}

void print_traffic(std::ostream& out, const std::string& what, const HbmTraffic& t) {
  out << "  " << what << ": " << t.reads << " read + " << t.writes << " written = " << t.total() << "\n";
}

nlohmann::json grid_json(const Stage& s) {
  nlohmann::json rows = nlohmann::json::array();
  const Mat m = s.value.dense();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(std::isfinite(m(r, c)) ? nlohmann::json(m(r, c)) : nlohmann::json());
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json tile_json(const FlashTile& t) {
  nlohmann::json j{{"i", t.i}, {"j", t.j}, {"row0", t.row0}, {"rows", t.rows}, {"col0", t.col0}, {"cols", t.cols}};
  for (const Stage* s : {&t.scores, &t.max_old, &t.max_new, &t.rescale, &t.p, &t.sum, &t.o})
    j[std::string(name_of(s->id))] = grid_json(*s);
  return j;
}

nlohmann::json traffic_json(const HbmTraffic& t) {
  return {{"reads", t.reads}, {"writes", t.writes}, {"total", t.total()}};
}

}  // namespace

FlashTraffic flash_traffic(const FlashAttention& fa, int d_k, long long sram) {
  FlashTraffic io;
  io.sram = sram;
  io.standard = standard_attention_io(fa.n_q, fa.n_k, d_k, fa.d_v);
  io.queries_outer = flash_attention_io(fa.n_q, fa.n_k, d_k, fa.d_v, fa.block_rows, fa.block_cols, FlashLoop::QueriesOuter);
  io.keys_outer = flash_attention_io(fa.n_q, fa.n_k, d_k, fa.d_v, fa.block_rows, fa.block_cols, FlashLoop::KeysOuter);
  // The paper has one head width d; the wider of d_k and d_v sizes the blocks.
  io.paper = paper_blocks(sram, std::max(d_k, fa.d_v));
  io.paper_keys_outer = flash_attention_io(fa.n_q, fa.n_k, d_k, fa.d_v, io.paper.rows, io.paper.cols, FlashLoop::KeysOuter);
  io.paper_queries_outer =
      flash_attention_io(fa.n_q, fa.n_k, d_k, fa.d_v, io.paper.rows, io.paper.cols, FlashLoop::QueriesOuter);
  return io;
}

void print_flash(std::ostream& out, const FlashAttention& fa, const FlashTraffic& io, std::optional<TileChoice> only) {
  out << "FlashAttention, head " << fa.head << ": " << fa.n_q << " queries × " << fa.n_k << " keys, d_v " << fa.d_v
      << "; blocks B_r = " << fa.block_rows << ", B_c = " << fa.block_cols << ": " << fa.query_blocks() << " × "
      << fa.key_blocks() << " tiles\n\n";
  for (const FlashBlock& b : fa.blocks) {
    if (only && only->i != b.i) continue;
    for (const FlashTile& t : b.tiles)
      if (!only || only->j == t.j) print_tile(out, t);
    if (!only || only->j == fa.key_blocks() - 1) {
      out << "block " << b.i << " after its last key block:\n";
      print_grid(out, b.output);
    }
    out << "\n";
  }
  if (!only) {
    print_grid(out, fa.output);
    out << "\n";
  }
  out << "check: max |flash − plain head_output| = " << format_number(fa.max_abs_diff, 3) << " at [" << fa.worst_row
      << "][" << fa.worst_col << "]\n\n";
  out << "slow memory (HBM) traffic in elements, on-chip memory M = " << io.sram << ":\n";
  print_traffic(out, "standard attention (S and P through HBM)", io.standard);
  print_traffic(out, "tiles of B_r = " + std::to_string(fa.block_rows) + ", B_c = " + std::to_string(fa.block_cols) +
                         ", queries outside (FlashAttention-2)", io.queries_outer);
  print_traffic(out, "the same tiles, keys outside (the paper's Algorithm 1)", io.keys_outer);
  const std::string paper = "paper's blocks B_r = " + std::to_string(io.paper.rows) + ", B_c = " + std::to_string(io.paper.cols);
  print_traffic(out, paper + ", keys outside", io.paper_keys_outer);
  print_traffic(out, paper + ", queries outside", io.paper_queries_outer);
}

nlohmann::json flash_json(const FlashAttention& fa, const FlashTraffic& io, std::optional<TileChoice> only) {
  nlohmann::json j{{"format", "attnviz-flash"},   {"head", fa.head},          {"n_q", fa.n_q},
                   {"n_k", fa.n_k},               {"d_v", fa.d_v},            {"block_rows", fa.block_rows},
                   {"block_cols", fa.block_cols}, {"query_blocks", fa.query_blocks()}, {"key_blocks", fa.key_blocks()}};
  nlohmann::json tiles = nlohmann::json::array(), blocks = nlohmann::json::array();
  for (const FlashBlock& b : fa.blocks) {
    if (only && only->i != b.i) continue;
    for (const FlashTile& t : b.tiles)
      if (!only || only->j == t.j) tiles.push_back(tile_json(t));
    blocks.push_back({{"i", b.i}, {"row0", b.row0}, {"rows", b.rows}, {"flash_block_output", grid_json(b.output)}});
  }
  j["tiles"] = std::move(tiles);
  j["blocks"] = std::move(blocks);
  if (!only) j["flash_output"] = grid_json(fa.output);
  j["check"] = {{"max_abs_diff", fa.max_abs_diff}, {"row", fa.worst_row}, {"col", fa.worst_col}};
  j["hbm"] = {{"sram", io.sram},
              {"standard", traffic_json(io.standard)},
              {"queries_outer", traffic_json(io.queries_outer)},
              {"keys_outer", traffic_json(io.keys_outer)},
              {"paper_blocks", {{"block_rows", io.paper.rows}, {"block_cols", io.paper.cols}}},
              {"paper_keys_outer", traffic_json(io.paper_keys_outer)},
              {"paper_queries_outer", traffic_json(io.paper_queries_outer)}};
  return j;
}

}  // namespace attn::cli
