# Two commands: `make book` builds the executed website, `make test` runs every
# test.  Both create .venv on first use and install the pinned requirements.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
JB_FLAGS := -W -n --keep-going

.PHONY: venv book book-student pdf editions-test test test-notebooks unit notebooks site-test site-audit student colab nbval-refs bench lab clean help

help:
	@echo "make book   build the executed website into _build/html"
	@echo "make book-student  the same site without the solutions, into _build/student/_build/html"
	@echo "make pdf    the whole book as a PDF, _build/book.pdf (A4) and _build/book-letter.pdf (needs chromium, poppler-utils)"
	@echo "make test   unit + property tests, chapters under nbval, then the site (built, then tested in Chromium)"
	@echo "make test-notebooks  run notebooks/ and the handouts in Binder- and Colab-like venvs (downloads from PyPI)"
	@echo "make editions-test  build the student site and the PDF, then test them (not part of make test)"
	@echo "make site-test  open every page of the built site in headless Chromium (needs Debian's chromium)"
	@echo "make lab    JupyterLab on the repository: chapters/*.md open as notebooks (jupytext)"
	@echo "make student  student notebooks (solutions emptied) into student/"
	@echo "make colab  refresh notebooks/ (the .ipynb copies the Binder/Colab buttons open)"
	@echo "make bench  run the benchmarks (ratios against brute force)"
	@echo "make nbval-refs  re-record the reference outputs nbval checks"

$(STAMP): requirements.txt constraints.txt pyproject.toml .jupyter/labconfig/default_setting_overrides.json
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -c constraints.txt
	@# JupyterLab opens chapters/*.md as notebooks (jupytext's default viewer)
	@mkdir -p $(VENV)/etc/jupyter/labconfig
	cp .jupyter/labconfig/default_setting_overrides.json $(VENV)/etc/jupyter/labconfig/
	@touch $(STAMP)

venv: $(STAMP)

book: venv colab
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	@echo ""
	@echo "The book is built: open $(CURDIR)/_build/html/index.html"

# The student edition: the same site with every solution left out (sphinx-exercise's
# hide_solutions, set by _ext/editions.py), in its own folder so the public site
# keeps its solutions; the executed notebooks come from the public build's cache.
book-student: venv colab
	DPSENS_EDITION=student $(BIN)/jupyter-book build . $(JB_FLAGS) --path-output _build/student
	@echo ""
	@echo "The student edition is built: open $(CURDIR)/_build/student/_build/html/index.html"

# The printable book: the single-page build, printed by headless Chromium
# (tools/make_pdf.py) to A4 and Letter, then checked for every chapter's title.
pdf: venv
	$(BIN)/jupyter-book build . $(JB_FLAGS) --builder singlehtml
	$(BIN)/python tools/make_pdf.py
	@echo "The book as a PDF: $(CURDIR)/_build/book.pdf (A4), $(CURDIR)/_build/book-letter.pdf (Letter)"

# The two extra editions and their tests (tests/test_editions.py).
editions-test: book-student pdf
	$(BIN)/python -m pytest -q -p no:cacheprovider -m browser tests/test_editions.py

unit: venv
	$(BIN)/python -m pytest -q --doctest-modules -m "not browser and not readers" tests src/dpsens

notebooks: venv
	$(BIN)/python tools/nbval_notebooks.py check
	$(BIN)/python -m pytest -q -p no:cacheprovider --nbval-lax \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=300 tests/notebooks

nbval-refs: venv
	$(BIN)/python tools/nbval_notebooks.py record

# Handouts: chapters with the worked solutions emptied (tools/make_student.py).
student: venv
	$(BIN)/python tools/make_student.py student
	@echo "Student notebooks: $(CURDIR)/student/"

# notebooks/<stem>.ipynb: committed copies of the chapters for Colab and Binder.
colab: venv
	$(BIN)/python tools/make_student.py colab

# The built site in headless Chromium (tests/test_site.py): every page, offline.
site-test: venv
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "browser and not audit" tests/test_site.py

# Every page fast on a phone and accessible (issue 25): Lighthouse's mobile audit, three runs a
# page, the median (tools/site_audit.py), and axe-core at 1280 and 390 px (tests/test_site.py -m audit).
# npm ci installs the pinned Lighthouse and axe-core (tools/site_audit/package-lock.json).
site-audit: venv
	test -f _build/html/index.html || $(MAKE) --no-print-directory book
	cd tools/site_audit && npm ci --no-audit --no-fund --ignore-scripts
	$(BIN)/python -m pytest -q -p no:cacheprovider -m audit tests/test_site.py
	$(BIN)/python tools/site_audit.py

# The unit tests, the chapters under nbval and the site build are independent:
# run them two at a time (-O keeps each one's output together), then open the
# built site in Chromium.
# The committed Colab/Binder copies are checked first, before `book` refreshes them.
test: venv
	$(BIN)/python tools/make_student.py check-colab
	$(MAKE) --no-print-directory -j2 -O unit notebooks book
	$(MAKE) --no-print-directory site-test

# What readers run, where they run it (tests/test_reader_notebooks.py): every
# notebooks/*.ipynb in a Binder-like venv (binder/requirements.txt, package
# non-editable) and, with the handouts, in a Colab-like Python 3.12 venv
# (tools/envs/colab.txt).  The venvs are cached in .venv-binder/, .venv-colab/.
test-notebooks: venv
	$(BIN)/python -m pytest -q -p no:cacheprovider -m readers -s tests/test_reader_notebooks.py

lab: venv
	JUPYTER_CONFIG_PATH=$(CURDIR)/.jupyter $(BIN)/jupyter lab

bench: venv
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf _build
