#!/usr/bin/env bash
# The app's table for `make bench`: attnviz --benchmark (software GL under
# Xvfb, 1600x1000) on the default lesson, a 4-head teaching scene while it
# plays, and the benchmark's 512- and 2048-token scenes (written by
# core_bench, so they are the shapes of the core table). Each run prints the
# time to the first frame and to the drawn trace, the median and p95 frame,
# the frames while an edit recomputes, and idle CPU; and the Model view on
# model_bench's GPT-2 checkpoint, to its overview on screen. Timings vary 20-30%
# run to run; they are printed, never asserted.
# Usage: scripts/bench.sh [BUILD_DIR] [FRAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
FRAMES=${2:-120}
NAME=bench
. scripts/attnviz-headless.sh
run() { run_app 1920x1080 "$@" --benchmark --frames "$FRAMES" --size 1600x1000; }
SCENES="$BUILD/bench-scenes"
mkdir -p "$SCENES"
[ -f "$SCENES/bench_512x512x8.json" ] || "$BUILD/bench/core_bench" --write-scene 512 512 8 "$SCENES/bench_512x512x8.json"
[ -f "$SCENES/bench_2048x768x12.json" ] || "$BUILD/bench/core_bench" --write-scene 2048 768 12 "$SCENES/bench_2048x768x12.json"
echo "App: attnviz --benchmark under Xvfb at 1600x1000 (software GL)"
run
run assets/scenarios/four_heads.json --play
run "$SCENES/bench_512x512x8.json"
run "$SCENES/bench_2048x768x12.json"
# The Model view on model_bench's GPT-2-small-shaped checkpoint (random
# weights; no tokenizer, so the text is 128 token ids): launch to the
# overview of all 144 heads on screen.
MODEL="${TMPDIR:-/tmp}/attnviz-model-bench/gpt2"
if [ -f "$MODEL/model.safetensors" ]; then
  run --model "$MODEL" --text "$(seq -s, 1 128)"
else
  echo "(no $MODEL: run build/bench/model_bench first for the Model view's row)"
fi
