# Two commands on a fresh machine: `make demo` (install + check two answers offline: one against its
# context, one against Wikipedia) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q
# llama.cpp must be built portable, or it dies with "Illegal instruction" on other CPUs.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
export HF_HUB_OFFLINE := 1

QUESTION ?= When did the Golden Gate Bridge open, and how long is it?
ANSWER ?= The Golden Gate Bridge opened in 1937. Its main span is about 4,200 metres long. I think it is the most beautiful bridge in the world!
# With no context the embedded judge checks against the packaged Wikipedia (the wiki extra).
WK_QUESTION ?= Where is the Eiffel Tower, and when was it finished?
WK_ANSWER ?= The Eiffel Tower is in Paris. It was finished in 1920. It is the tallest building in Asia.
CONTEXT ?= The Golden Gate Bridge is a suspension bridge spanning the Golden Gate strait at the entrance to San Francisco Bay. It opened to traffic in May 1937. Its main span is 1,280 metres long, and it was the longest suspension bridge span in the world until 1964.

.PHONY: demo test lint browser clean

$(VENV)/bin/python:
	python3 -m venv $(VENV)

$(VENV)/.demo: $(VENV)/bin/python pyproject.toml
	$(PIP) -e '.[local,wiki]'
	touch $@

# torch's CPU build first: left to sentence-transformers (st extra), pip pulls GBs of CUDA packages.
$(VENV)/.dev: $(VENV)/.demo
	$(PIP) torch==2.13.0
	$(PIP) -e '.[local,wiki,zim,eval,retrieval,st,langchain,serve,dev]'
	touch $@

demo: $(VENV)/.demo
	$(VENV)/bin/factjudge check "$(QUESTION)" "$(ANSWER)" --context "$(CONTEXT)"
	$(VENV)/bin/factjudge check "$(WK_QUESTION)" "$(WK_ANSWER)"

# The browser tests drive Debian's headless Chromium; install it where we may (root, as in CI).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "chromium not installed: browser tests will be skipped"; fi

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check factjudge tests benchmarks
	$(VENV)/bin/mypy factjudge

test: lint browser
	$(VENV)/bin/pytest -q

clean:
	rm -rf $(VENV)
