"""The doctor's real-case corpus: headers that say what they must, and static recall that does not regress.

The corpus (tests/doctor_cases/real/) and its scoring live in benchmarks/doctor_accuracy.py, which
prints the full picture (notebook form, explain, false positives); this test loads the same code,
checks every case file, and scores the static doctor on the files as posted.

First sight: every case numbered above LAST_CASE_BEFORE_FIRST_SIGHT carries the doctor's result as it
was when the case arrived (a ``# first-sight:`` line, benchmarks/first_sight_record.py). Those lines
are checked for form and for agreement with the labels, never for a minimum score: raising the score
on them is the doctor's job, and the recorded line is never rewritten. The baselines below cover the
cases that existed before first sight began, which the doctor was tuned on.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from levelbench.doctor import RULES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))  # doctor_accuracy imports its sibling first_sight_record

# The highest case number before first-sight scoring began (2026-12-02): every later case must carry a
# first-sight line, and the static baselines below are measured on the cases up to this one.
LAST_CASE_BEFORE_FIRST_SIGHT = 47

# Static recall on the .py files as posted: 20 of 51 labelled (case, code) pairs, measured on
# 2026-12-01 (09:34 UTC) with jax 0.10.2, before any rule was changed to fit the corpus; 53 of 54
# on 2026-12-01 after issue 13's static rules and case 043 (the miss: 013, a name imported as two
# modules); 55 of 56 after cases 044-045 and LB117's evidence of ragged lists and loop-sized arrays
# (044 found); 56 of 56 on 2026-12-06 (branch mend19: a function reading a name imported as several modules runs
# the import in effect where it is called, 013 found). Raise it when a rule improves; never lower it to make a
# change pass.
BASELINE_STATIC_RECALL_PY = 56 / 56
# Precision on the same run: every finding on the corpus was a labelled cause (77 of 77).
BASELINE_STATIC_PRECISION_PY = 0.9
# Findings per 100 files on the installed sources of flax, optax, orbax.checkpoint and
# jax.example_libraries (issue 13: at most 1; 0 of 565 files on 2026-12-01).
MAX_FP_PER_100_FILES = 1.0
# Findings on the fetched part, the 34 pinned libraries of `LIBRARY_WHEELS` (issue 25): 128 in 2270 files at
# first sight (2026-12-02), 45 once the rules asked where code runs, 46 once that met the name-following
# model of the variants work (the 46th, equinox's internal/_noinline.py:109 LB106, is a false finding: a
# comprehension over a callback's tuple of pytree leaves; both merged the same day, so it is raised once, in
# the open); 37 once the shared model knew a loop's stated trip count and spelled-out values, a tuple of leaves
# passed by every caller, a nested def's own call sites, and a library call made for its effect (issue 25, the
# model-general branch: 9 wrong findings gone), 39 once LB114 read an eager `jax.tree.map` as the loop over
# leaves it is (corpus 055; two setup tree maps in mujoco-mjx's visualize_render.py). Then five libraries more
# (haliax, interpax, jaxley, netket, pgx: 680 files, 21 findings at first sight, 60 in all), and 39 once the model
# scoped names, read structure under jit and the code's own words (issue 25, the libfp branch): 35 on the 34 earlier
# libraries, 4 on the five; every one is listed and judged in docs/notes/doctor-accuracy.md ("Accuracy on real code").
# Then twelve libraries more (clu, craftax, einshape, evojax, jax-dataclasses, jaxns, jaxsim, oryx, paramax, qdax,
# sympy2jax, xminigrid: 546 files, 31 findings at first sight, 70 in all), and 61 once the model knew a trace guard,
# an AOT executable, a tuple kept on a test case, a function only handed to libraries, and calls made for their
# effect (issue 25, the second libfp round: 38 on the 39 earlier libraries, 23 on the twelve; 12 of them oryx's
# LB113, `from jax import util`, which jax 0.10.2 does not have). The count rose with the corpus, not with a change.
# Then 58 (issue 25, libfp2): a loop bounded by a name bound to one integer states its trip count (qdax), and one
# operation per leaf timed beside a compiled program assembles that program's input (jaxns, 2).
# Then 60, raised in the open (issue 25, mend9): once a `@contextmanager` generator that reads a clock around its
# `yield` times the `with` body, haiku's examples/imagenet/train.py `with time_activity(...)` blocks are timed regions,
# and LB103 reports the first call of jitted `eval_batch` in the periodic 'eval during train' figure (true by the
# standard of the transformer example's first steps/s interval) and of `train_step` in the 'train' total (true by
# the rule's words; the figure is the run's duration, of which the compile is a part: listed as debatable in
# docs/notes/doctor-accuracy.md). The same code written as a clock pair got both before.
# Then 58 (issue 25, the LB104 label decisions): a timer whose only use of its interval is a log line reports progress
# on an activity, not a measurement, for LB103 as for LB102 (`_effects.only_logs_its_interval`): haiku's two
# `time_activity` findings went; the transformer example's steps/s figure (kept in its metrics) stays.
# Lower it when a rule improves; never raise it to make a change pass.
MAX_FETCHED_FINDINGS = 58

ESTABLISHED_BY = re.compile(r"(accepted answer|maintainer \S+.*|answer by \S.*)")


def _load_accuracy_module():
    spec = importlib.util.spec_from_file_location("doctor_accuracy", ROOT / "benchmarks" / "doctor_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy_module()
import first_sight_record as record  # noqa: E402  (on sys.path above; loaded by doctor_accuracy too)

CASES = accuracy.load_corpus()


def _number(case) -> int:
    return int(case.name[:3])


TUNED_CASES = [c for c in CASES if _number(c) <= LAST_CASE_BEFORE_FIRST_SIGHT]
FIRST_SIGHT_CASES = [c for c in CASES if _number(c) > LAST_CASE_BEFORE_FIRST_SIGHT]


def _probe_codes() -> set[str]:
    from levelbench._probing.probes import all_probes  # the one list of LB2xx codes

    return {code for probe in all_probes() for code in probe.codes}


def test_the_corpus_is_large_enough_and_holds_correct_code():
    assert len(CASES) >= 40, f"expected at least 40 real cases, got {len(CASES)}"
    correct = [c for c in CASES if c.name.endswith("_correct")]
    assert len(correct) >= 8, f"expected at least 8 cases of correct code (*_correct.py), got {len(correct)}"
    for case in correct:
        assert not case.static and not case.dynamic, f"{case.name} is correct code: static: none, dynamic: none or n/a"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_header_is_well_formed(case):
    keys = accuracy.HEADER_KEYS + ((accuracy.FIRST_SIGHT_KEY,) if case.first_sight is not None else ())
    first = case.path.read_text().splitlines()[: len(keys) + 1]
    assert [line.split(":")[0] for line in first[:-1]] == [f"# {k}" for k in keys], (
        f"{case.path.name}: the header must be exactly these lines, in order: {', '.join(keys)}")
    assert first[-1] == "", f"{case.path.name}: expected a blank line after the header, got {first[-1]!r}"
    assert case.header["source"].startswith("https://"), case.header["source"]
    assert ESTABLISHED_BY.fullmatch(case.header["established-by"]), (
        f"established-by must be 'accepted answer', 'maintainer <handle>' or 'answer by <name>', "
        f"got {case.header['established-by']!r}")
    assert case.static <= set(RULES), f"unknown static codes {sorted(case.static - set(RULES))}"
    if case.dynamic is not None:
        assert case.dynamic <= _probe_codes(), f"unknown dynamic codes {sorted(case.dynamic - _probe_codes())}"
    assert set(case.lines) == set(case.static), (
        f"lines: must give a place for each static code: static {sorted(case.static)}, lines {sorted(case.lines)}")
    file_lines = case.path.read_text().splitlines()
    n_lines = len(file_lines)
    for code, numbers in case.lines.items():
        assert all(len(keys) + 1 < n <= n_lines for n in numbers), (
            f"{code} points at {sorted(numbers)}, outside the code (lines {len(keys) + 2}..{n_lines})")
        # a label one line off (say, written before the first-sight line moved the code down) lands on a
        # blank line or a comment more often than not
        blank = [n for n in numbers if not file_lines[n - 1].strip() or file_lines[n - 1].lstrip().startswith("#")]
        assert not blank, f"{code} points at {blank}, a blank or comment line: expected a line of code"
    inferred = set(re.findall(r"LB\d{3}", case.header["inferred"]))
    assert inferred <= case.static | (case.dynamic or set()), (
        f"inferred names codes that are not labelled: {sorted(inferred - case.static - (case.dynamic or set()))}")


@pytest.mark.parametrize("case", [c for c in CASES if c.dynamic is not None], ids=lambda c: c.name)
def test_runnable_copy_matches_its_case(case):
    assert case.run_path is not None, f"dynamic: is not n/a, so {case.name}_run.py must exist"
    header = accuracy.read_header(case.run_path)
    assert header.get("source") == case.header["source"]
    assert accuracy.parse_codes(header.get("dynamic", "")) == case.dynamic, (
        f"the runnable copy repeats dynamic: {header.get('dynamic')!r}, the case says {case.header['dynamic']!r}")
    assert case.explain, "the runnable copy must name the functions to explain in '# explain:'"
    tree = ast.parse(case.run_path.read_text())
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    for name in case.explain:
        assert name in defined and f"{name}_args" in defined, f"{case.run_path.name} must define {name} and {name}_args"
    source = case.run_path.read_text()
    assert "__main__" not in source and not re.search(r"^\s*[%!]", source, re.M), "no magics, no __main__ block"


def test_static_recall_on_the_posted_files_does_not_fall_below_the_baseline():
    score, _ = accuracy.run_static(TUNED_CASES, forms=("py",))["py"]
    assert score.recall >= BASELINE_STATIC_RECALL_PY - 1e-9, (
        f"static recall on the .py corpus (cases up to {LAST_CASE_BEFORE_FIRST_SIGHT}) fell to {score.recall:.3f} "
        f"(baseline {BASELINE_STATIC_RECALL_PY:.3f}); misses: {score.misses}")
    assert score.precision >= BASELINE_STATIC_PRECISION_PY, (
        f"static precision on the .py corpus fell to {score.precision:.3f}; false findings: {score.false}")


# ---- first sight --------------------------------------------------------------------------------


STATIC_LINE = ("43b52af 2026-12-02 py: found LB102:19 LB102:23 LB103:19; missed LB104:20/21, LB105; "
               "false LB106:12 | notebook: found none; missed LB102:19/23, LB103:19, LB104:20/21, LB105; false none")
EXPLAIN_LINE = "43b52af 2026-12-02 explain: found LB230; missed LB240; false LB250 LB250"


@pytest.mark.parametrize("line", [STATIC_LINE, EXPLAIN_LINE])
def test_first_sight_line_reads_back_as_written(line):
    parsed = record.parse_first_sight(line)
    assert record.format_first_sight(parsed) == line
    assert parsed.commit == "43b52af" and parsed.date.isoformat() == "2026-12-02"


def test_first_sight_line_is_parsed_into_findings_misses_and_false_findings():
    static = record.parse_first_sight(STATIC_LINE).forms
    assert static["py"].found == (("LB102", 19), ("LB102", 23), ("LB103", 19))
    assert static["py"].missed == (("LB104", (20, 21)), ("LB105", ()))
    assert static["py"].false == (("LB106", 12),)
    assert static["py"].labelled == {"LB102", "LB103", "LB104", "LB105"}
    assert static["notebook"].found == ()
    explain = record.parse_first_sight(EXPLAIN_LINE).forms["explain"]
    assert explain.found == (("LB230", 0),) and explain.missed == (("LB240", ()),)
    assert explain.false == (("LB250", 0), ("LB250", 0))


def test_first_sight_scores_count_like_the_corpus_score():
    score = accuracy.Score()
    score.add_result("case", record.parse_first_sight(STATIC_LINE).forms["py"])
    assert (sum(score.found.values()), sum(score.labelled.values())) == (2, 4)  # LB102, LB103 of four codes
    assert (score.correct, score.reported) == (3, 4)  # three right findings, one false


@pytest.mark.parametrize("bad", [
    "43b52af py: found none; missed none; false none | notebook: found none; missed none; false none",  # no date
    "43b52af 2026-12-02 py: found none; missed none; false none",  # a case records both static forms
    "43b52af 2026-12-02 py: found LB102; missed none; false none | notebook: found none; missed none; false none",
    "43b52af 2026-12-02 explain: found LB230:3; missed none; false none",  # explain findings have no lines
    "43b52af 2026-12-02 explain: found none; missed none; false none | py: found none; missed none; false none",
    "43b52af 2026-13-02 explain: found none; missed none; false none",  # not a date
    "xyz 2026-12-02 explain: found none; missed none; false none",  # not a commit
])
def test_malformed_first_sight_lines_are_refused(bad):
    with pytest.raises(ValueError):
        record.parse_first_sight(bad)


@pytest.mark.parametrize("case", FIRST_SIGHT_CASES, ids=[c.name for c in FIRST_SIGHT_CASES])
def test_every_new_case_carries_its_first_sight_result(case):
    assert case.first_sight is not None, (
        f"{case.path.name} was added after first sight began (case {LAST_CASE_BEFORE_FIRST_SIGHT}): score it "
        f"with `python benchmarks/first_sight.py {case.path.relative_to(ROOT)}` before changing the doctor")
    assert set(case.first_sight.forms) == {"py", "notebook"}
    for form, result in case.first_sight.forms.items():
        assert result.labelled == case.static, (
            f"{case.path.name}: first sight ({form}) scored the codes {sorted(result.labelled)}, the labels are "
            f"{sorted(case.static)}")
        for code, lines in result.missed:
            assert frozenset(lines) == case.lines.get(code, frozenset()), (
                f"{case.path.name}: first sight ({form}) misses {code} at {lines}, the labels put it at "
                f"{sorted(case.lines.get(code, ()))}")
    if case.run_path is not None and case.dynamic is not None:
        assert case.run_first_sight is not None, (
            f"{case.run_path.name} has no first-sight line: run benchmarks/first_sight.py on {case.path.name}")
        assert set(case.run_first_sight.forms) == {"explain"}
        assert case.run_first_sight.forms["explain"].labelled == case.dynamic


def test_cases_from_before_first_sight_have_no_first_sight_line():
    """A first-sight line on a case the doctor was tuned on would report a training score as first sight."""
    tagged = [c.name for c in TUNED_CASES if c.first_sight is not None or c.run_first_sight is not None]
    assert not tagged, f"cases up to {LAST_CASE_BEFORE_FIRST_SIGHT} predate first sight: {tagged}"


def test_first_sight_figures_are_reported(capsys):
    """Reported, not held to a threshold: the doctor's improvement on these cases is measured elsewhere."""
    scores = accuracy.first_sight_scores(CASES)
    with_static = [c for c in FIRST_SIGHT_CASES if c.first_sight is not None]
    assert len(scores["py"].results) == len(with_static)
    assert sum(scores["py"].labelled.values()) == sum(len(c.static) for c in with_static)
    with capsys.disabled():
        print("\nfirst sight: " + ", ".join(
            f"{form} recall {accuracy.fmt_ratio(s.recall)} precision {accuracy.fmt_ratio(s.precision)} "
            f"({len(s.results)} cases)" for form, s in scores.items()))


