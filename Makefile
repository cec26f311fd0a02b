# levelbench: the two commands of the README's Quick start, plus helpers.
#   make demo   create/reuse .venv, install, run the seed workloads side by side
#   make test   create/reuse .venv, install, run the whole test suite but the wall-clock checks, on every core
#   make test-wallclock   the wall-clock accuracy checks (pytest -m wallclock), failures rerun once
#   make docs   create/reuse .venv, install, build the documentation site into site/ (open site/index.html)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.levelbench-installed

.PHONY: install demo test test-wallclock test-fast bench docs codes lint clean

$(STAMP): pyproject.toml constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[all,ray,test,docs]'
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/levelbench run

# The suite runs in one pytest-xdist worker per core (PYTEST_WORKERS=0 runs it in this process); tests marked
# xdist_group share a worker (the Ray cluster tests). explain's tests run after it, in one process: explain
# decides what it reports from timings it makes within a wall-clock budget, which a second worker on the same
# cores would stretch. The wall-clock checks (test-wallclock) run in one process too.
PYTEST_WORKERS ?= auto
EXPLAIN_TESTS := tests/test_explain*.py

test: $(STAMP)
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(addprefix --ignore=,$(wildcard $(EXPLAIN_TESTS))) $(PYTEST_ARGS)
	$(PY) -m pytest $(wildcard $(EXPLAIN_TESTS)) $(PYTEST_ARGS)

# Tests that assert on real elapsed time (marked wallclock): a busy machine can stretch one measurement,
# so the tests that failed get one more run (--lf); failing again fails.
test-wallclock: $(STAMP)
	$(PY) -m pytest -m wallclock $(PYTEST_ARGS) || $(PY) -m pytest -m wallclock --lf $(PYTEST_ARGS)

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not wallclock" $(PYTEST_ARGS)

# mkdocs.yml: --strict fails on a broken link, a missing anchor or an API name that cannot be found
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

# docs/reference/codes.md is generated from the catalogue of finding codes (tests/test_catalogue.py checks it)
codes: $(STAMP)
	$(PY) -c 'from levelbench._values.catalogue import codes_markdown; open("docs/reference/codes.md", "w").write(codes_markdown())'

bench: $(STAMP)
	$(PY) benchmarks/gru.py
	$(PY) benchmarks/matmul.py

clean:
	rm -rf $(VENV) .levelbench .pytest_cache build site *.egg-info
