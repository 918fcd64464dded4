# Aji's single entry point.
#
#   make run    install the missing Debian packages Fyne needs, build the
#               desktop app and open it on the embedded sample game
#               (make run ARGS=game.sgf opens a file instead)
#   make test   install what the tests need, then every check CI runs
#   make bench  the go test benchmarks and `aji bench board`
#   make install    the desktop app and the `aji` command under PREFIX
#               (default ~/.local), with a desktop entry and icon so the
#               app shows in the desktop's menu and opens .sgf files
#   make uninstall  removes what make install put there
#
# Package installation lives in scripts/deps.sh and is skipped when nothing
# is missing.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
GO ?= go
# Fyne reads the locale while its packages initialise; with LANG=C it logs a
# parse error on every start.
export LANG := en_US.UTF-8

BIN := bin/aji-app
ARGS ?=
# Where make install puts bin/aji, bin/aji-app and share/...; /usr/local
# (with sudo) for every user.
PREFIX ?= $(HOME)/.local
# SKIP_DEPS=1 skips the Debian packages check (the install test sets it).
SKIP_DEPS ?=
# Pinned so a new release cannot break CI on a new check; v0.8.2 (released
# as 2026.2.2) analyses Go 1.26 code.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
# A package's tests, not the whole run: ui/workbench's take about 8 minutes under -race on a slow
# 2-core machine (cmd/aji's took over 10 before its figure tests left the race pass).
TEST_TIMEOUT ?= 25m
# Executions per fuzz target; empty: scripts/fuzz.sh's own counts.
FUZZEXECS ?=

.PHONY: run build test bench deps-run deps-test fmt vet staticcheck unit fuzz screenshot docs-screenshot clean install uninstall

run: deps-run build
	./$(BIN) $(ARGS)

build:
	$(GO) build -o $(BIN) ./app

# Cheap checks first so a formatting slip fails in seconds, not after the
# cgo build.
test: deps-test fmt vet staticcheck unit fuzz screenshot

deps-run:
	scripts/deps.sh run

deps-test:
	scripts/deps.sh test

fmt:
	@out=$$(gofmt -l .); if [[ -n $$out ]]; then echo "gofmt -l lists:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	@if ! [[ -x $(STATICCHECK) ]] || ! $(STATICCHECK) -version | grep -qF '($(STATICCHECK_VERSION:v%=%))'; then \
		echo "installing staticcheck $(STATICCHECK_VERSION)"; \
		$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); \
	fi
	$(STATICCHECK) ./...

# Only packages with tests: `go test` builds the others too, and for the
# app that means a second, race-instrumented cgo build of GLFW (minutes on a
# cold cache) that tests nothing; vet and the screenshot build cover it.
# Then, without -race, the packages with a race_test.go: their tests that the
# race detector would slow tenfold (figures recomputed end to end, property
# tests on one goroutine) are skipped or scaled down under it, and run in full
# here. Without profile-guided optimisation (cmd/aji/default.pgo): it changes
# no result, and would compile cmd/aji's dependencies a second time.
unit:
	$(GO) test -pgo=off -race -timeout $(TEST_TIMEOUT) $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...)
	$(GO) test -pgo=off -timeout $(TEST_TIMEOUT) $$($(GO) list -tags race -f '{{range .TestGoFiles}}{{if eq . "race_test.go"}}{{$$.ImportPath}}{{end}}{{end}}{{range .XTestGoFiles}}{{if eq . "race_test.go"}}{{$$.ImportPath}}{{end}}{{end}}' ./...)

fuzz:
	FUZZEXECS=$(FUZZEXECS) scripts/fuzz.sh

# The real app under Xvfb; fails unless the window shows a board.
screenshot:
	scripts/screenshot.sh bin/screenshot.png

# Refreshes the picture in the README.
docs-screenshot:
	WINDOW_ONLY=1 scripts/screenshot.sh docs/screenshot.png

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@if [[ -d cmd/aji ]]; then $(GO) run ./cmd/aji bench board; fi

# The file layout is scripts/install.sh's; the desktop entry's one home is
# assets/aji.desktop.in.
install:
	@if [[ -z "$(SKIP_DEPS)" ]]; then scripts/deps.sh run; fi
	$(GO) build -o $(BIN) ./app
	$(GO) build -o bin/aji ./cmd/aji
	scripts/install.sh install "$(PREFIX)"

uninstall:
	scripts/install.sh uninstall "$(PREFIX)"

clean:
	rm -rf bin
