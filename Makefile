# The README's two commands. Each builds .venv from nothing when it is missing or stale.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# On a Raspberry Pi, picamera2 comes from apt; the venv must see system packages.
VENV_FLAGS ?= $(shell $(PYTHON) -c "import importlib.util as u; print('--system-site-packages' if u.find_spec('picamera2') else '')" 2>/dev/null)

.PHONY: install demo test test-slow bench clean

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -c "import ensurepip" 2>/dev/null || { echo "python3 has no venv support: sudo apt install python3-venv"; exit 1; }
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(BIN)/.installed

demo: $(BIN)/.installed
	$(BIN)/referee demo

test: $(BIN)/.installed
	$(BIN)/python -m pytest -n 2 -q

test-slow: $(BIN)/.installed
	$(BIN)/python -m pytest -q -m slow

bench: $(BIN)/.installed
	$(BIN)/python bench/vision.py

clean:
	rm -rf $(VENV) build *.egg-info
