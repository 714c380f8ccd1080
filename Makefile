PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

.PHONY: run test test-all bench ingest-samples lint clean

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

## make test: set up and run the test suite (slow tests with the 12 real reports included)
test: $(STAMP)
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
