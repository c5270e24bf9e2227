// `attn model info|tokens|attention|scene|why|attribute|patch|lens|quant DIR ...`: a Hugging Face model
// folder or a GGUF file on disk, headless. info: its family, sizes, dtypes, files and
// tokenizer. tokens: a text's ids and pieces. attention: every
// layer's softmax weights on a text, as JSON indexed [layer][head][query][key]
// in float64. scene: one layer as an ordinary scenario file. why: a score
// split by residual-stream source. attribute: direct logit attribution
// (model/attribution_report.cpp). patch: activation patching
// (model/patch_report.cpp). lens: the logit lens (model/lens_report.cpp).
// quant: what quantization does to each head (model/quant_report.cpp).
#include <charconv>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "attn/hf/forward/forward.hpp"
#include "attn/hf/forward/layer_scene.hpp"
#include "attn/hf/model_error.hpp"
#include "attn/hf/tokenizer/tokenizer.hpp"
#include "attn/hf/why/score_sources.hpp"
#include "attn/io/scenario_file.hpp"
#include "cli_error.hpp"
#include "commands/commands.hpp"
#include "model/attention_export.hpp"
#include "model/attribution_report.hpp"
#include "model/lens_report.hpp"
#include "model/quant_report.hpp"
#include "model/model_files.hpp"
#include "model/model_input.hpp"
#include "model/patch_report.hpp"
#include "output_file.hpp"
#include "output_guard.hpp"
#include "stage_choice.hpp"
#include "why/why_report.hpp"

