#!/usr/bin/env bash
# Regenerates the screenshots in docs/ with `attnviz --screenshot` (and the
# animated GIF with `attnviz --export`), under Xvfb
# so they are reproducible (same size, no window manager). Usage:
#   scripts/make-screenshots.sh [BUILD_DIR]     (make screenshots does this)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
NAME=make-screenshots
. scripts/attnviz-headless.sh
shot() { run_app 1920x1200 "$@"; }

mkdir -p docs
echo "docs/default.png: the built-in first lesson, everything computed"
shot --screenshot docs/default.png --size 1600x1000
echo "docs/cell-step.png: one score being built from its products (cell steps)"
shot --screenshot docs/cell-step.png --size 1600x1000 --granularity cell --time 61.2
echo "docs/inspect.png: a softmax weight pinned in the inspector, its sources outlined"
shot --screenshot docs/inspect.png --size 1600x1000 --inspect weights:0:2:1
echo "docs/multihead.png: four heads side by side, concatenated and mixed by W_O"
shot assets/scenarios/four_heads.json --screenshot docs/multihead.png --size 1920x1200
echo "docs/large.png: 1024 tokens, 8 heads (head 0 shown), one weight of a 1024-key row pinned"
shot assets/scenarios/large_1024x8.json --screenshot docs/large.png --size 1600x1000 --inspect weights:0:700:350
echo "docs/go-to-cell.png: the 1024-token weights zoomed to [700, 650] (View > Go to cell), the axis labels pinned to the view's edges"
shot assets/scenarios/large_1024x8.json --screenshot docs/go-to-cell.png --size 1280x800 --go-to weights:0:700:650
echo "docs/first-grids.png: what the 1024-token scene shows first, head 0 while the other heads are computed"
shot assets/scenarios/large_1024x8.json --screenshot docs/first-grids.png --size 1600x1000 --screenshot-at first-grids
echo "docs/colourblind.png: the first lesson in colour-blind-safe maps (blue-white-orange, viridis), a weight pinned"
shot --screenshot docs/colourblind.png --size 1600x1000 --colormap blue-white-orange --prob-colormap viridis --inspect weights:0:2:1
echo "docs/lesson-question.png: a lesson step asking a question, the grid it asks about hidden until answered"
shot --lesson assets/lessons/01_attention_from_scratch.json --step 3 --screenshot docs/lesson-question.png --size 1600x1000
echo "docs/compare.png: a lesson's compare step, masking before against after softmax, and their difference"
shot --lesson assets/lessons/02_scaled_dot_product.json --step 10 --screenshot docs/compare.png --size 1600x1000
echo "docs/presentation.png: presentation mode at 1024x768, the stage being computed and its inputs filling the screen"
shot --presentation --screenshot docs/presentation.png --size 1024x768 --time 6
echo "docs/presentation-lesson.png: lesson 01 step 12 presented at 1024x768: one head of two, so its cells stay readable, and its question"
shot --lesson assets/lessons/01_attention_from_scratch.json --step 12 --presentation --screenshot docs/presentation-lesson.png --size 1024x768
echo "docs/slide.png: the same step exported as a slide (File > Export lesson as slides), its answer revealed"
rm -rf build-slides-tmp
shot --lesson assets/lessons/01_attention_from_scratch.json --export-slides build-slides-tmp --size 1024x768
cp build-slides-tmp/slide-12-answer.png docs/slide.png
rm -rf build-slides-tmp
echo "docs/train.png: the Train view after 400 steps of the induction task, scrubbed back to step 100 as the induction head forms"
shot --train induction --train-steps 400 --train-show 100 --screenshot docs/train.png --size 1600x1000
echo "docs/train-why.png: the same run at step 400: why the induction head attends, its top score split by source (K-composition)"
shot --train induction --train-steps 400 --screenshot docs/train-why.png --size 1600x1200
echo "docs/modern-gqa.png: grouped-query attention, 4 query heads reading 2 shared key/value heads (RoPE on), one score pinned"
shot assets/scenarios/grouped_query.json --screenshot docs/modern-gqa.png --size 1600x1000 --inspect scores:1:5:2
echo "docs/rope-dial.png: a rotated query pinned, its pairs as arrows on the RoPE dial in the inspector"
shot assets/scenarios/rope.json --screenshot docs/rope-dial.png --size 1280x800 --inspect q_rope:0:5:1
echo "docs/why-score.png: a score pinned, why it has its value: its dimensions' products and RoPE's pairs, content against position"
shot assets/scenarios/rope.json --screenshot docs/why-score.png --size 1600x1000 --inspect scores:0:5:2
echo "docs/flash-tiles.png: the FlashAttention tiles panel, blocks of 3 queries x 4 keys, the tile of query block 1 and key block 1"
shot assets/scenarios/flash_tiles.json --panel flash-tiles --flash-blocks 3,4 --flash-tile 1,1 --screenshot docs/flash-tiles.png --size 1600x1000
echo "docs/kv-cache.png: the KV cache panel mid-generation, token 5 of 8 arriving, its K and V rows appended to the caches"
shot assets/scenarios/kv_cache.json --panel kv-cache --kv-step 4 --screenshot docs/kv-cache.png --size 1600x1000
echo "docs/animation.gif: the built-in lesson's whole animation, exported as a GIF (5 frames a second)"
shot --export docs/animation.gif --size 1280x720 --fps 5
echo "done: $(ls docs/*.png docs/*.gif | tr '\n' ' ')"
# Real models: the committed test checkpoints (tests/data/hf, random weights
# in each family's exact layout), not real weights.
model_text="The quick brown fox jumps over the lazy dog because it is quick"
echo "docs/model-overview.png: the Model view on the test GPT-2 checkpoint, head 0.1 switched off, predictions before and after"
shot --model tests/data/hf/gpt2 --text "$model_text" --heads-off 0.1 --screenshot docs/model-overview.png --size 1400x900
echo "docs/model-head-view.png: the head view of layer 1 of the test Llama checkpoint (GQA, BF16)"
shot --model tests/data/hf/llama_gqa_bf16 --text "$model_text" --model-tab heads --model-layer 1 --screenshot docs/model-head-view.png --size 1400x900
echo "docs/model-head-pipeline.png: layer 1, head 2 of the test Qwen2 checkpoint (q/k/v biases, one key/value head) in the pipeline"
shot --model tests/data/hf/qwen2_bias_f16 --text "$model_text" --layer 1 --head 2 --screenshot docs/model-head-pipeline.png --size 1400x900
echo "docs/model-patching.png: the Patching tab on the test GPT-2 checkpoint: each head's output copied from the clean text into one with a name changed"
shot --model tests/data/hf/gpt2 --text "When Mary and John went to the store, John gave a drink to" \
  --corrupted "When Mary and John went to the store, Mary gave a drink to" --patch-answer M --patch-wrong J \
  --screenshot docs/model-patching.png --size 1400x900
