#!/usr/bin/env bash
# Installs the system packages attnviz needs, only those missing.
# Debian/Ubuntu: apt-get (with sudo when not root). Elsewhere: prints the
# Debian package names whose equivalents are needed and lets the build go on
# (CMake finds them, or fetches pinned sources), instead of failing obscurely.
# Usage: install-deps.sh [--headless | --fuzz | --browser]
#   --headless: core, CLI and tests only; --fuzz: also clang and libFuzzer;
#   --browser: also chromium and node for the student page's browser test
#   (tests/browser; `make test` asks for it through scripts/browser-deps.sh)
set -euo pipefail

core_pkgs=(build-essential cmake pkg-config libeigen3-dev doctest-dev
           nlohmann-json3-dev libcli11-dev libsimdjson-dev libpcre2-dev libutf8proc-dev libzip-dev ccache)
app_pkgs=(libimgui-dev libstb-dev libglfw3-dev libfreetype-dev fonts-dejavu-core
          libgl1-mesa-dri libgl-dev libcgif-dev libcairo2-dev libpng-dev libcpp-httplib-dev libqrencode-dev xvfb xauth xdotool
          python3-numpy poppler-utils)

fuzz_pkgs=(clang libclang-rt-dev)
browser_pkgs=(chromium nodejs npm)

pkgs=("${core_pkgs[@]}")
[ "${1:-}" = "--headless" ] || pkgs+=("${app_pkgs[@]}")
[ "${1:-}" = "--fuzz" ] && pkgs+=("${fuzz_pkgs[@]}")
[ "${1:-}" = "--browser" ] && pkgs+=("${browser_pkgs[@]}")

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "attnviz: this is not a Debian/Ubuntu system, so packages are not installed automatically." >&2
  echo "If the build below fails, install the equivalents of these Debian packages:" >&2
  printf '  %s\n' "${pkgs[@]}" >&2
  echo "(CMake falls back to fetching Eigen, nlohmann-json, CLI11, doctest, GLFW and ImGui.)" >&2
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  # NodeSource's nodejs bundles npm and conflicts with Debian's npm package.
  [ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "attnviz: installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "attnviz: not root and no sudo; please install: ${missing[*]}" >&2; exit 1
  fi
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
