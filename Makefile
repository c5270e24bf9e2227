# Two commands do all the set-up on a fresh Debian/Ubuntu machine:
#   make run    install missing packages, build, open the app on its default lesson
#   make test   install missing packages, build, run every test (UI tests under Xvfb)
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
WERROR ?= OFF

.PHONY: all deps configure build run test screenshots bench headless package install clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_WERROR=$(WERROR) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
	  $(BUILD)/app/viz/attnviz $(ARGS); \
	else \
	  echo "No display found: showing the default scene in the terminal (attn) instead."; \
	  $(BUILD)/app/cli/attn explain assets/scenarios/default.json --stage weights --row 0 --col 0; \
	fi

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

screenshots: build
	bash scripts/make-screenshots.sh $(BUILD)

bench: build
	bash scripts/bench.sh $(BUILD)

# A .deb for a room of machines (build/attnviz_*.deb); `sudo apt install ./build/attnviz_*.deb`.
package: build
	cd $(BUILD) && cpack

install: build
	cmake --install $(BUILD)

# Core, CLI and tests only: no GL or X11 packages needed.
headless:
	@bash scripts/install-deps.sh --headless
	cmake -S . -B build-headless -DATTNVIZ_BUILD_APP=OFF -DATTNVIZ_WERROR=$(WERROR) $(CMAKE_FLAGS)
	cmake --build build-headless -j $(JOBS)
	cd build-headless && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) build-headless
