# Two commands: `make` sets up .venv and builds the main products into build/; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all bytecode build test test-fast bench preview clean system-check constraints

all: build

# constraints.txt pins every package to the version the byte-identical rebuilds were checked with.
$(STAMP): pyproject.toml constraints.txt
	@$(MAKE) --no-print-directory system-check
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	@touch $(STAMP)

# After changing dependencies in pyproject.toml: pin what the venv now holds.
constraints: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^#'; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

# WeasyPrint needs Pango (a system library pip cannot install): say so plainly instead of a traceback.
# HarfBuzz-Subset is optional: without it fonts are subset with fontTools (pdf.py), same text, same size.
system-check:
	@$(PYTHON) -c "import ctypes.util, sys; sys.exit(0 if ctypes.util.find_library('pango-1.0') else 1)" || { \
	  echo "WeasyPrint needs the Pango library, which is not installed."; \
	  echo "On Debian/Ubuntu:  sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"; \
	  echo "On macOS:          brew install pango"; \
	  exit 1; }

# Our modules compiled once, as pip does for an installed package: with PYTHONDONTWRITEBYTECODE set (some
# CI images set it) every process, and every worker a build spawns, would compile them again (~0.7 s each).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q src > /dev/null

build: bytecode
	$(BIN)/dungeonpress build all --quiet

# Two worker processes (pytest-xdist): each whole-product build is made once by one of them and read by
# both (tests/conftest.py). TEST_WORKERS=0 runs everything in this one process.
TEST_WORKERS ?= 2
# pytest rewrites the asserts of every test module it imports and keeps the result beside it in __pycache__,
# unless PYTHONDONTWRITEBYTECODE is set (some images set it): then every run, in each of its processes, rewrites
# all 250 test modules again (about 3 s a process). Empty, the variable is unset for Python.
KEEP_REWRITTEN := PYTHONDONTWRITEBYTECODE=

test: bytecode
	$(KEEP_REWRITTEN) $(BIN)/python -m pytest -n $(TEST_WORKERS)

# The quick tier while working: no PDF layout, no many-seed sweeps (under a minute); CI runs `make test`.
test-fast: bytecode
	$(KEEP_REWRITTEN) $(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not slow"

bench: $(STAMP)
	$(BIN)/python -m scripts.bench

# Rasterise every PDF in build/ to PNG pages under preview/ (to look at what we print).
preview: $(STAMP)
	$(BIN)/python scripts/preview.py build preview

clean:
	rm -rf build preview
