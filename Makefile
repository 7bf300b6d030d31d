# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench bench-stats venv clean

$(BIN)/.installed: pyproject.toml setup.py $(wildcard app/engine/*.c)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/.installed

# Settings (HOST, PORT, DATABASE_URL, SECRET_KEY, ...) come from the environment or .env:
# see app/settings.py.
run: venv
	$(BIN)/python -m app.serve

lint: venv
	$(BIN)/ruff check .

test: venv
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

bench: venv
	$(BIN)/python bench/solver.py

bench-stats: venv
	$(BIN)/python bench/stats.py

clean:
	rm -rf $(VENV) build *.egg-info app/engine/*.so
