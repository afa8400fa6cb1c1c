# Two commands: `make book` builds the executed website, `make test` runs every
# test.  Both create .venv on first use and install the pinned requirements.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
JB_FLAGS := -W -n --keep-going

.PHONY: venv book book-student pdf pdf-student key assignments course grade release editions-test test test-site-built test-lane-site test-unit test-lane-checks test-full test-notebooks lint unit unit-full notebooks site-test site-audit student colab nbval-refs bench lab clean help

help:
	@echo "make book   build the executed website into _build/html"
	@echo "make book-student  the same site without the solutions, into _build/student/_build/html"
	@echo "make pdf    the whole book as a PDF, _build/book.pdf (A4) and _build/book-letter.pdf (needs chromium, poppler-utils)"
	@echo "make test   unit + property tests (quick profile) beside the site build, its executed chapters checked as nbval would, then Chromium"
	@echo "make test-full  the unit + property tests in the full profile (more hypothesis examples, the slow tests), then nbval"
	@echo "make test-notebooks  run notebooks/ and the handouts in Binder- and Colab-like venvs (downloads from PyPI)"
	@echo "make pdf-student  the student edition (no solutions) as a PDF, _build/student/book.pdf"
	@echo "make assignments  an nbgrader course source, one assignment per chapter, into _build/nbgrader"
	@echo "make key    rewrite the hashed answer key from tools/answer_key.py and print the answers"
	@echo "make course ROSTER=ids.csv [COURSE=dir]  a ready nbgrader course: students added, every chapter released"
	@echo "make release VERSION=X.Y.Z  version, CHANGELOG date, CITATION, the tag in set-up cells; commit, tag, back to .dev0"
	@echo "make grade [COURSE=dir]  autograde the collected submissions and score every answer (tools/grade.py)"
	@echo "make editions-test  build the student site and the PDFs, then crawl them (not part of make test; .ci/run runs it)"
	@echo "make site-test  open every page of the built site in headless Chromium (needs Debian's chromium)"
	@echo "make lab    JupyterLab on the repository: chapters/*.md open as notebooks (jupytext)"
	@echo "make student  student notebooks (solutions emptied) into student/"
	@echo "make colab  refresh notebooks/ (the .ipynb copies the Binder/Colab buttons open)"
	@echo "make bench  run the benchmarks (ratios against brute force)"
	@echo "make lint   ruff and mypy (pyproject.toml): zero findings; make unit runs it first"
	@echo "make nbval-refs  re-record the reference outputs nbval checks"

$(STAMP): requirements.txt constraints.txt pyproject.toml .jupyter/labconfig/default_setting_overrides.json
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -r requirements.txt -c constraints.txt
	@# the byte-code on both cores (pip compiles on one: about 30 s of CPU); compiled here, not at first
	@# import, because with PYTHONDONTWRITEBYTECODE set every process would compile its modules again
	$(BIN)/python -m compileall -q -j 2 $(VENV)/lib
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

# The student edition as a PDF (no solutions): _build/student/book.pdf and book-letter.pdf.
pdf-student: venv
	DPSENS_EDITION=student $(BIN)/jupyter-book build . $(JB_FLAGS) --builder singlehtml --path-output _build/student
	DPSENS_EDITION=student $(BIN)/python tools/make_pdf.py --build _build/student/_build/singlehtml --out _build/student
	@echo "The student edition as a PDF: $(CURDIR)/_build/student/book.pdf (A4), $(CURDIR)/_build/student/book-letter.pdf (Letter)"

# An nbgrader course source, one assignment per chapter (tools/make_assignments.py), in _build/nbgrader.
assignments: venv
	$(BIN)/python tools/make_assignments.py --course _build/nbgrader
	@echo "nbgrader course source: $(CURDIR)/_build/nbgrader (see the teachers' page, 'Grading with nbgrader')"

# A ready nbgrader course (tools/course.py) in COURSE: the course source, the students of ROSTER (a CSV
# with a student_id column) in the gradebook, the exchange, every chapter generated and released.
# nbgrader runs in its own venv, .venv-nbgrader (tools/envs/nbgrader.txt).
COURSE ?= _build/course
NBGRADER := .venv-nbgrader/.dpsens-installed
$(NBGRADER): tools/envs/nbgrader.txt pyproject.toml
	@test -x .venv-nbgrader/bin/python || $(PYTHON) -m venv .venv-nbgrader
	.venv-nbgrader/bin/python -m pip install --quiet -r tools/envs/nbgrader.txt
	@touch $(NBGRADER)

course: venv $(NBGRADER)
	@test -n "$(ROSTER)" || (echo "usage: make course ROSTER=ids.csv [COURSE=dir]"; exit 2)
	$(BIN)/python tools/make_assignments.py --course $(COURSE)
	.venv-nbgrader/bin/python tools/course.py setup --course $(COURSE) --roster $(ROSTER)
	@echo "nbgrader course ready in $(CURDIR)/$(COURSE): students fetch the assignments; after the deadline 'nbgrader collect <chapter>' (or copy submissions into submitted/), then 'make grade COURSE=$(COURSE)'"

# Score a course's submissions: nbgrader autograde (recording, not executing) and tools/grade.py.
grade: $(NBGRADER)
	.venv-nbgrader/bin/python tools/course.py grade --course $(COURSE) $(ASSIGNMENTS)
	.venv-nbgrader/bin/python tools/course.py export --course $(COURSE) $(COURSE)/grades.csv
	@echo "grade sheet: $(CURDIR)/$(COURSE)/grades.csv; every answer's verdict: $(COURSE)/grades/<chapter>.csv"

