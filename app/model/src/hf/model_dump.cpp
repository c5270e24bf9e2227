// The Model view in --dump-state (ModelSession::dump): what the tests read
// back, in the units the view shows.
#include "model/hf/model_session.hpp"

namespace model {

namespace {

nlohmann::json predictions_json(const std::vector<TokenPrediction>& list) {
  nlohmann::json j = nlohmann::json::array();
  for (const TokenPrediction& p : list) j.push_back({{"id", p.id}, {"token", p.text}, {"probability", p.probability}});
  return j;
}

nlohmann::json heads_json(const ModelAnalysis& a) {
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& layer : a.heads) {
    nlohmann::json heads = nlohmann::json::array();
    for (const HeadSummary& h : layer)
      heads.push_back({{"previous", h.measures.previous}, {"first", h.measures.first}, {"self", h.measures.self},
                       {"entropy", h.measures.entropy}, {"evenness", h.measures.evenness}, {"role", h.role}});
    layers.push_back(std::move(heads));
  }
  return layers;
}

const char* tab_name(ModelUi::Tab tab) {
  switch (tab) {
    case ModelUi::Tab::Heads: return "heads";
    case ModelUi::Tab::Lens: return "lens";
    case ModelUi::Tab::Attribution: return "attribution";
    case ModelUi::Tab::Patching: return "patching";
    case ModelUi::Tab::Quantization: return "quantization";
    case ModelUi::Tab::Overview: break;
  }
  return "overview";
}

}  // namespace

nlohmann::json ModelSession::dump(const ModelUi& ui) const {
  nlohmann::json j = {{"open", ui.open}, {"folder", ui.folder}, {"text", ui.text},
                      {"tab", tab_name(ui.tab)}, {"layer", ui.layer},
                      {"loaded", checkpoint_ != nullptr}, {"family", family_line()}, {"precision", attn::hf::precision_name<float>()}, {"error", error_},
                      {"computing", computing()}, {"cancelled", cancelled_}, {"tokens", labels_}, {"ids", ids_},
                      {"mode", ui.mode == attn::hf::AblationMode::Mean ? "mean" : "zero"}};
  nlohmann::json off = nlohmann::json::array();
  for (const attn::hf::HeadRef& h : ui.heads_off) off.push_back({h.layer, h.head});
  j["heads_off"] = off;
  j["precision_line"] = precision_line();
  j["notice"] = notice_;
  if (const auto& gap = precision_.gap())
    j["float_gap"] = {{"max_abs", gap->max_abs}, {"layer", gap->layer}, {"head", gap->head}};
  j["measure"] = measure_name(ui.measure);
  j["sorted"] = ui.sort_by_measure;
  j["show_after"] = ui.show_after;
  j["heads"] = before_ ? heads_json(*before_) : nlohmann::json::array();
  j["heads_after"] = after_ ? heads_json(*after_) : nlohmann::json::array();  // the run with heads_off off
  j["predictions"] = predictions_json(before_ ? before_->predictions : std::vector<TokenPrediction>{});
  j["predictions_after"] = predictions_json(after_ ? after_->predictions : std::vector<TokenPrediction>{});
  // The first list's tokens after the heads are off, in the top ten or not.
  nlohmann::json moved = nlohmann::json::array();
  if (before_ && after_)
    for (const TokenPrediction& p : before_->predictions)
      moved.push_back({{"id", p.id}, {"token", p.text}, {"probability", after_->probability_of(p.id)}});
  j["predictions_before_after"] = moved;
  j["keep_first_tokens"] = ui.keep_first_tokens;
  j["too_long"] = too_long_;
  j["note"] = note_;
  j["atlas"] = {{"width", atlas_.width}, {"height", atlas_.height}, {"tile", atlas_.tile}};
  // The logit lens once computed: each row's name and each cell's top guess.
  if (const LensGrid* g = lens_.result(before_.get())) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < g->top.size(); ++r) {
      nlohmann::json cells = nlohmann::json::array();
      for (const auto& guesses : g->top[r])
        cells.push_back(guesses.empty() ? nlohmann::json(nullptr)
                                        : nlohmann::json({{"id", guesses[0].id}, {"probability", guesses[0].probability}}));
      rows.push_back({{"name", g->row_names[r]}, {"top", cells}});
    }
    j["lens"] = rows;
  }
  if (const AttributionMap* a = attribution_.result(before_.get()))
    j["attribution"] = {{"token", a->parts.token}, {"token_text", a->token_text}, {"logit", a->parts.logit},
                        {"heads", a->parts.heads}, {"mlps", a->parts.mlps}};
  j["corrupted"] = ui.corrupted;
  if (!patching_.error().empty()) j["patching_error"] = patching_.error();
  if (const PatchMap* p = patching_.result(ids_))
    j["patching"] = {{"site", p->site == attn::hf::PatchSite::HeadOutput ? "heads" : "positions"},
                     {"corrupted_ids", p->corrupted}, {"answer", p->result.answer}, {"wrong", p->result.wrong},
                     {"clean", p->result.clean}, {"corrupted", p->result.corrupted},
                     {"patched", p->result.patched}, {"recovered", p->result.recovered}};
  j["beside"] = ui.beside;
  if (!quant_.error().empty()) j["quant_error"] = quant_.error();
  if (const QuantMap* q = quant_.result(ids_)) {
    nlohmann::json heads = nlohmann::json::array();
    for (const attn::hf::HeadDivergence& h : q->divergence.heads)
      heads.push_back({{"layer", h.layer}, {"head", h.head}, {"mean_bits", h.mean}, {"worst_bits", h.worst},
                       {"worst_query", h.worst_row}});
    j["quant"] = {{"types", q->types}, {"beside_types", q->beside_types}, {"heads", heads}};
  }
  if (ui.in_pipeline) j["in_pipeline"] = {{"layer", ui.in_pipeline->layer}, {"revision", ui.in_pipeline->revision}};
  if (const ModelSourceSplit* s = sources_.latest()) {
    nlohmann::json by_key = nlohmann::json::object(), by_query = nlohmann::json::object();
    const attn::Vec k = s->split.by_key_source(), q = s->split.by_query_source();
    for (Eigen::Index i = 0; i < k.size(); ++i) by_key[s->split.key_sources[static_cast<std::size_t>(i)]] = k(i);
    for (Eigen::Index i = 0; i < q.size(); ++i) by_query[s->split.query_sources[static_cast<std::size_t>(i)]] = q(i);
    j["sources"] = {{"layer", s->cell.layer}, {"head", s->cell.head}, {"query", s->cell.query}, {"key", s->cell.key},
                    {"score", s->split.score}, {"by_key_source", by_key}, {"by_query_source", by_query}};
  }
  if (!sources_.error().empty()) j["sources_error"] = sources_.error();
  if (ui.hovered_position >= 0)
    if (const auto* p = predictions_at(ui.hovered_position)) j["predictions_hovered"] = predictions_json(*p);
  return j;
}

}  // namespace model
