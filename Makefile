# PyTorch 笔记 · PyTorch Notes. `make serve` and `make test` are all a contributor needs;
# both create or update the virtualenv from pyproject.toml + constraints.txt on first use.
VENV    ?= .venv
PY      := $(VENV)/bin/python
UV      := $(VENV)/bin/uv
STAMP   := $(VENV)/.installed-stamp
ARGS    ?=
PORT    ?= 8000
export NO_MKDOCS_2_WARNING := 1
# Bytecode goes to one folder beside the virtualenv, never into the checkout (tests compare the work tree
# with git), and is written on first import: see the install recipe below. A .pth file gives the same
# prefix to the virtualenv's Python run outside make (.venv/bin/pytest), which then reads what make wrote.
PYCACHE := $(abspath $(VENV))/pycache
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(PYCACHE)

.PHONY: help serve serve-port build offline pdf test test-browser capture verify-records bench lint check-links check-downloads new-chapter twins hooks lock clean gpu-bundle gpu-unpack

help:
	@echo "make serve    - site at http://127.0.0.1:8000 (PORT=8001 for another; reloads on page, example and output changes)"
	@echo "make test     - pytest: examples run, pages in step, strict build, unit tests (under 3 minutes)"
	@echo "make test-browser - the reader's experience in headless Chromium: search, switcher, phones, axe"
	@echo "make build    - strict static build into site/"
	@echo "make capture  - run stale examples, store outputs (ARGS='--force' or ARGS='examples/autograd')"
	@echo "make verify-records BASE=<ref> - re-run what changed since BASE in the sandbox, compare with the records"
	@echo "make offline  - self-contained copy in site-offline/ that works from file:// (no server)"
	@echo "make pdf      - the course as a book: one PDF per language (artifacts/pdf/), linked from the home pages"
	@echo "make bench    - benchmark: build vs executing build, capture, scaling, page weight, tests"
	@echo "make lint     - ruff"
	@echo "make check-links - check external links in the pages (network; never blocks the build)"
	@echo "make check-downloads - run every .py download that has expected errors to its end (both languages, minutes)"
	@echo "make new-chapter NAME=<slug> [SECTION=<nav section>] - scaffold an example and its two pages"
	@echo "make twins    - list pages whose translation lags (ARGS='sync tensors.md' records a pair as in step)"
	@echo "make hooks    - install the pre-commit hooks (ruff, Chinese typesetting)"
	@echo "make gpu-bundle - prepare .gpu-bundle/ for a capture on a lent GPU (then: bash scripts/gpu_capture.sh there)"
	@echo "make gpu-unpack ARCHIVE=<records.tgz> - bring that capture's records into examples/_outputs and validate"

# uv installs the same constraints.txt several times faster than pip; scripts/pip_sources.py hands it
# the package sources pip is configured with (uv does not read pip.conf). No --compile-bytecode: compiling
# all 13,000 modules took 20 s of a fresh clone's set-up, while the ~1,800 that the build and the tests
# import are compiled once, on first import, into PYTHONPYCACHEPREFIX.
# The virtualenv is created without pip (ensurepip took 5 s of a fresh clone's set-up); the system Python's pip
# puts uv into it, or, where python3 has no pip, the virtualenv gets pip of its own for that.
# uv installs from its cache first (--offline: the same packages, constraints.txt pinning all but setuptools):
# online, uv revalidated each cached index page and sdist once stale, and a changed answer rebuilt jieba's sdist,
# 11-14 s and 8.5-9.3 s of CPU per fresh clone against 2.6-6.1 s and 2.5-2.9 s offline. A package missing from
# the cache (its first install, a new constraint) makes that attempt fail before it installs anything: then online.
$(STAMP): pyproject.toml constraints.txt
	@echo "make: setting up $(VENV) from constraints.txt (the first time: about 20 s with uv's cache warm)"
	@test -x $(PY) || python3 -m venv --without-pip $(VENV)
	@test -x $(UV) || python3 -m pip --python $(PY) install -q --disable-pip-version-check -c constraints.txt uv \
		|| { $(PY) -m ensurepip -q && $(PY) -m pip install -q --disable-pip-version-check -c constraints.txt uv; }
	@sources=$$($(PY) scripts/pip_sources.py); \
	$(UV) pip install -q --offline --python $(PY) $$sources -c constraints.txt -e ".[dev]" 2>/dev/null \
		|| { echo "make: uv's cache lacks a package: installing from the package sources"; \
		     $(UV) pip install -q --python $(PY) $$sources -c constraints.txt -e ".[dev]"; }
	@$(PY) -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "pytorch_notes_pycache.pth").write_text(f"import sys; sys.pycache_prefix = sys.pycache_prefix or {sys.argv[1]!r}\n")' "$(PYCACHE)"
	@touch $(STAMP)

# --dirty: rebuild only what an edit affects (scripts/pytorch_notes/site/incremental.py), ~1 s after a save;
# the notebook views follow in the background (site/later.py). A taken PORT stops it in one line, before
# the set-up and the build (scripts/serve_port.py; make's $(error) prints that line and exits 2).
serve: serve-port $(STAMP)
	$(VENV)/bin/mkdocs serve --dirty -a 127.0.0.1:$(PORT) $(ARGS)