def test_first_sight_writer_records_a_case_once(tmp_path):
    """benchmarks/first_sight.py adds the line to a case without one and leaves a case with one alone."""
    import subprocess
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode != 0:
        pytest.skip("first sight names the doctor's commit: needs the git checkout")
    import first_sight
    case = tmp_path / "900_sample.py"
    case.write_text(
        "# source: https://example.org/case\n# title: t\n# established-by: maintainer someone\n# cause: c\n"
        "# static: LB102\n# dynamic: n/a\n# inferred: none\n# lines: LB102:12\n\n"
        "import jax.numpy as jnp\nx = jnp.ones((100, 100))\n%timeit x @ x\n")
    done = first_sight.record([case], allow_dirty=True)
    text = case.read_text()
    assert len(done) == 1 and text.splitlines()[8].startswith("# first-sight: ")
    parsed = accuracy.read_case(case).first_sight
    assert set(parsed.forms) == {"py", "notebook"} and parsed.forms["py"].labelled == {"LB102"}
    assert first_sight.record([case], allow_dirty=True) == [] and case.read_text() == text


def test_good_libraries_get_at_most_one_finding_per_100_files():
    try:
        results = accuracy.run_fp(("installed",))
    except ImportError as e:
        pytest.skip(str(e))
    files = sum(p["files"] for p in results["packages"])
    per_100 = 100 * len(results["findings"]) / files
    assert not results["crashes"], results["crashes"]
    assert per_100 <= MAX_FP_PER_100_FILES, (
        f"{len(results['findings'])} findings in {files} files of well-regarded libraries ({per_100:.2f} per 100): "
        + "; ".join(f"{f['file']}:{f['line']} {f['code']} {f['message']}" for f in results["findings"][:10]))


