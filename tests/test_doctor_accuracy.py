"""The doctor's real-case corpus: headers that say what they must, and static recall that does not regress.

The corpus (tests/doctor_cases/real/) and its scoring live in benchmarks/doctor_accuracy.py, which
prints the full picture (notebook form, explain, false positives); this test loads the same code,
checks every case file, and scores the static doctor on the files as posted.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from levelbench.doctor import RULES

ROOT = Path(__file__).resolve().parent.parent

# Static recall on the .py files as posted: 20 of 51 labelled (case, code) pairs, measured on
# 2026-12-01 (09:34 UTC) with jax 0.10.2, before any rule was changed to fit the corpus; 53 of 54
# on 2026-12-01 after issue 13's static rules and case 043 (the miss: 013, a name imported as two
# modules); 55 of 56 after cases 044-045 and LB117's evidence of ragged lists and loop-sized arrays
# (044 found). Raise it when a rule improves; never lower it to make a change pass.
BASELINE_STATIC_RECALL_PY = 55 / 56
# Precision on the same run: every finding on the corpus was a labelled cause (77 of 77).
BASELINE_STATIC_PRECISION_PY = 0.9
# Findings per 100 files on the installed sources of flax, optax, orbax.checkpoint and
# jax.example_libraries (issue 13: at most 1; 0 of 565 files on 2026-12-01).
MAX_FP_PER_100_FILES = 1.0
# Findings on the fetched part, the 34 pinned libraries of `LIBRARY_WHEELS` (issue 25): 128 in 2270 files at
# first sight (2026-12-02), 45 once the rules asked where code runs; every one is listed and judged in
# docs/doctor.md ("Accuracy on real code"). Lower it when a rule improves; never raise it to make a change pass.
MAX_FETCHED_FINDINGS = 45

ESTABLISHED_BY = re.compile(r"(accepted answer|maintainer \S+.*|answer by \S.*)")


def _load_accuracy_module():
    spec = importlib.util.spec_from_file_location("doctor_accuracy", ROOT / "benchmarks" / "doctor_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy_module()
CASES = accuracy.load_corpus()


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
    first = case.path.read_text().splitlines()[: len(accuracy.HEADER_KEYS) + 1]
    assert [line.split(":")[0] for line in first[:-1]] == [f"# {k}" for k in accuracy.HEADER_KEYS], (
        f"{case.path.name}: the header must be exactly these lines, in order: {', '.join(accuracy.HEADER_KEYS)}")
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
    n_lines = len(case.path.read_text().splitlines())
    for code, numbers in case.lines.items():
        assert all(len(accuracy.HEADER_KEYS) + 1 < n <= n_lines for n in numbers), (
            f"{code} points at {sorted(numbers)}, outside the code (lines {len(accuracy.HEADER_KEYS) + 2}..{n_lines})")
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
    score, _ = accuracy.run_static(CASES, forms=("py",))["py"]
    assert score.recall >= BASELINE_STATIC_RECALL_PY - 1e-9, (
        f"static recall on the .py corpus fell to {score.recall:.3f} (baseline {BASELINE_STATIC_RECALL_PY:.3f}); "
        f"misses: {score.misses}")
    assert score.precision >= BASELINE_STATIC_PRECISION_PY, (
        f"static precision on the .py corpus fell to {score.precision:.3f}; false findings: {score.false}")


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
