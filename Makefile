# The two commands: `make run` (build and start the site) and `make test` (every test).
.PHONY: run test build setup setup-test

run: build
	scripts/run.sh

test: setup-test
	scripts/build.sh
	scripts/test.sh

build: setup
	scripts/build.sh

setup:
	scripts/setup.sh

setup-test:
	scripts/setup.sh --test
