"""`levelbench run`'s default output is the table and a few lines; nothing it leaves out is missing from
``-v``, the JSON or the HTML report."""

from __future__ import annotations

import dataclasses
import html
import json
import re

import pytest
from test_store_fakes import ENV, comparison, record

from levelbench import Finding, Severity
from levelbench._rendering.comparison import render_comparison
from levelbench._results.comparison import Isolation
from levelbench._results.workload import WorkloadResult
from levelbench._values.catalogue import CATALOGUE
from levelbench._values.catalogue.conclusion import CHANGES_CONCLUSION, changes_conclusion
from levelbench._values.display import plain
from levelbench.store import open_store

NAMES = {"numpy dot": ("numpy", 2e-3), "jax jit": ("jax", 1e-3), "jax loop": ("jax", 5e-3), "torch mm": ("torch", 2e-3)}
ENV_LOADED = {**ENV, "load_average": {"start": [3.94, 3.5, 3.2], "end": [4.21, 3.6, 3.3]}}


def noisy(name: str, pct: int) -> Finding:
    return Finding("LB003", f"noisy measurement: IQR is {pct}% of the median", Severity.WARNING,
                   evidence=f"median 2 ms, IQR {pct / 50:.2f} ms over 25 samples",
                   cost="differences smaller than the noise cannot be trusted", fix="close other programs")


FINDINGS = (
    Finding("LB304", "different work: 1 GFLOP per call, numpy dot does 2 (0.50x)", Severity.WARNING,
            evidence="FLOP counts per call differ by more than 10%", cost="a time ratio says little",
            fix="compare GFLOP/s instead", subject="torch mm"),
    Finding("LB201", "a Python loop over xs is unrolled: 61 jaxpr equations per step", Severity.WARNING,
            evidence="equations at 4/8/16 steps: 247/491/979", cost="~3.3 s to compile at 50 steps",
            fix="carry, ys = jax.lax.scan(step, carry, xs)", subject="jax loop"),
    Finding("LB222", "2 matmuls never reach an output", Severity.WARNING, evidence="dot_general at eqn 3",
            fix="return what you compute", subject="jax loop"),
    Finding("LB240", "jax loop runs op by op: 459 dispatches per call", Severity.WARNING,
            evidence="155 ms per call = 459 dispatches x 337 us", cost="154 ms per call", fix="jax.jit(f)",
            subject="jax loop"),
    Finding("LB005", "the first call took 133x the steady state; 96% of it was compilation", Severity.INFO,
            evidence="cold start 878 ms (compile 846 ms)", fix="f(x).block_until_ready()", subject="jax jit"),
    Finding("LB301", "the inputs differ: x is float32 here, float64 in numpy dot", Severity.ERROR,
            evidence="x: (1000, 1000) float32 vs float64", fix="use the same dtype", subject=""),
)


@pytest.fixture
def loaded_comparison():
    c = comparison(NAMES, title="matmul", params={"n": 1000}, spread=0.3, environment=ENV_LOADED)
    ms = {n: dataclasses.replace(m, findings=(noisy(n, 20 + 10 * i),)) for i, (n, m) in enumerate(c.measurements.items())}
    isolation = Isolation(mode="workers", grouping="framework", workers={"numpy dot": 0, "jax jit": 1, "jax loop": 1,
                                                                         "torch mm": 2},
                          spin={"numpy dot": 0.113}, wake_up={"jax jit": 0.21})
    return dataclasses.replace(c, measurements=ms, findings=FINDINGS, isolation=isolation, target_reached=False)


def below_table(text: str) -> list[str]:
    return [line for line in text[text.rindex("┘") + 1:].splitlines() if line.strip()]


def test_brief_is_one_line_per_candidate_that_changes_the_conclusion_one_noise_line_and_one_pointer(loaded_comparison):
    brief = plain(render_comparison(loaded_comparison, verbose=False), 160)
    how, *lines = below_table(brief)
    assert how == "timed in 3 worker processes (one per framework), interleaved in 40 rounds (-v: what was waited for)"
    assert len(lines) == 5, lines
    assert lines[0].startswith("jax loop: LB201 a Python loop over xs is unrolled") and "; LB222 2 matmuls" in lines[0]
    assert lines[1].startswith("torch mm: LB304 different work")  # in the table's order
    assert lines[2].startswith("LB301 the inputs differ")  # a comparison-wide finding, still one line
    assert re.fullmatch(r"noisy: 4 of 4 candidates \(IQR \d+-\d+% of the median\), load average 3.9 -> 4.2 on 2 cores; "
                        r"CIs wider than \+-2%: close other programs or raise --budget", lines[3]), lines[3]
    assert lines[4] == "also found: LB240 op by op, LB005 cold start; -v shows each with its evidence and fix"
    assert "evidence:" not in brief and "fix:" not in brief and "waited for helper threads" not in brief


def test_nothing_the_brief_output_drops_is_missing_from_verbose_json_or_html(loaded_comparison, tmp_path):
    from levelbench.report import html_report

    c = loaded_comparison
    every = [*c.findings, *(f for m in c.measurements.values() for f in m.findings)]
    full = plain(render_comparison(c, verbose=True), 160)
    doc = json.dumps(WorkloadResult("matmul", {"n": 1000}, "ok", c).to_dict())
    with open_store(tmp_path / "r.db") as s:
        page = html_report(s.run(record(s, [WorkloadResult("matmul", {"n": 1000}, "ok", c)])))
    for f in every:
        for text in (f.code, f.title, f.evidence, f.fix):
            assert text in full, text
            assert json.dumps(text)[1:-1] in doc, text
            assert html.escape(text) in page, text
    for said in ("timed in 3 worker processes (one per framework)", "not every ratio's CI reached +-2%"):
        assert said in full and html.escape(said) in page
    assert '"isolation"' in doc and '"target_reached": false' in doc
    assert '"load_average"' in doc


def test_a_quiet_comparison_adds_nothing_under_its_table():
    c = comparison({"a": ("numpy", 1e-3), "b": ("numpy", 2e-3)}, spread=0.01)
    c = dataclasses.replace(c, target_reached=True)
    assert below_table(plain(render_comparison(c, verbose=False), 160)) == []


def test_the_codes_that_change_the_conclusion_exist_and_errors_always_do():
    assert CHANGES_CONCLUSION <= set(CATALOGUE)
    assert changes_conclusion(Finding("LB299", "x", Severity.ERROR))
    assert not changes_conclusion(Finding("LB005", "x", Severity.INFO))
    assert not changes_conclusion(Finding("LB003", "x", Severity.WARNING))
