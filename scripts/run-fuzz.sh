#!/usr/bin/env bash
# Runs each libFuzzer target for a set time: new inputs go to a scratch
# corpus in the build folder; the committed seeds are read, never written.
# A crash (or sanitizer report) fails the run and leaves the input in
# BUILD/crashes. Usage: run-fuzz.sh BUILD SECONDS
set -euo pipefail
build=$1
seconds=$2
mkdir -p "$build/corpus/scenario" "$build/corpus/lesson" "$build/corpus/model" "$build/corpus/tokenizer" \
  "$build/corpus/tokenizer_text" "$build/corpus/safetensors" "$build/corpus/gguf" "$build/corpus/deep_json" "$build/corpus/class_request" \
  "$build/crashes"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
# MAX_LEN (bytes, default 8192) bounds the inputs the fuzzer makes; a seed
# longer than it is read cut short.
run() {
  local target=$1 corpus=$2 max_len=${MAX_LEN:-8192}
  shift 2
  echo "fuzz: $target for ${seconds}s"
  "$build/tests/fuzz/$target" "$corpus" "$@" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 2>&1 |
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY|fuzz_)" || true
  # grep hides the stream; the exit status of the fuzzer decides.
  return "${PIPESTATUS[0]}"
}
# Two at a time on a two-core machine: each still gets its SECONDS.
status=0
run fuzz_scenario "$build/corpus/scenario" assets/scenarios tests/data/malformed &
scenario=$!
run fuzz_lesson "$build/corpus/lesson" assets/lessons tests/data/lessons || status=1
wait "$scenario" || status=1
run fuzz_safetensors "$build/corpus/safetensors" tests/data/fuzz_seeds/safetensors &
safetensors=$!
run fuzz_model "$build/corpus/model" tests/data/malformed_models || status=1
wait "$safetensors" || status=1
# The small tokenizer.json files fit -max_len; the big ones would be cut.
tok=tests/data/tokenizers
run fuzz_tokenizer "$build/corpus/tokenizer" "$tok/roberta_small" "$tok/clip_small" "$tok/wordpiece_small" &
tokenizer=$!
run fuzz_tokenizer_text "$build/corpus/tokenizer_text" "$tok/fuzz_texts" || status=1
wait "$tokenizer" || status=1
# config.json and tokenizer.json nested up to 262,143 levels (see the target),
# beside a phone's request bodies to the class server.
# And GGUF files (small ones with each kind of metadata and block type),
# a third beside them so that the stage takes no longer. Its SentencePiece
# seeds (a vocabulary with scores) are 12 KB: 16 KB inputs keep them whole.
run fuzz_class_request "$build/corpus/class_request" tests/data/fuzz_seeds/class_request &
class_request=$!
MAX_LEN=16384 run fuzz_gguf "$build/corpus/gguf" tests/data/fuzz_seeds/gguf &
gguf=$!
run fuzz_deep_json "$build/corpus/deep_json" tests/data/fuzz_seeds/deep_json || status=1
wait "$class_request" || status=1
wait "$gguf" || status=1
exit "$status"
