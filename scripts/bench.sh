#!/usr/bin/env bash
# Median frame time of attnviz (software GL under Xvfb) for the default lesson
# and the 1024-token, 8-head scene. Timings vary 20-30% run to run; they are
# printed, never asserted. Usage: scripts/bench.sh [BUILD_DIR] [FRAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
FRAMES=${2:-120}
NAME=bench
. scripts/attnviz-headless.sh
run() { run_app 1920x1080 "$@"; }
# Idle view (what a still frame costs), then while the animation plays.
run --benchmark --frames "$FRAMES" --size 1600x1000
run assets/scenarios/large_1024x8.json --benchmark --frames "$FRAMES" --size 1600x1000
run --benchmark --play --frames "$FRAMES" --size 1600x1000
run assets/scenarios/large_1024x8.json --benchmark --play --frames "$FRAMES" --size 1600x1000
