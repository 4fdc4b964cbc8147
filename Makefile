# The two commands: `make run` (build and start the site) and `make test` (every test, the
# formatters and linters among them). `make lint` runs only those; `make fmt` fixes what they can.
# While working: `make check` (linters and unit tests, the quick loop) and `make dev` (Vite with
# hot reload against the debug backend).
.PHONY: run test build setup setup-test lint fmt check check-content dev bench-smoke

run: build
	scripts/run.sh

test: setup-test
	scripts/build.sh
	scripts/test.sh

# build.sh runs setup.sh itself, beside the backend's compile.
build:
	scripts/build.sh

setup:
	scripts/setup.sh

setup-test:
	scripts/setup.sh --test

lint: setup
	scripts/lint.sh

fmt: setup
	scripts/lint.sh --fix

check: setup
	scripts/check.sh

# Before going live: every value of the example broker still in the content (README, "Make it
# yours"); fails while any is left.
check-content:
	cargo run --quiet --release -p backend -- check

dev: setup
	scripts/dev.sh

# Every benchmark script once, briefly, so a stale one fails (scripts/bench-smoke.sh); measures
# nothing. The full runs are in docs/figures.md.
bench-smoke: setup-test
	scripts/build.sh
	scripts/bench-smoke.sh
