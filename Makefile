PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

.PHONY: run test test-all bench ingest-samples lint clean system-deps

# Debian packages the browser test needs (headless Chromium, Korean fonts).
SYSTEM_PKGS := chromium fonts-nanum fonts-droid-fallback

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make run: set up, ingest the sample reports and SOP, start the API (:8000) and the UI (:8501)
run: $(STAMP)
	$(VENV)/bin/aura ingest data/samples
	$(VENV)/bin/aura sop ingest sop
	$(VENV)/bin/aura keys ensure ui --file $${AURA_DATA_DIR:-var}/ui.key
	$(VENV)/bin/aura serve --host 127.0.0.1 --port 8000 & api=$$!; \
	trap 'kill $$api 2>/dev/null' EXIT INT TERM; \
	for i in $$(seq 120); do curl -sf http://127.0.0.1:8000/readyz >/dev/null && break; sleep 1; done; \
	echo "API http://127.0.0.1:8000/docs   UI http://127.0.0.1:8501"; \
	$(VENV)/bin/aura ui --api http://127.0.0.1:8000 --host 127.0.0.1 --port 8501

## make system-deps: install the Debian packages above when one is missing (as root), or say how
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	fc-list 2>/dev/null | grep -qi nanum || missing="$$missing fonts-nanum"; \
	fc-list 2>/dev/null | grep -qi droid || missing="$$missing fonts-droid-fallback"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PKGS) >/dev/null; \
	  else \
	    echo "missing Debian packages:$$missing; run: sudo apt-get install -y $(SYSTEM_PKGS)" >&2; exit 1; \
	  fi; \
	fi

## make test: set up and run the test suite (slow tests with the 12 real reports included)
test: $(STAMP) system-deps
	$(PY) -m pytest -q

## make bench: every benchmark figure as JSON lines (bench/results/latest.jsonl), then BENCHMARKS.md
##   BENCH_COLD=1: also the cold-cache ingest (~10 min); BENCH_1M=1: also retrieval at 1M chunks
bench: $(STAMP)
	$(VENV)/bin/aura bench all --out bench/results/latest.jsonl
	if [ -n "$(BENCH_COLD)" ]; then $(VENV)/bin/aura bench ingest ../shared/data/bai-reports --cold > bench/results/ingest-cold.jsonl; fi
	if [ -n "$(BENCH_1M)" ]; then $(PY) bench/retrieval_scale.py --sizes 1000000 --backends scipy > bench/results/scale-1m.jsonl; fi
	$(VENV)/bin/aura bench report

lint: $(STAMP)
	$(VENV)/bin/ruff check app graph tests

clean:
	rm -rf var .pytest_cache
