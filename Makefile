# Two commands do all the set-up on a fresh Debian machine (see README):
#   make run   - install, build the database and search index, serve on http://127.0.0.1:5000
#   make test  - install, run the whole test suite (browser tests included)
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
FLASK   := $(BIN)/flask --app adjudicator
HOST    ?= 127.0.0.1
PORT    ?= 5000
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 + 1 )))
# pytest-xdist workers for `make test`: many tests wait on a browser, a server or a subprocess, so
# one more worker than cores pays; a fourth only adds its browser, app and collection (measured
# back to back: 3 min 2 s with 3, 3 min 24 s with 4). `TEST_WORKERS=0` runs the suite in one
# process. Each worker takes whole files, heaviest first (tests/conftest.py).
TEST_WORKERS ?= 3
# pytest's numbered temporary folders, one root per checkout: two clones running `make test` at
# once otherwise share /tmp/pytest-of-$USER, and one run's clean-up of old folders races the
# other's (seen as an unclosed-folder warning, an error under -W error, at the end of a green run).
TEST_TMP := /tmp/adjudicator-pytest-$(shell printf '%s' "$(CURDIR)" | sha256sum | cut -c1-12)

# Offline rulings run the engine in the browser with this Pyodide (npm package, MPL-2.0).
PYODIDE_VERSION := $(shell sed -n 's/^PYODIDE_VERSION = "\([^"]*\)".*/\1/p' adjudicator/offline_engine.py)
PYODIDE := adjudicator/static/offline/pyodide-$(PYODIDE_VERSION)/pyodide.asm.wasm

# The builder's modules as one file, and esbuild, which makes it (the rules are below).
BUNDLER := adjudicator/bundler
ESBUILD := $(BUNDLER)/node_modules/.bin/esbuild
BUNDLE  := adjudicator/static/js/builder.bundle.js

# Python writes its bytecode caches (gitignored) even where the caller's environment asks it not to:
# without them every process (each gunicorn worker, each test subprocess) recompiles the package.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run serve nginx test lint build check browser clean lighthouse

# The venv is made without pip and filled by uv (PyPI, pinned below): it resolves and installs the
# project and its test tools in ~9 s from a cold cache where pip took ~24 s, and compiles their
# bytecode on both cores at once, so the first test run does not compile them in every process.
# pip goes into the venv all the same, for anyone who adds a package by hand.
UV_VERSION := 0.13.8
$(BIN)/uv:
	$(PY) -m venv --without-pip $(VENV)
	$(PY) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

# Reinstall only when the package definition changed. `python -m venv` would bundle setuptools
# 65.5.0, which has known advisories: the venv gets a fixed one ("setuptools>=78.1.1").
$(STAMP): pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode \
	  -e '.[test]' pip "setuptools>=78.1.1"
	touch $(STAMP)

# `flask build` writes the database and search index (only when content/ changed) and the engine
# bundle for offline rulings (when the engine or the content changed). It runs again only when a
# source it reads is newer than its stamp in the instance folder, so restarting `make serve` or
# `make run` on unchanged files starts the server at once (~1 s of CPU less); each app still
# checks the database and index as it starts and builds them, under a lock, if they are missing.
INSTANCE := $(or $(ADJUDICATOR_INSTANCE),instance)
BUILT    := $(INSTANCE)/.built
SOURCES  := $(shell find content adjudicator -type f \( -name '*.md' -o -name '*.yaml' -o -name '*.py' \) \
              -not -path '*/static/*' -not -path '*/node_modules/*')

build: $(BUILT)

# (a read-only instance folder is served as it is: no stamp there, `flask build` says so each time)
$(BUILT): $(SOURCES) $(STAMP) $(PYODIDE) $(BUNDLE)
	ADJUDICATOR_SKIP_BUILD=1 $(FLASK) build
	@touch $@ 2>/dev/null || true

# Debian's npm, installed when missing: it fetches Pyodide, esbuild and the JavaScript linter.
NPM := @command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian's npm"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }

# The pinned Pyodide core, fetched once with the system's npm; generated under the static files,
# never in git.
$(PYODIDE): | $(STAMP)
	$(NPM)
	rm -rf instance/npm && mkdir -p instance/npm
	cd instance/npm && npm pack --silent pyodide@$(PYODIDE_VERSION) >/dev/null && tar xzf pyodide-$(PYODIDE_VERSION).tgz
	ADJUDICATOR_SKIP_BUILD=1 $(FLASK) offline build --pyodide-from instance/npm/package
	rm -rf instance/npm

