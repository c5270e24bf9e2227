#!/bin/bash
# The threads at idle of the running app, by name (README, "Structure
# figures"): starts attnviz under Xvfb on the test GPT-2 of the UI tests
# (or on nothing), waits until its jobs are done and the job threads beyond
# one have ended, and lists /proc/PID/task. The app's own threads are the
# main one and those named attn-*; Mesa's llvmpipe renderer adds its own
# (llvmpipe-N, attnviz:disk$0, and two unnamed ones under the main's name).
#   scripts/idle-threads.sh [BUILD_DIR] [--model FOLDER]
set -euo pipefail
build=${1:-build}
shift || true
app="$build/app/viz/attnviz"
[ -x "$app" ] || { echo "no $app: build first (make)" >&2; exit 1; }
xvfb-run -a -s "-screen 0 1024x768x24" bash -c '
  "$0" --size 1024x768 "$@" & pid=$!
  sleep 10   # the jobs end in a second or two here, and idle job threads linger 2 s
  own=1 all=0
  for t in /proc/$pid/task/*; do
    name=$(cat "$t/comm")
    all=$((all + 1))
    case "$name" in attn-*) own=$((own + 1)) ;; esac
    echo "  $(basename "$t") $name"
  done
  echo "threads: $all in all; the app'"'"'s own (main + attn-*): $own; cores: $(nproc), so the goal is at most $(( $(nproc) + 2 ))"
  kill $pid; wait $pid 2>/dev/null || true' "$app" "$@"
