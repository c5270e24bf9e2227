// What the window title names (window_title.hpp): the model folder while
// the Model view is open, the task and layers while the Train view is,
// never the lesson behind them; the layer opened from a model names that
// model's folder.
#include <doctest/doctest.h>

#include "model/framing/window_title.hpp"
#include "model/hf/model_folder.hpp"

TEST_CASE("the window title names the model folder in the Model view, else the document") {
  model::AppState s;
  model::ModelUi m;
  model::TrainUi train;
  CHECK(model::window_where(s, m, train) == "built-in lesson");
  m.open = true;
  m.folder = "/data/models/gpt2-small/";
  CHECK(model::window_where(s, m, train) == "model gpt2-small");
  s.doc_label = "gpt2-small, layer 1, head 2";  // a layer opened before: not what is on screen now
  CHECK(model::window_where(s, m, train) == "model gpt2-small");
  m.open = false;
  CHECK(model::window_where(s, m, train) == "gpt2-small, layer 1, head 2");
  CHECK(model::model_folder_name("/data/models/gpt2") == "gpt2");
  CHECK(model::model_folder_name("gpt2/") == "gpt2");
}

TEST_CASE("the window title names the Train view's task and layers while it is open") {
  model::AppState s;
  model::ModelUi m;
  model::TrainUi train;
  train.open = true;
  CHECK(model::window_where(s, m, train) == "Train: induction, 2 layers");  // the view's default settings
  train.settings.task.kind = attn::train::TaskKind::Copy;
  train.settings.model.n_layers = 1;
  CHECK(model::window_where(s, m, train) == "Train: copy, 1 layer");
  m.open = true;  // the Model view is drawn over it
  m.folder = "gpt2";
  CHECK(model::window_where(s, m, train) == "model gpt2");
  m.open = train.open = false;
  CHECK(model::window_where(s, m, train) == "built-in lesson");
}