namespace attn::cli {

namespace {

struct ModelCommandOptions {
  ModelInput in;
  std::string out;
  int layer = 0, head = 0;
  int row = 0, col = 0;  // why: the score's query and key
  bool json = false;
  bool raw = false;  // tokens: the vocabulary's own strings ("Ġan"), not the readable pieces (" an")
};

std::string size_text(std::size_t bytes) {
  char buf[64];
  if (bytes >= (1u << 30)) std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(bytes) / (1 << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

// The shortest digits that read back exactly, without an exponent
// ("500000", not "5e+05"): RoPE's bases and factors are at least 1.
std::string number_text(double v) {
  char buf[400];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

int run_info(const ModelCommandOptions& o) {
  const OpenedModel m = open_model(o.in, false);
  const hf::ModelConfig& c = m.checkpoint->config();
  try {
    hf::check_tensors(*m.checkpoint);  // a missing or misshapen tensor is an error here too, not at first use
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  struct TypeTotal {
    std::uint64_t weights = 0, bytes = 0;
  };
  std::map<std::string, TypeTotal> by_dtype;
  std::uint64_t parameters = 0;
  for (const hf::Checkpoint::StoredTensor& t : m.checkpoint->stored_tensors()) {
    by_dtype[t.type].weights += t.elements;
    by_dtype[t.type].bytes += t.bytes;
    parameters += t.elements;
  }
  std::cout << "family:      " << c.family_name() << " (model_type \"" << c.model_type << "\")\n"
            << "layers:      " << c.n_layers << "\n"
            << "width:       " << c.d_model << "\n"
            << "heads:       " << c.n_heads << " of width " << c.head_dim;
  if (c.n_kv_heads != c.n_heads) std::cout << ", " << c.n_kv_heads << " key/value heads (grouped-query)";
  std::cout << "\nMLP width:   " << c.d_ff << "\n"
            << "vocabulary:  " << c.vocab << "\n"
            << "positions:   ";
  if (c.rope) {
    std::cout << "RoPE, theta " << number_text(c.rope_theta);
    if (c.rope_type != "default") std::cout << ", scaling \"" << c.rope_type << "\"";
    if (c.rope_attention_factor != 1) std::cout << " (attention factor " << number_text(c.rope_attention_factor) << ")";
    std::cout << "; up to " << c.max_positions << " tokens\n";
  } else {
    std::cout << "learned, up to " << c.max_positions << "\n";
  }
  std::cout << "attention:   " << (c.causal ? "causal" : "bidirectional");
  if (c.sliding_window) {
    int windowed = 0;
    for (bool w : c.windowed_layers) windowed += w;
    std::cout << ", sliding window of " << *c.sliding_window << " in "
              << (windowed == c.n_layers ? std::string("every layer") : std::to_string(windowed) + " of " + std::to_string(c.n_layers) + " layers");
  }
  const std::string root_of = c.query_pre_attn_scalar > 0 ? number_text(c.query_pre_attn_scalar) : std::to_string(c.head_dim);
  std::cout << "; scores divided by " << (c.scale_by_sqrt_head_dim ? "sqrt(" + root_of + ")" : std::string("1"))
            << (c.scale_by_layer ? " x (layer + 1)" : "")
            << (c.rope_attention_factor != 1 ? " / " + number_text(c.rope_attention_factor) + "^2" : "")
            << (c.attn_softcap > 0 ? ", then soft-capped at " + number_text(c.attn_softcap) : "")
            << (c.final_softcap > 0 ? "; next-token scores capped at " + number_text(c.final_softcap) : "");
  std::cout << "\nparameters:  " << parameters << "\ndtypes:     ";
  for (const auto& [name, total] : by_dtype)
    std::cout << " " << name << " (" << total.weights << " weights, " << size_text(total.bytes) << ")";
  std::cout << "\nfiles:      ";
  for (const auto& path : m.checkpoint->weight_paths()) {
    std::error_code ec;
    std::cout << " " << path.filename().string() << " (" << size_text(std::filesystem::file_size(path, ec)) << ")";
  }
  for (const std::string& note : c.notes) std::cout << "\nnote:        " << note;
  std::cout << "\ntokenizer:   ";
  try {
    const hf::Tokenizer t = hf::Tokenizer::load_folder(o.in.dir);
    std::cout << t.kind() << ", " << t.vocab_size() << " tokens\n";
  } catch (const std::exception& e) {
    std::cout << "none usable (" << e.what() << ")\n";
  }
  return kExitOk;
}

int run_scene(const ModelCommandOptions& o) {
  const OpenedModel m = open_model(o.in, true);
  refuse_output_over_input("-o", o.out, model_files(*m.checkpoint));
  const int layers = m.checkpoint->config().n_layers;
  if (o.layer >= layers)  // before the forward pass, which would otherwise run every layer first
    throw CliError("--layer: layer " + std::to_string(o.layer) + " is out of range (the model has " +
                   std::to_string(layers) + " layers, 0 to " + std::to_string(layers - 1) + ")");
  hf::ForwardOptions fo;
  fo.keep_details = true;
  fo.stop_after_layer = o.layer;
  fo.details_of_last_layer_only = true;
  io::ScenarioFile file;
  try {
    const hf::ForwardResult<double> r = hf::run_forward<double>(*m.checkpoint, m.ids, fo);
    const hf::LayerScene scene = hf::layer_scene(*m.checkpoint, r, o.layer, m.tokens);
    if (o.head < 0 || o.head >= static_cast<int>(scene.scenario.heads.size()))
      throw CliError("--head: " + std::to_string(o.head) + " is out of range (the layer has " +
                     std::to_string(scene.scenario.heads.size()) + " heads)");
    file.scenario = scene.scenario;
    file.title = m.checkpoint->config().model_type + ", layer " + std::to_string(o.layer) + ", head " + std::to_string(o.head);
    file.description = scene.description;
    // Opens on the chosen head's weights, as clicking it in the overview does.
    file.app["view"] = {{"stage", "weights"}, {"head", o.head}};
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  if (writes_in_place(o.out)) {  // /dev/stdout, a FIFO: save_scenario renames, so it cannot write these
    OutputFile out("-o", o.out);
    out.stream() << io::scenario_to_json(file).dump() << '\n';
    out.commit();
    return kExitOk;
  }
  try {
    io::save_scenario(o.out, file);
  } catch (const io::FormatError& e) {
    throw CliError(std::string("-o: ") + e.what());
  }
  return kExitOk;
}

// `attn model why`: one score of a layer's head split by residual-stream source.
int run_why(const ModelCommandOptions& o) {
  const OpenedModel m = open_model(o.in, true);
  SourceSplit split;
  try {
    split = hf::split_score_by_source(*m.checkpoint, m.ids, o.layer, o.head, o.row, o.col);
  } catch (const hf::ModelError& e) {
    throw CliError(e.what());
  }
  if (o.json) std::cout << why_json(split).dump(2) << "\n";
  else std::cout << why_text(split);
  return kExitOk;
}

int run_tokens(const ModelCommandOptions& o) {
  const OpenedModel m = open_model(o.in, true);
  // One token a line: its id, a tab, the piece as the tokenizer shows it
  // (with --raw, as its vocabulary stores it).
  const std::vector<std::string>& pieces = o.raw ? m.raw_pieces : m.tokens;
  for (std::size_t i = 0; i < m.ids.size(); ++i) std::cout << m.ids[i] << '\t' << pieces[i] << '\n';
  return kExitOk;
}

void add_tokens_options(CLI::App* cmd, ModelCommandOptions& o) {
  CLI::Option* text = cmd->add_option("--text", o.in.text, "The text, tokenized by the model's own tokenizer");
  cmd->add_option("--ids", o.in.ids, "Token ids instead of a text, comma-separated (15496,11,995)")->excludes(text);
}

}  // namespace

void add_model_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ModelCommandOptions>();
  CLI::App* model = app.add_subcommand(
      "model", "A Hugging Face model folder (GPT-2, BERT, Llama, Mistral, Qwen2 safetensors) or a GGUF file (llama, qwen2, gpt2)");
  model->require_subcommand(1);

  CLI::App* info = model->add_subcommand("info", "Family, sizes, dtypes and files of a model folder");
  info->add_option("dir", o->in.dir, "The model folder (config.json, model.safetensors) or GGUF file")->required();
  info->callback([o, &action] { action = [o] { return run_info(*o); }; });

  CLI::App* tokens = model->add_subcommand("tokens", "The token ids of a text and their pieces, one per line");
  tokens->add_option("dir", o->in.dir, "The model folder (tokenizer.json, or vocab.json + merges.txt, or vocab.txt)")
      ->required();
  add_tokens_options(tokens, *o);
  tokens->add_flag("--raw", o->raw, "Print the vocabulary's own strings (\"Ġan\"), not the readable pieces (\" an\")");
  tokens->callback([o, &action] { action = [o] { return run_tokens(*o); }; });

  auto x = std::make_shared<AttentionExportOptions>();
  CLI::App* attention = model->add_subcommand(
      "attention", "Every layer's attention weights on the tokens, [layer][head][query][key], as JSON, npz or safetensors");
  attention->add_option("dir", x->in.dir, "The model folder")->required();
  CLI::Option* text = attention->add_option("--text", x->in.text, "The text, tokenized by the model's own tokenizer");
  attention->add_option("--ids", x->in.ids, "Token ids instead of a text, comma-separated (15496,11,995)")->excludes(text);
  attention->add_option("-o,--output", x->out, "Where to write (- for standard output; .npz and .safetensors choose the format)")
      ->required();
  attention->add_option("--format", x->format, "json, npz (NumPy's np.load) or safetensors (default: from -o's extension, else json)");
  attention->add_option("--dtype", x->dtype, "f32 or f64 (default f64; the pass itself is always float64)");
  attention->add_option("--layers", x->layers, "Only these layers, e.g. 0,3-5 (default: all)");
  attention->add_option("--heads", x->heads, "Only these heads of each layer, e.g. 0,2 (default: all)");
  attention->add_flag("--residuals", x->residuals, "Also the residual stream entering each layer, and the final hidden state");
  attention->add_flag("--head-outputs", x->head_outputs, "Also each head's output (weights x V)");
  attention->add_flag("--logits", x->logits, "Also the next-token logits at every position (causal models)");
  attention->callback([x, &action] { action = [x] { return run_attention_export(*x); }; });

  CLI::App* scene = model->add_subcommand("scene", "One layer as an ordinary scenario file, opened on one head");
  scene->add_option("dir", o->in.dir, "The model folder")->required();
  add_tokens_options(scene, *o);
  scene->add_option("--layer", o->layer, "The layer (0-based)")->required()->check(kNonNegativeDecimal);
  scene->add_option("--head", o->head, "The head the scene opens on (0-based)")->check(kNonNegativeDecimal);
  scene->add_option("-o,--output", o->out, "The scenario file to write (- for standard output)")->required();
  scene->callback([o, &action] { action = [o] { return run_scene(*o); }; });

  CLI::App* why = model->add_subcommand(
      "why", "Why a head attends: one score split over (query source, key source) of the residual stream, the "
             "layer's norm held at its value");
  why->add_option("dir", o->in.dir, "The model folder (a pre-norm model: GPT-2, Llama, Mistral, Qwen2)")->required();
  add_tokens_options(why, *o);
  why->add_option("--layer", o->layer, "The layer (0-based)")->required()->check(kNonNegativeDecimal);
  why->add_option("--head", o->head, "The head (0-based)")->required()->check(kNonNegativeDecimal);
  why->add_option("--row", o->row, "The query's position (0-based)")->required()->check(kNonNegativeDecimal);
  why->add_option("--col", o->col, "The key's position (0-based)")->required()->check(kNonNegativeDecimal);
  why->add_flag("--json", o->json, "Print JSON (format \"attnviz-why\")");
  why->callback([o, &action] { action = [o] { return run_why(*o); }; });

  auto attribution = std::make_shared<AttributionOptions>();
  CLI::App* attribute = model->add_subcommand(
      "attribute", "Direct logit attribution: each head's and MLP's direct part of one next-token logit");
  attribute->add_option("dir", attribution->dir, "The model folder (a causal pre-norm model: GPT-2, Llama, Mistral, Qwen2)")
      ->required();
  CLI::Option* attr_text = attribute->add_option("--text", attribution->text, "The text, tokenized by the model's own tokenizer");
  attribute->add_option("--ids", attribution->ids, "Token ids instead of a text, comma-separated")->excludes(attr_text);
  attribute->add_option("--position", attribution->position, "The position whose next token is asked about (default: the last)")
      ->check(kNonNegativeDecimal);
  attribute->add_option("--token", attribution->token, "The next token's id (default: the model's own top guess)")
      ->check(kNonNegativeDecimal);
  attribute->add_flag("--json", attribution->json, "Print JSON (format \"attnviz-attribution\")");
  attribute->callback([attribution, &action] { action = [attribution] { return run_attribution(*attribution); }; });

  auto patching = std::make_shared<PatchOptions>();
  CLI::App* patch = model->add_subcommand(
      "patch", "Activation patching: each head's output (or the stream at each layer and position) from a clean "
               "prompt put into a corrupted one, and how much of the logit difference comes back");
  patch->add_option("dir", patching->dir, "The model folder (a causal model: GPT-2, Llama, Mistral, Qwen2)")->required();
  CLI::Option* clean_text = patch->add_option("--clean", patching->clean, "The clean prompt");
  patch->add_option("--clean-ids", patching->clean_ids, "The clean prompt as token ids")->excludes(clean_text);
  CLI::Option* corrupted_text = patch->add_option("--corrupted", patching->corrupted, "The corrupted prompt (same length)");
  patch->add_option("--corrupted-ids", patching->corrupted_ids, "The corrupted prompt as token ids")->excludes(corrupted_text);
  patch->add_option("--answer", patching->answer, "The right next token's id (default: the clean run's top guess)")
      ->check(kNonNegativeDecimal);
  patch->add_option("--wrong", patching->wrong, "The wrong one's id (default: the corrupted run's top guess)")
      ->check(kNonNegativeDecimal);
  patch->add_option("--site", patching->site, "heads (each head's output, default) or positions (the stream)")
      ->check(CLI::IsMember({"heads", "positions"}));
  patch->add_flag("--json", patching->json, "Print JSON (format \"attnviz-patching\")");
  patch->callback([patching, &action] { action = [patching] { return run_patching(*patching); }; });

  auto quant = std::make_shared<QuantOptions>();
  CLI::App* quant_cmd = model->add_subcommand(
      "quant", "What quantization does to each head: the tokens through a quantized model and the same model at higher "
               "precision, each head's attention rows compared (Jensen-Shannon divergence, bits)");
  quant_cmd->add_option("dir", quant->dir, "The quantized model (a GGUF file, or a folder)")->required();
  quant_cmd->add_option("--beside", quant->beside, "The same model at higher precision (a GGUF in F16 or F32, or the folder)")
      ->required();
  CLI::Option* quant_text = quant_cmd->add_option("--text", quant->text, "The text, tokenized by the quantized model's tokenizer");
  quant_cmd->add_option("--ids", quant->ids, "Token ids instead of a text, comma-separated")->excludes(quant_text);
  quant_cmd->add_flag("--json", quant->json, "Print JSON (format \"attnviz-quant\") instead of the table");
  quant_cmd->callback([quant, &action] { action = [quant] { return run_quant(*quant); }; });

  auto lens = std::make_shared<LensOptions>();
  CLI::App* lens_cmd = model->add_subcommand(
      "lens", "The logit lens: each layer's residual stream through the final norm and output head, its top guesses "
              "at every position");
  lens_cmd->add_option("dir", lens->dir, "The model folder (a causal model: GPT-2, Llama, Mistral, Qwen2)")->required();
  CLI::Option* lens_text = lens_cmd->add_option("--text", lens->text, "The text, tokenized by the model's own tokenizer");
  lens_cmd->add_option("--ids", lens->ids, "Token ids instead of a text, comma-separated")->excludes(lens_text);
  lens_cmd->add_option("--top", lens->top, "Guesses kept per cell (default 5)")->check(CLI::Range(1, 100));
  lens_cmd->add_flag("--json", lens->json, "Print JSON (format \"attnviz-lens\") instead of the table");
  lens_cmd->callback([lens, &action] { action = [lens] { return run_lens(*lens); }; });
}

}  // namespace attn::cli
