# Sourced by the scripts that drive the app headless (screenshots, bench):
# finds the built attnviz and runs it under Xvfb when available, so both
# scripts share one definition of "run the app without a desktop".
# Needs: BUILD set, and a NAME for messages.
APP="$BUILD/app/viz/attnviz"
if [ ! -x "$APP" ]; then
  echo "$NAME: $APP not found; build first (make build)" >&2
  exit 1
fi

# run_app SCREEN ARGS...: SCREEN is the Xvfb screen size, e.g. 1920x1080.
run_app() {
  local screen=$1
  shift
  if command -v xvfb-run >/dev/null 2>&1; then
    xvfb-run -a -s "-screen 0 ${screen}x24" "$APP" "$@"
  elif [ -n "${DISPLAY:-}" ]; then
    "$APP" "$@"
  else
    echo "$NAME: needs xvfb-run or a display" >&2
    exit 1
  fi
}