serve-port:
	@$(if $(SERVE_PORT_TAKEN),$(error $(SERVE_PORT_TAKEN)),:)
SERVE_PORT_TAKEN = $(shell python3 scripts/serve_port.py 127.0.0.1:$(PORT))

build: $(STAMP)
	$(VENV)/bin/mkdocs build --strict --site-dir site

# Material's offline plugin (mkdocs.yml): no directory URLs, search index inlined as a script.
offline: $(STAMP)
	OFFLINE=true $(VENV)/bin/mkdocs build --strict --site-dir site-offline
	@echo "offline copy: open site-offline/index.html in a browser (file://), or zip site-offline/"

# The course as a book (issue 44): the site built, one PDF per language printed from it by headless Chromium
# into artifacts/pdf/ (scripts/pytorch_notes/book/; ARGS="--lang zh" for one), then the site built again, which
# carries them and links them from the home pages (site/book.py; so does a make offline after it).
pdf: build
	$(PY) scripts/pdf.py $(ARGS)
	$(VENV)/bin/mkdocs build --strict --site-dir site

# Two suites, both run by CI (.ci/run): `make test` is everything but the browser, for a contributor's loop
# under 3 minutes on 2 cores; `make test-browser` drives the built site in Chromium, where a page load costs
# ~0.8 s of CPU (half the suite's CPU was Chromium's, 2026-11-27). One file of either:
# `make test ARGS=tests/store/test_store.py`, `make test-browser ARGS=tests/browser/test_reader.py`.
test: $(STAMP)
	$(VENV)/bin/pytest -m "not browser" $(ARGS)

test-browser: $(STAMP)
	$(VENV)/bin/pytest -m browser $(ARGS)

# The sandbox mounts the virtualenv read-only, so an example cannot write the bytecode of what it imports: each
# run compiled the same modules again (torch._dynamo alone, which every optimizer, torch.compile and
# checkpoint() import, cost ~3 s per example; issue 41). Once per install, before the first capture, the
# virtualenv's modules are compiled into PYTHONPYCACHEPREFIX (~1 min on 2 cores, ~350 MB), where the sandboxed
# runs read them. compileall reports the few test files of packages that are not Python 3 and goes on.
BYTECODE := $(VENV)/.bytecode-stamp
$(BYTECODE): $(STAMP)
	@echo "capture: compiling the virtualenv's bytecode once for the sandboxed runs (about a minute)"
	@$(PY) -m compileall -q -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null 2>&1 || true
	@touch $@

capture: $(STAMP) $(BYTECODE)
	$(PY) scripts/capture.py $(ARGS)

# The records of a change checked by running it again (CI, on every pull request): the examples whose code
# or cpu.json differs from BASE run through the capture's sandbox into a temporary store and must print what
# the committed records say; a changed cuda.json needs the capture workflow's attestation (capture/verify.py).
verify-records: $(STAMP) $(BYTECODE)
	@test -n "$(BASE)" || { echo "usage: make verify-records BASE=<git ref, e.g. main or origin/main>"; exit 2; }
	$(PY) scripts/verify_records.py --base "$(BASE)" $(ARGS)

bench: $(STAMP)
	$(PY) scripts/bench.py $(ARGS)

check-links: $(STAMP)
	$(PY) scripts/check_links.py $(ARGS)

# The .py downloads go on past the cells that raise on purpose (render/download.py); make test runs two of
# them, this runs all (tests/render/test_downloads.py).
check-downloads: $(STAMP)
	PYTORCH_NOTES_RUN_DOWNLOADS=1 $(VENV)/bin/pytest -q -p no:randomly tests/render/test_downloads.py $(ARGS)

new-chapter: $(STAMP)
	$(PY) scripts/scaffold.py "$(NAME)" $(if $(SECTION),--section "$(SECTION)")

twins: $(STAMP)
	$(PY) scripts/twins.py $(ARGS)

# The GPU capture on a machine lent through the device tool (CONTRIBUTING: "Capturing on a lent GPU").
gpu-bundle: $(STAMP)
	$(PY) scripts/gpu_bundle.py $(ARGS)

gpu-unpack: $(STAMP)
	@test -n "$(ARCHIVE)" || { echo "usage: make gpu-unpack ARCHIVE=path/to/records.tgz"; exit 2; }
	$(PY) scripts/gpu_unpack.py "$(ARCHIVE)" $(ARGS)

hooks: $(STAMP)
	$(VENV)/bin/pre-commit install

lint: $(STAMP)
	$(VENV)/bin/ruff check scripts tests examples

# Re-pin constraints.txt from the current virtualenv (after changing pyproject.toml).
lock: $(STAMP)
	python3 -m pip --python $(PY) freeze --exclude-editable | grep -v '^pytorch-notes' | sed 's/^torch==2.13.0+cpu$$/torch==2.13.0/' > constraints.txt

clean:
	rm -rf site site-offline .cache docs/zh/notebooks docs/en/notebooks artifacts/pdf
