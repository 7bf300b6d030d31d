# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench venv clean

$(BIN)/.installed: pyproject.toml setup.py $(wildcard app/engine/*.c)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(BIN)/.installed

run: venv
	$(BIN)/python -m app.prestart
	$(BIN)/uvicorn app.main:app --host "$${HOST:-$(HOST)}" --port "$${PORT:-$(PORT)}"

lint: venv
	$(BIN)/ruff check .

test: venv
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

bench: venv
	$(BIN)/python bench/solver.py

clean:
	rm -rf $(VENV) build *.egg-info app/engine/*.so
