// The residual stream taken apart (stream_sources.hpp). Only the asked
// positions are taken apart, so a split costs a few vector-matrix products
// a layer whatever the text's length.
#include "why/stream_sources.hpp"

#include <cmath>

#include "attn/hf/model_error.hpp"
#include "forward/attention_input.hpp"
#include "forward/layer_weights.hpp"

namespace attn::hf::detail {

namespace {

// Rows `a` and `b` of a matrix, as a (2, cols) matrix.
Mat64 two_rows(const Mat64& m, int a, int b) {
  Mat64 out(2, m.cols());
  out.row(0) = m.row(a);
  out.row(1) = m.row(b);
  return out;
}

}  // namespace

Sources stream_sources(const Checkpoint& ck, const ForwardResult<double>& r, int layer, int a, int b) {
  const ModelConfig& c = ck.config();
  const EmbeddingTensors e = embedding_tensors(ck);
  const std::vector<int>& ids = r.ids;
  Sources s;
  s.names.push_back("token embedding");
  s.origins.push_back({});
  s.parts.push_back(load_rows<double>(e.tokens, c.d_model, {ids[static_cast<std::size_t>(a)], ids[static_cast<std::size_t>(b)]}) *
                    c.embed_scale);  // Gemma scales its embeddings by sqrt(d_model), as the float64 pass does
  if (e.positions.info) {
    s.names.push_back("position embedding");
    s.origins.push_back({});
    s.parts.push_back(load_rows<double>(e.positions, c.d_model, {a, b}));
  }
  for (int l = 0; l < layer; ++l) {
    const LayerRecord<double>& rec = r.layers[static_cast<std::size_t>(l)];
    // In float: an F32 checkpoint's weights are served from the mapping, not
    // converted (a float64 layer converts the MLP too); every stored type
    // widens to float exactly, and each head's slice of W_O to double.
    const LayerWeights<float> w = load_layer<float>(ck, l);
    const std::string name = "L" + std::to_string(l);
    const Weight<float>& w_o = w.w_o;
    // Gemma 2 norms attention's output before the stream gets it: each part
    // goes through that norm held at the row's value, as the final norm's
    // parts are (held_by_norm); summed, they are what attention added.
    const Mat64 attn_out = two_rows(rec.attn_output, a, b);
    const Row64 post_gamma = w.post_attn_norm_w.cast<double>();
    const auto added = [&](Mat64 part) {
      if (c.sandwich_norms)
        for (int i = 0; i < 2; ++i) part.row(i) = held_by_norm(c, attn_out.row(i), part.row(i), post_gamma);
      return part;
    };
    for (int h = 0; h < c.n_heads; ++h) {
      s.names.push_back(name + " H" + std::to_string(h));
      s.origins.push_back({l, h, false});
      const Mat64 out = two_rows(rec.head_outputs[static_cast<std::size_t>(h)], a, b);  // (2, hd)
      // Through this head's rows of W_O, (hd, d), read as the forward reads it.
      const Mat64 rows = w_o.transposed
                             ? Mat64(w_o.stored_t().middleCols(h * c.head_dim, c.head_dim).transpose().cast<double>())
                             : Mat64(w_o.plain().middleRows(h * c.head_dim, c.head_dim).cast<double>());
      s.parts.push_back(added(out * rows));
    }
    if (w.b_o.size() > 0) {
      s.names.push_back(name + " attention bias");
      s.origins.push_back({l, -1, false});
      Mat64 bias(2, c.d_model);
      bias.rowwise() = w.b_o.cast<double>();
      s.parts.push_back(added(bias));
    }
    // What the MLP added: the layer's output less what entered and what attention added.
    s.names.push_back(name + " MLP");
    s.origins.push_back({l, -1, true});
    const Mat64 attn_added = c.sandwich_norms ? Mat64(family_norm<double>(c, attn_out, post_gamma, Row64())) : attn_out;
    s.parts.push_back(two_rows(rec.output, a, b) - two_rows(rec.input, a, b) - attn_added);
    w.release();
  }
  return s;
}

void check_index(const char* what, int value, int count) {
  if (value < 0 || value >= count)
    throw ModelError(std::string(what) + " " + std::to_string(value) + " is outside 0.." + std::to_string(count - 1));
}

Row64 held_by_norm(const ModelConfig& c, const Row64& stream, const Row64& part, const Row64& gamma) {
  if (c.norm == NormKind::RmsNorm) {
    const double rms = std::sqrt(stream.squaredNorm() / static_cast<double>(stream.size()) + c.norm_eps);
    return (part / rms).cwiseProduct(c.norm_adds_one ? Row64((gamma.array() + 1).matrix()) : gamma);
  }
  const double mean = stream.mean();
  const double sigma = std::sqrt((stream.array() - mean).square().mean() + c.norm_eps);
  return ((part.array() - part.mean()) / sigma).matrix().cwiseProduct(gamma);
}

}  // namespace attn::hf::detail