# A release a course can pin (tools/release.py): version, CHANGELOG date, CITATION, the tag in every
# set-up cell and launch button; commit and tag v$(VERSION), then back to X.Y.(Z+1).dev0.
release: venv
	@test -n "$(VERSION)" || (echo "usage: make release VERSION=X.Y.Z"; exit 2)
	$(BIN)/python tools/release.py $(VERSION)

# The teacher's answer key (tools/answer_key.py): the hashed key the checkers use, and the answers.
key: venv
	$(BIN)/python tools/answer_key.py write
	$(BIN)/python tools/answer_key.py show

# The two extra editions and their tests: the student site and the student PDF crawled for solutions and
# answers (tests/book/test_editions.py), the PDFs' exercise numbers (tests/book/test_numbering.py).  Run by .ci/run.
editions-test: book-student pdf pdf-student
	$(BIN)/python -m pytest -q -p no:cacheprovider -m browser tests/book/test_editions.py tests/book/test_numbering.py

# The unit and property tests.  DPSENS_TEST_PROFILE (tests/profiles.py, read by tests/conftest.py):
# quick = a quarter of each property test's baseline hypothesis examples, the tests marked slow
# left out; full = twice the baseline examples and every slow test.
UNIT_ARGS := -q --doctest-modules -m "not browser and not readers" tests src/dpsens

# The linter and the type checker (configured in pyproject.toml): zero findings, or make unit fails.
lint: venv
	$(BIN)/ruff check . && $(BIN)/mypy

unit: venv lint
	DPSENS_TEST_PROFILE=quick $(BIN)/python -m pytest $(UNIT_ARGS)

unit-full: venv
	DPSENS_TEST_PROFILE=full $(BIN)/python -m pytest $(UNIT_ARGS)

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

# The built site in headless Chromium (tests/book/test_site.py): every page, offline.
site-test: venv
	$(BIN)/python -m pytest -q -p no:cacheprovider -m "browser and not audit" tests/book/test_site.py tests/book/test_numbering.py

# Every page fast on a phone and accessible (issue 25): Lighthouse's mobile audit, three runs a
# page, the median (tools/site_audit.py), and axe-core at 1280 and 390 px (tests/book/test_site.py -m audit).
# npm ci installs the pinned Lighthouse and axe-core (tools/site_audit/package-lock.json).
site-audit: venv
	test -f _build/html/index.html || $(MAKE) --no-print-directory book
	cd tools/site_audit && npm ci --no-audit --no-fund --ignore-scripts
	$(BIN)/python -m pytest -q -p no:cacheprovider -m audit tests/book/test_site.py
	$(BIN)/python tools/site_audit.py $(AUDIT_ARGS)

# Two lanes on the two cores (-O keeps each job's output together; --keep-going: a failure in one lane
# does not stop the other), started at once after the venv:
# (1) the book's cached executions older than the package's code are forgotten (so that the chapters
# run on this code), the site is built -- every chapter executed once -- and its executed chapters
# are checked against the nbval references (tools/nbval_notebooks.py check-built: nbval-lax's
# comparison, no second execution); then the site in Chromium, every page at 1280 px (test_page);
# (2) the nbval references match the chapters, then the unit tests, which include the check that the
# committed Colab/Binder copies and handouts match the chapters (tests/test_student.py; the book is
# built without `make colab`, so nothing rewrites notebooks/ while it is checked); then, once the
# site is built too, the rest of the site test (the phone layouts, search, numbering) on that core.
test: venv
	$(MAKE) --no-print-directory --keep-going -j2 -O test-lane-site test-lane-checks

test-site-built: venv
	$(BIN)/python tools/nbval_notebooks.py expire-cache
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	$(BIN)/python tools/nbval_notebooks.py check-built

test-lane-site: test-site-built
	PYTEST_ADDOPTS="-k test_page" $(MAKE) --no-print-directory site-test

test-unit: venv
	$(BIN)/python tools/nbval_notebooks.py check
	$(MAKE) --no-print-directory unit

test-lane-checks: test-unit test-site-built
	PYTEST_ADDOPTS="-k 'not test_page'" $(MAKE) --no-print-directory site-test

# What `make test` leaves out, so that CI (.ci/run) loses nothing: the unit and property tests
# again in the full profile (twice the baseline examples, the slow tests), and nbval itself
# (every chapter executed afresh in its own kernel and compared with the references).
test-full: unit-full notebooks

# What readers run, where they run it (tests/book/test_reader_notebooks.py): every
# notebooks/*.ipynb in a Binder-like venv (binder/requirements.txt, package
# non-editable) and, with the handouts, in a Colab-like Python 3.12 venv
# (tools/envs/colab.txt).  The venvs are cached in .venv-binder/, .venv-colab/.
# And every notebook and handout opened in a real JupyterLab in headless Chromium
# (tests/book/test_lab_rendering.py): no stray ">" in the maths, every display typeset,
# every set-up cell folded.
test-notebooks: venv
	$(BIN)/python -m pytest -q -p no:cacheprovider -m readers -s tests/book/test_reader_notebooks.py tests/book/test_nbgrader.py \
	    tests/book/test_lab_rendering.py

lab: venv
	JUPYTER_CONFIG_PATH=$(CURDIR)/.jupyter $(BIN)/jupyter lab

bench: venv
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf _build