def test_fetched_libraries_keep_their_finding_count():
    results = accuracy.run_fp(("fetched",))
    if "fetched" in results["skipped"]:
        pytest.skip(f"the pinned library wheels could not be fetched: {results['skipped']['fetched']}")
    files = sum(p["files"] for p in results["packages"])
    assert files >= 1500, f"the fetched part should hold at least 1500 files, got {files}"
    assert not results["crashes"], results["crashes"]
    assert len(results["findings"]) <= MAX_FETCHED_FINDINGS, (
        f"{len(results['findings'])} findings in {files} files of the fetched libraries (at most "
        f"{MAX_FETCHED_FINDINGS}): " + "; ".join(f"{f['package']} {f['file']}:{f['line']} {f['code']}"
                                                  for f in results["findings"]))


def _run(findings: dict[str, str], skipped: dict[str, str] | None = None) -> dict:
    """One explain run of one function ``f``: code -> "warning" / "borderline", probes skipped."""
    return {"functions": [{"function": "f", "skipped": skipped or {},
                           "findings": [{"code": c, "scored": kind == "warning", "borderline": kind == "borderline"}
                                        for c, kind in findings.items()]}]}


def test_flips_count_runs_that_decided_differently_not_probes_skipped_for_time():
    flips = accuracy.flips
    warned, absent = _run({"LB240": "warning"}), _run({})
    skipped = _run({}, {"dispatch": "skipped for time: the dispatch probe needs about 3 s, 1 s of the budget left"})
    assert flips([{"case": "c", "runs": [warned, absent, warned]}]) == [
        {"case": "c", "function": "f", "code": "LB240", "found_in": 2, "runs": 3, "undecided_in": 0,
         "warning_in": 2, "borderline_in": 0, "flip": True}]
    # the dispatch probe (LB240's) did not run in the second: it decided nothing, so nothing flipped
    [undecided] = flips([{"case": "c", "runs": [warned, skipped, warned]}])
    assert not undecided["flip"] and undecided["undecided_in"] == 1 and undecided["warning_in"] == 2
    # another probe skipped for time is no excuse for LB240's absence
    other = _run({}, {"kernels": "skipped for time: the kernel probe needs about 9 s, 1 s of the budget left"})
    assert [(f["code"], f["flip"]) for f in flips([{"case": "c", "runs": [warned, other]}])] == [("LB240", True)]
    # a borderline note and a warning are the same answer
    assert flips([{"case": "c", "runs": [warned, _run({"LB240": "borderline"})]}]) == []


def test_first_sight_refuses_to_record_a_doctor_other_than_its_checkouts(tmp_path):
    # One virtual environment serving several checkouts imported the installed levelbench, and first sight
    # recorded another checkout's result under this one's commit (2026-12-06, cases 372-403).
    fake = tmp_path / "levelbench"
    (fake / "doctor").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "doctor" / "__init__.py").write_text("def lint_paths(paths):\n    raise AssertionError('not this one')\n")
    script = (
        "import sys, importlib.util\n"
        f"sys.path.insert(0, {str(tmp_path)!r}); import levelbench\n"
        f"spec = importlib.util.spec_from_file_location('first_sight', {str(ROOT / 'benchmarks' / 'first_sight.py')!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "print(module.doctor_commit(allow_dirty=True))\n"
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert child.returncode != 0, child.stdout
    assert "not this checkout's" in child.stderr and "PYTHONPATH=" in child.stderr, child.stderr