# The builder's modules as one minified file (adjudicator/bundle.py), made again whenever a module
# changes, by esbuild at the version adjudicator/bundler/package-lock.json pins (installed once into
# adjudicator/bundler/node_modules/, ignored by git). The bundle is generated, never in git.
$(ESBUILD): $(BUNDLER)/package.json $(BUNDLER)/package-lock.json
	$(NPM)
	cd $(BUNDLER) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(BUNDLE): $(filter-out $(BUNDLE),$(wildcard adjudicator/static/js/*.js)) adjudicator/bundle.py $(ESBUILD) | $(STAMP)
	$(BIN)/python -m adjudicator.bundle

check: $(STAMP)
	ADJUDICATOR_SKIP_BUILD=1 $(FLASK) content check

run: build
	$(FLASK) run --host $(HOST) --port $(PORT) --no-debug

# The production stack (README "Serving", docs/serving.md): nginx on HOST:PORT in front of gunicorn
# sync workers on a unix socket in the instance folder. nginx reads whole requests and takes whole
# answers (slow clients never hold a worker), serves the static files itself (precompressed once
# into build/static/, sendfile) and applies the per-address limits in shared memory; its
# configuration is generated into $(INSTANCE)/run/ at every start. Ctrl-C stops both.
SERVE_APP ?= adjudicator:create_app()
serve: build nginx
	$(BIN)/python -m adjudicator.serving --host $(HOST) --port $(PORT) --workers $(WORKERS) --app '$(SERVE_APP)'

# Debian's nginx (and its brotli_static module) for `make serve`, installed when missing.
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  echo "installing Debian's nginx for make serve"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    nginx libnginx-mod-http-brotli-static >/dev/null; }

# Debian's chromium for the browser tests (Playwright cannot download its own browsers here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The JavaScript linter: ESLint and its style plugin at the versions package-lock.json pins, installed
# once into tests/js/node_modules/ (ignored by git; `npm ci` reinstalls when its package*.json
# change); its config is tests/js/eslint.config.js. With its cache a run over unchanged files takes
# ~0.8 s of CPU, a cold one ~5 s.
JSTOOLS := tests/js
ESLINT := $(JSTOOLS)/node_modules/.bin/eslint
JSLINT := $(ESLINT) --config $(JSTOOLS)/eslint.config.js --cache \
          --cache-location $(JSTOOLS)/node_modules/.cache/eslint/ adjudicator $(JSTOOLS)/eslint.config.js

$(ESLINT): $(JSTOOLS)/package.json $(JSTOOLS)/package-lock.json
	$(NPM)
	cd $(JSTOOLS) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Lighthouse for bench/lighthouse.py, at the version bench/js/package-lock.json pins (the last line
# that runs on Debian's Node 20), installed once into bench/js/node_modules/ (ignored by git). Not
# part of `make test`: a run takes minutes.
BENCHJS := bench/js
LIGHTHOUSE := $(BENCHJS)/node_modules/.bin/lighthouse

$(LIGHTHOUSE): $(BENCHJS)/package.json $(BENCHJS)/package-lock.json
	$(NPM)
	cd $(BENCHJS) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

lighthouse: build browser $(LIGHTHOUSE)
	$(BIN)/python bench/lighthouse.py

# mypy --strict on the engine (pyproject.toml [tool.mypy]): ~0.3 s of CPU with its cache, ~2 s without.
lint: $(STAMP) $(ESLINT)
	$(BIN)/ruff check adjudicator tests bench
	$(BIN)/mypy adjudicator/engine
	$(BIN)/mypy adjudicator
	$(JSLINT)

# PostgreSQL on loopback for the storage tests (installs Debian's postgresql when missing).
test: $(STAMP) $(PYODIDE) $(BUNDLE) $(ESLINT) browser nginx
	$(BIN)/ruff check adjudicator tests bench
	$(BIN)/mypy adjudicator/engine
	$(BIN)/mypy adjudicator
	$(JSLINT)
	url="$${TEST_DATABASE_URL:-}"; \
	  [ -n "$$url" ] || url=$$(bash .ci/postgres.sh) || { echo "make test: PostgreSQL for the storage tests could not be started (its messages are above)" >&2; exit 1; }; \
	  mkdir -p $(TEST_TMP) && TEST_DATABASE_URL="$$url" PYTEST_DEBUG_TEMPROOT=$(TEST_TMP) PYTHONUNBUFFERED=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

clean:
	rm -rf $(VENV) $(JSTOOLS)/node_modules $(BENCHJS)/node_modules $(BUNDLER)/node_modules $(BUNDLE) instance/*.db instance/*.db-* instance/index instance/.built instance/run \
	  instance/artifacts adjudicator/static/offline build/static build/pages $(TEST_TMP)
