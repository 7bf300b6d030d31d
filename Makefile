# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCALE := app/locale
CATALOGS := $(wildcard $(LOCALE)/*/LC_MESSAGES/messages.po)

.PHONY: run test test-deploy lint catalogs catalogs-compile bench bench-stats bench-load bench-play fuzz e2e-repeat venv \
	venv-test clean

# What playing needs: the app and its dependencies (the C core built by pip), and the
# language catalogs compiled.
$(BIN)/.installed: pyproject.toml setup.py $(wildcard app/engine/*.c app/engine/*.h) $(CATALOGS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	$(if $(CATALOGS),$(BIN)/pybabel -q compile -d $(LOCALE) -D messages)
	touch $@

# And what the tests and benches need beside it (pyproject's test extras: pytest, ruff,
# Playwright, schemathesis, Dask, ...).
$(BIN)/.installed-test: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/.installed
venv-test: $(BIN)/.installed-test

# TypeScript's checker for the page's scripts (package.json pins it; package-lock.json holds
# the exact tree), installed by npm from the lock file.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Settings (HOST, PORT, DATABASE_URL, SECRET_KEY, ...) come from the environment or .env:
# `make run PORT=8080`; see docs/deploy.md.
run: venv
	$(BIN)/python -m app.serve

# The words (docs/languages.md): every text marked for translation extracted into
# $(LOCALE)/messages.pot, and each language's messages.po made (a new language in
# app/web/core/i18n.py's LANGUAGES) or updated from it (new texts appear untranslated; tests/i18n
# fails until they are translated). catalogs-compile makes the .mo
# files the app loads (the install does it too; an edited .po is compiled in memory).
catalogs: venv
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext -k counted:1,2 --add-comments=TRANSLATORS: \
		--add-location=file --sort-by-file --project=Pyramid --version=1 \
		--copyright-holder="Pyramid's authors" -o $(LOCALE)/messages.pot .
	for code in $$($(BIN)/python -c "from app.web.core.i18n import LANGUAGES, DEFAULT; \
			print(*(c for c in LANGUAGES if c != DEFAULT))"); do \
		test -f $(LOCALE)/$$code/LC_MESSAGES/messages.po || \
			$(BIN)/pybabel -q init -i $(LOCALE)/messages.pot -d $(LOCALE) -D messages -l $$code; \
	done
	$(BIN)/pybabel -q update -i $(LOCALE)/messages.pot -d $(LOCALE) -D messages \
		--no-fuzzy-matching --ignore-obsolete

catalogs-compile: venv
	$(BIN)/pybabel compile -d $(LOCALE) -D messages --statistics

lint: venv-test
	$(BIN)/ruff check .

# ruff, the types (mypy on app/, configured in pyproject.toml; tsc on static/js, configured in
# tsconfig.json), then the suite in TEST_WORKERS processes (pytest-xdist): most of a browser
# test's time is spent waiting on its server and Chromium, so more workers than cores pays; a
# module stays on one worker (--dist loadscope), so its module-wide fixtures (a server, a Node
# run) start once.
#
# Python's compiled bytecode is kept (__pycache__/, ignored by git) even where the environment
# says PYTHONDONTWRITEBYTECODE: without it every worker compiles the app and rewrites the
# tests' asserts anew, and every app process the tests start compiles the app again (about 6
# CPU-s a worker and 0.2 an app process: docs/tests.md).
TEST_WORKERS ?= 3
test: export PYTHONDONTWRITEBYTECODE=
test: venv-test node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	npx --no-install tsc -p tsconfig.json
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope

# The image and deploy/compose.yaml under podman, as operators run them (tests/deploy/test_image.py
# and test_stack.py): base images made from Debian's packages where Docker Hub can't be reached
# (deploy/local-base/build, kept for the next run), the image built, checked, the stack brought
# up, a game played through a lost app and a restarted proxy, backups restored; everything it
# started removed. Needs root and podman, runc, mmdebstrap (.ci/run installs them); where no
# container engine can run, it skips with one line. DEPLOY_BUDGET seconds at most.
DEPLOY_BUDGET ?= 900
$(BIN)/.installed-deploy: $(BIN)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,deploy]'
	touch $@

test-deploy: $(BIN)/.installed-deploy
	timeout --signal=INT --kill-after=60 $(DEPLOY_BUDGET) \
		$(BIN)/python -m pytest -q -rs -p no:randomly -m containers tests/deploy

bench: venv
	$(BIN)/python bench/solver.py

bench-stats: venv-test
	$(BIN)/python bench/stats.py

# Simulated players through the JSON API against a server it starts on 127.0.0.1 (SQLite, one
# process). PostgreSQL, two processes, on a database it may empty:
#   make bench-load ARGS="--database-url postgresql+psycopg://user:pw@127.0.0.1/db"
bench-load: venv-test
	$(BIN)/python bench/load.py --players 50 100 $(ARGS)

# Click to redrawn board, in Chromium, over a whole game.
bench-play: venv-test
	$(BIN)/python bench/play_feel.py

# The API against its OpenAPI schema with many more examples than the test suite's short run.
fuzz: venv-test
	FUZZ_EXAMPLES=1000 $(BIN)/python -m pytest -q tests/web/test_fuzz.py

# The browser tests ten times in a row: a flaky test is a bug.
e2e-repeat: venv-test
	for run in 1 2 3 4 5 6 7 8 9 10; do E2E_RELOADS=50 $(BIN)/python -m pytest -q -p no:randomly tests/e2e || exit 1; done

clean:
	rm -rf $(VENV) node_modules build *.egg-info app/engine/*.so
