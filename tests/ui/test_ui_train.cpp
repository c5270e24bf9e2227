// The Train view in the running app. Headless: --train trains a fixed
// number of steps, and every head's grid is drawn in the colours of the
// attention weights computed here, by a Trainer of our own with the same
// settings, on the same held-out example. In a real window, driven with
// xdotool: Train starts the worker, Space pauses it, a click at the left of
// the history shows step 0, the Right arrow the next snapshot, and File >
// Export writes a picture of the view. Waits on the state the app reports.
#include <doctest/doctest.h>

#include <filesystem>

#include "attn/train/trainer.hpp"
#include "ui_support.hpp"
#include "model_names.hpp"
#include "model/colour/colourmap.hpp"
#include "model/colour/colour_options.hpp"
#include "model/train/train_session.hpp"
#include "model/train/train_ui.hpp"
#include "model/train/train_why.hpp"

using namespace ui_test;

namespace {

int steps_of(const nlohmann::json& j) { return j["train"].is_object() ? j["train"]["steps"].get<int>() : -1; }

}  // namespace

TEST_SUITE("train") {
  TEST_CASE("ui: --train draws each head's weights after N steps in the probability colours") {
    const int steps = 40;
    const std::string png = temp_path("train.png"), state = temp_path("train_state.json"), layout = temp_path("train_layout.json");
    std::string out;
    const int code = run(attnviz("--train induction --train-steps " + std::to_string(steps) +
                                 " --train-seed 5 --size 1400x900 --screenshot " + png + " --dump-state " + state +
                                 " --dump-layout " + layout), &out);
    REQUIRE_MESSAGE(code == 0, out);
    const nlohmann::json s = load_json(state)["train"];
    CHECK(s["open"] == true);
    CHECK(s["running"] == false);
    CHECK(s["steps"] == steps);
    CHECK(s["shown_step"] == steps);
    CHECK(s["snapshots"].get<int>() == steps / viz::TrainSession::kSnapshotEvery + 1);
    CHECK(load_json(state)["window_where"] == "Train: induction, 2 layers");  // not the lesson behind the view

    // The same run here: same settings, same seed, same number of steps.
    attn::train::TrainConfig c = viz::TrainUi::default_train_settings();
    c.seed = 5;
    attn::train::Trainer trainer(c);
    for (int i = 0; i < steps; ++i) trainer.step();
    std::vector<int> tokens;
    for (Eigen::Index t = 0; t < trainer.held_out().tokens.cols(); ++t) tokens.push_back(trainer.held_out().tokens(0, t));
    const attn::train::SequenceForward f = attn::train::forward(trainer.model(), tokens);
    const nlohmann::json widgets = load_json(layout)["widgets"];
    const Image image = load_png(png);
    const viz::Colourmap& map = viz::colourmap(viz::ColourOptions{}.probability_map);
    const int n = static_cast<int>(tokens.size());
    int checked = 0, worst = 0;
    for (size_t l = 0; l < f.weights.size(); ++l)
      for (size_t h = 0; h < f.weights[l].size(); ++h) {
        const std::string id = "train_grid_" + std::to_string(l) + "_" + std::to_string(h);
        REQUIRE_MESSAGE(widgets.contains(id), id);
        const nlohmann::json& g = widgets[id];
        const double x0 = g[0], y0 = g[1], x1 = g[2], y1 = g[3];
        const double cw = (x1 - x0) / n, ch = (y1 - y0) / n;
        CHECK(std::abs(cw - ch) < 1e-6);  // square cells
        for (int r = 0; r < n; r += 3)
          for (int col = 0; col <= r; col += 2) {  // causal: only keys up to the query are coloured
            const viz::Rgba want = viz::sample(map, static_cast<float>(f.weights[l][h](r, col)));
            const viz::Rgba got = image.at(static_cast<int>(x0 + (col + 0.15) * cw), static_cast<int>(y0 + (r + 0.15) * ch));
            const int d = distance(got, want);
            if (d > worst) worst = d;
            CHECK_MESSAGE(d <= kColourTolerance, id << " cell (" << r << ", " << col << ") weight " << f.weights[l][h](r, col)
                                                    << " got " << int(got.r) << "," << int(got.g) << "," << int(got.b));
            ++checked;
          }
      }
    MESSAGE("checked " << checked << " cells, worst colour distance " << worst);
    CHECK(checked > 100);
    // Why the strongest induction head attends: the app's split is the one
    // computed here on the same model and example, and each key source's
    // bar is drawn to one scale (width / |part| the same for all).
    std::vector<bool> scored;
    for (Eigen::Index t = 0; t < trainer.held_out().scored.cols(); ++t) scored.push_back(trainer.held_out().scored(0, t));
    const auto why = model::train_why(trainer.model(), c.task, tokens, f.weights, scored, trainer.head_scores());
    REQUIRE(why);
    REQUIRE(s.contains("why"));
    CHECK(s["why"]["layer"] == why->split.cell.layer);
    CHECK(s["why"]["head"] == why->split.cell.head);
    CHECK(s["why"]["query"] == why->split.cell.query);
    CHECK(s["why"]["key"] == why->split.cell.key);
    CHECK(s["why"]["score"].get<double>() == doctest::Approx(why->split.score).epsilon(1e-12));
    CHECK(s["why"]["largest"] == model::train_why_largest(*why));
    const attn::Vec by_key = why->split.by_key_source();
    Eigen::Index widest = 0;
    by_key.cwiseAbs().maxCoeff(&widest);
    const auto bar_width = [&](Eigen::Index k) {
      const std::string id = "train_why_key_" + std::to_string(k);
      REQUIRE_MESSAGE(widgets.contains(id), id);
      return widgets[id][2].get<double>() - widgets[id][0].get<double>();
    };
    const double px_per_unit = bar_width(widest) / std::abs(by_key(widest));
    CHECK(bar_width(widest) > 100);
    for (Eigen::Index k = 0; k < by_key.size(); ++k) {
      const double width = bar_width(k);
      CHECK_MESSAGE(std::abs(width - px_per_unit * std::abs(by_key(k))) <= 1.5, "key source " << k << " is " << width
                        << " px for the part " << by_key(k));
    }
  }

  // At 1024x768 four heads' "prev 0.01  ind 0.45" lines filled their
  // columns and ran into each other ("ind 0.45prev 0.08").
  TEST_CASE("ui: at 1024x768 each head's scores stay inside its column") {
    const std::string png = temp_path("train_small.png"), layout = temp_path("train_small_layout.json");
    std::string out;
    const int code = run(attnviz("--train induction --train-steps 20 --size 1024x768 --screenshot " + png +
                                 " --dump-layout " + layout), &out);
    REQUIRE_MESSAGE(code == 0, out);
    const nlohmann::json widgets = load_json(layout)["widgets"];
    int pairs = 0;
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h + 1 < 4; ++h) {
        const std::string id = "train_scores_" + std::to_string(l) + "_" + std::to_string(h);
        const std::string next = "train_scores_" + std::to_string(l) + "_" + std::to_string(h + 1);
        REQUIRE_MESSAGE(widgets.contains(id), id);
        REQUIRE_MESSAGE(widgets.contains(next), next);
        // A space's width at least between them (they touched, 0-1 px apart).
        CHECK_MESSAGE(widgets[id][2].get<double>() + 6 <= widgets[next][0].get<double>(),
                      id << " ends at x " << widgets[id][2] << ", " << next << " starts at " << widgets[next][0]);
        ++pairs;
      }
    CHECK(pairs == 6);
  }

  TEST_CASE("ui: training settings the view refuses exit 2 with the reason, picture still written") {
    // Induction longer than its symbols would repeat a symbol in the first
    // half, making the next token ambiguous.
    const std::string png = temp_path("train_refused.png");
    std::string out;
    CHECK(run(attnviz("--train induction --train-length 20 --train-steps 5 --screenshot " + png), &out) == 2);
    CHECK_MESSAGE(out.find("induction needs every symbol of the first half to be different, so 1 to 16 for vocab "
                           "16, got 20") != std::string::npos, out);
    CHECK(std::filesystem::exists(png));
  }

  TEST_CASE("ui: Train, Space pauses, the history scrubs back, File > Export pictures the view") {
    namespace fs = std::filesystem;
    fs::remove("uitrain.png");  // the app writes next to the test
    RunningApp app("--train induction --train-length 6", "train_window");
    REQUIRE(app.first_state().is_object());
    const nlohmann::json l0 = settled(app.layout, "train_start");
    REQUIRE_MESSAGE(l0.is_object(), "no Train button");
    click_widget(l0, "train_start");
    auto started = [](const nlohmann::json& j) { return j["train"]["running"] == true || steps_of(j) > 0; };
    // Train toggles, so a second click is made only when the first has not
    // shown for a long while (a slow sanitizer build), or it would pause.
    if (!wait_for(app.state, started, 60000).is_object()) {  // the click was lost under load: click again
      MESSAGE("Train did not start after a click; clicking again: " << load_json(app.state)["train"].dump());
      click_widget(settled(app.layout, "train_start"), "train_start");
      REQUIRE_MESSAGE(wait_for(app.state, started, 30000).is_object(), "Train did not start training");
    }
    const nlohmann::json trained = wait_for(app.state, [](const nlohmann::json& j) { return steps_of(j) >= 40; }, 60000);
    REQUIRE_MESSAGE(trained.is_object(), "training did not reach 40 steps; last: " << load_json(app.state)["train"].dump());
    CHECK(trained["train"]["following"] == true);

    hover_widget(l0, "train_curves");  // the keyboard goes to the view, not to a text field
    key("space");
    nlohmann::json paused = wait_for(app.state, [](const nlohmann::json& j) { return j["train"]["running"] == false; }, 60000);
    if (!paused.is_object()) {  // the key press was lost under load: press again (it toggles too)
      key("space");
      paused = wait_for(app.state, [](const nlohmann::json& j) { return j["train"]["running"] == false; }, 20000);
    }
    REQUIRE_MESSAGE(paused.is_object(), "Space did not pause training");
    const int steps = steps_of(paused);
    sleep_ms(500);
    CHECK(steps_of(load_json(app.state)) == steps);  // paused means no more steps

    // The left end of the history slider: the first snapshot, step 0.
    const nlohmann::json l1 = settled(app.layout, "train_history");
    REQUIRE(l1.is_object());
    const nlohmann::json& r = l1["widgets"]["train_history"];
    xdo("mousemove " + std::to_string(r[0].get<int>() + 2) + " " + std::to_string((r[1].get<int>() + r[3].get<int>()) / 2));
    xdo("click 1");
    const nlohmann::json first = wait_for(app.state, [](const nlohmann::json& j) { return j["train"]["shown_step"] == 0; });
    REQUIRE_MESSAGE(first.is_object(), "the history did not go back to step 0: " << load_json(app.state)["train"].dump());
    CHECK(first["train"]["following"] == false);
    hover_widget(l1, "train_curves");
    key("Right");
    const nlohmann::json next = wait_for(app.state, [](const nlohmann::json& j) {
      return j["train"]["shown_step"] == viz::TrainSession::kSnapshotEvery;
    });
    CHECK_MESSAGE(next.is_object(), "Right did not show the next snapshot: " << load_json(app.state)["train"].dump());

    export_through_dialog(app, "uitrain.png");
    const nlohmann::json done = wait_for(app.state, [](const nlohmann::json& j) {
      for (const nlohmann::json& n : j["notices"])
        if (n.get<std::string>().find("Exported uitrain.png") != std::string::npos) return true;
      return false;
    });
    REQUIRE_MESSAGE(done.is_object(), "no 'Exported' notice");
    const Image image = load_png("uitrain.png");
    CHECK(image.ok());
    CHECK(image.width > 400);
    CHECK(steps_of(load_json(app.state)) == steps);  // exporting did not train further

    // A click on layer 1, head 1 (counted from 0) opens that layer at the snapshot shown in
    // the pipeline view, on that head.
    // Clicked again if a loaded machine drops the click (the Train view
    // closes at once; the layer's trace follows).
    REQUIRE_MESSAGE(click_until(app, "train_grid_1_1", [](const nlohmann::json& j) { return j["train"]["open"] == false; })
                        .is_object(),
                    "clicking layer 1, head 1 did not leave the Train view");
    // The view shows the old trace, marked stale, until the layer's is
    // computed, which a sanitizer build takes its time over.
    const size_t example_tokens = first["train"]["tokens"].size();
    const nlohmann::json opened = wait_for(
        app.state,
        [&](const nlohmann::json& j) {
          return j["train"]["open"] == false && j["stale"] == false && j["tokens"].size() == example_tokens;
        },
        60000);
    REQUIRE_MESSAGE(opened.is_object(), "clicking a head's grid did not open the pipeline view (app "
                                            << (app.alive() ? "running" : "gone") << "): " << load_json(app.state).dump());
    CHECK(opened["view_head"] == 1);
    CHECK(opened["doc_label"] == "trained layer 1, step " + std::to_string(viz::TrainSession::kSnapshotEvery));
    CHECK(opened["tokens"].size() == example_tokens);  // the example's tokens label the rows
  }

  TEST_CASE("ui: with unsaved edits, the head clicked opens after Discard, a click behind the question opens nothing") {
    // Reported: click "Layer 1, head 1", choose Discard, and the pipeline
    // opened on head 0: the click on Discard also reached the Train-view
    // grid under it. Here the second click lands on layer 0, head 0's grid
    // outside the question, which must not replace the head asked for.
    RunningApp app("", "train_discard");
    REQUIRE(app.first_state().is_object());
    // Clicked again if a loaded machine drops the click.
    REQUIRE_MESSAGE(click_until(app, "editor_randomise", [](const nlohmann::json& j) { return j["dirty"] == true; }).is_object(),
                    "Randomise made no edit");
    xdo("mousemove 800 450");
    key("t");
    const nlohmann::json view = settled(app.layout, "train_start");
    REQUIRE_MESSAGE(view.is_object(), "T did not open the Train view");
    click_widget(view, "train_start");
    REQUIRE(wait_for(app.state, [](const nlohmann::json& j) { return steps_of(j) >= 20; }, 120000).is_object());
    // Pause (clicked again if a loaded machine drops the click).
    REQUIRE_MESSAGE(click_until(app, "train_start", [](const nlohmann::json& j) { return j["train"]["running"] == false; })
                        .is_object(),
                    "Pause did not stop training");
    const nlohmann::json grids = settled(app.layout, "train_grid_1_1");
    REQUIRE_MESSAGE(grids.is_object(), "no layer 1, head 1 grid");
    REQUIRE(grids["widgets"].contains("train_grid_0_0"));
    REQUIRE_MESSAGE(click_until(app, "train_grid_1_1", [](const nlohmann::json& j) { return j["confirm_discard"] == true; })
                        .is_object(),
                    "no Save / Discard / Cancel question");
    // Behind the question: the top-left cell of layer 0, head 0.
    const auto& g = grids["widgets"]["train_grid_0_0"];
    xdo("mousemove " + std::to_string(static_cast<int>(g[0].get<double>()) + 4) + " " + std::to_string(static_cast<int>(g[1].get<double>()) + 4));
    xdo("click 1");
    const nlohmann::json opened = click_until(app, "discard_discard", [](const nlohmann::json& j) {
      return j["confirm_discard"] == false && j["train"]["open"] == false;
    });
    REQUIRE_MESSAGE(opened.is_object(), "Discard did not open the trained layer");
    CHECK(opened["view_head"] == 1);
    CHECK(opened["dirty"] == false);
  }
}