echo "docs/model-quant.png: the Quantization tab: a random 256-wide Llama in Q4_K_M against its F16, each head's divergence"
shot --model tests/data/gguf/wide_q4_k.gguf --beside tests/data/gguf/wide_f16.gguf --text "the theme of the thesis is the theme" \
  --screenshot docs/model-quant.png --size 1400x900
# A class session (issue 42): the committed session of lesson 01 played by
# 24 students through the real server (scripts/make_class_fixture.py).
lesson01=assets/lessons/01_attention_from_scratch.json
echo "docs/class-join.png: presenting lesson 01 with a class session, a question open: the QR code, address, code and count"
shot --lesson "$lesson01" --step 9 --class --class-resume tests/data/class/lesson01-class.json --bind 127.0.0.1 \
  --presentation --screenshot docs/class-join.png --size 1280x800
echo "docs/class-projector.png: presenting lesson 01 to a class, the answers locked, the class's tally before the reveal"
shot --lesson "$lesson01" --step 5 --class --class-resume tests/data/class/lesson01-class.json --bind 127.0.0.1 \
  --presentation --screenshot docs/class-projector.png --size 1280x800
echo "docs/class-projector-revealed.png: the number question revealed, the class's histogram with the answer marked"
shot --lesson "$lesson01" --step 2 --class --class-resume tests/data/class/lesson01-class.json --bind 127.0.0.1 \
  --presentation --screenshot docs/class-projector-revealed.png --size 1280x800
# The phone's page, from the real browser test (Debian's chromium through
# puppeteer-core, 360x640): only where `make test` installed it.
if [ -d tests/browser/node_modules ] && command -v node >/dev/null 2>&1; then
  echo "docs/class-phone.png, docs/class-phone-revealed.png: the student page on a phone, a question and its reveal"
  shots=$(mktemp -d)
  (cd tests/browser && node student_page_test.js --attnviz "../../$BUILD/app/viz/attnviz" --lesson "../../$lesson01" \
     --screenshot-dir "$shots" --class-code DEMO42 >/dev/null)
  cp "$shots/class-phone.png" "$shots/class-phone-revealed.png" docs/
  rm -rf "$shots"
fi
