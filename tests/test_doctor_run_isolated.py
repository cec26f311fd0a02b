"""``doctor --run``'s fair ratio from isolated workers: what goes to a worker, what cannot, and the report.

The pieces alone (shipping an interval's statements and values, reading the child's answers back, the ratio
in the report), then a real run where one side cannot go to another process and the report says why.
"""

from __future__ import annotations

import ast
import math
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest

from levelbench import audit_script
from levelbench._auditing._analysis import isolated_ratios
from levelbench._auditing._isolated import _ship, candidate
from levelbench._rendering.script_audit import render_audit_text
from levelbench._results.script_audit import FairFigure, IsolatedRatio, Sample, ScriptAudit, TimedInterval

SCRIPT = """\
import time
import numpy as np
t0 = time.perf_counter()
y = np.dot(a, b) + k
dt = time.perf_counter() - t0
"""


def test_an_interval_shipped_to_a_worker_computes_what_it_computed_in_the_script(tmp_path):
    a, b = np.arange(6.0).reshape(2, 3), np.ones((3, 2))
    path = str(tmp_path / "shipped.pickle")
    assert _ship(ast.parse(SCRIPT), 3, 5, {"np": np, "a": a, "b": b, "k": 2.0, "time": None}, path) == ""
    (y,) = candidate(path)()  # what a worker builds: the statements over the script's values, modules re-imported
    np.testing.assert_array_equal(y, np.dot(a, b) + 2.0)


@pytest.mark.parametrize("value, why", [
    (threading.Lock(), "cannot be sent to another process (TypeError"),
    (type("Made", (), {"__module__": "__main__"})(), "defined in the script, which another process cannot"),
])
def test_what_another_process_cannot_get_is_refused_with_the_reason(tmp_path, value, why):
    path = tmp_path / "shipped.pickle"
    names = {"np": np, "a": value, "b": 1, "k": 2}
    assert why in _ship(ast.parse(SCRIPT), 3, 5, names, str(path))
    assert not path.exists()


def test_a_function_defined_in_the_script_is_refused_by_name(tmp_path):
    def kernel(x):
        return x

    kernel.__module__ = "__main__"
    source = SCRIPT.replace("np.dot(a, b) + k", "kernel(a)")
    why = _ship(ast.parse(source), 3, 5, {"kernel": kernel, "a": 1}, str(tmp_path / "p.pickle"))
    assert why.startswith("`kernel` is a function defined in the script")


def test_a_statement_that_cannot_be_re_run_is_refused_as_the_fair_figure_is():
    why = _ship(ast.parse(SCRIPT.replace("y = np.dot(a, b) + k", "out.append(a)")), 3, 5, {}, "unused")
    assert why == "line 4 calls `append`: re-running it would repeat its effect"


def test_the_childs_answers_become_isolated_ratios_joined_to_the_framework_pair():
    raw = {"isolated": [{"first": "1:3", "second": "5:7", "frameworks": ["jax", "numpy"], "ratio": 2.2,
                         "low": 2.0, "high": 2.4, "rounds": 12},
                        {"first": "1:3", "second": "9:11", "refused": "lines 9-11 cannot run in a worker: why"}]}
    measured, refused = isolated_ratios(raw)
    assert measured == IsolatedRatio((1, 3), (5, 7), 2.2, 2.0, 2.4, 12)
    assert refused.note == "lines 9-11 cannot run in a worker: why" and math.isnan(refused.ratio)

    def timed(line: int, measured: float, fair: float, framework: str) -> TimedInterval:
        return TimedInterval(line, line + 2, "time", (Sample(measured),), fair=FairFigure(fair, fair, fair, 5, framework))

    audit = ScriptAudit("s.py", (), "finished", 0, 1.0, intervals=(
        timed(1, 2.0, 0.5, "jax"), timed(5, 0.1, 0.2, "numpy"), timed(9, 1.0, 1.0, "torch")), isolated=(measured, refused))
    jax_numpy, jax_torch, numpy_torch = audit.ratios
    assert jax_numpy.isolated == measured and jax_numpy.to_dict()["isolated"] == {
        "ratio": 2.2, "low": 2.0, "high": 2.4, "rounds": 12}
    assert jax_torch.isolated is None and jax_torch.isolated_note == "lines 9-11 cannot run in a worker: why"
    assert numpy_torch.isolated is None and numpy_torch.isolated_note == "not measured in isolated workers"
    text = render_audit_text(audit)
    assert "isolated workers            2.2x [2x, 2.4x]" in text
    assert "isolated workers            not measured: lines 9-11 cannot run in a worker: why" in text


def test_a_comparison_whose_one_side_reads_a_script_function_says_why_it_was_not_isolated(tmp_path):
    pytest.importorskip("jax")
    script = tmp_path / "two.py"
    script.write_text(textwrap.dedent("""\
        import time
        import numpy as np
        import jax.numpy as jnp

        def numpy_side(a):
            return a @ a

        a = np.ones((64, 64), np.float32)
        x = jnp.asarray(a)
        t0 = time.perf_counter()
        y = (x @ x).block_until_ready()
        print("jax", time.perf_counter() - t0)
        t0 = time.perf_counter()
        z = numpy_side(a)
        print("numpy", time.perf_counter() - t0)
    """))
    audit = audit_script(script, output="captured")
    (ratio,) = audit.ratios
    assert (ratio.first, ratio.second, ratio.isolated) == ("jax", "numpy", None)
    assert ratio.isolated_note.startswith("lines 13-15 cannot run in a worker process: `numpy_side` is a function "
                                          "defined in the script")


def test_when_one_side_could_not_be_re_timed_the_report_says_there_is_no_ratio_and_why():
    re_timed = TimedInterval(1, 3, "time", (Sample(1.0),), fair=FairFigure(0.5, 0.4, 0.6, 5, "jax"))
    left = TimedInterval(5, 7, "time", (Sample(1.0),), fair_note="not re-timed: line 6 calls `print`: ...")
    text = render_audit_text(ScriptAudit("s.py", (), "finished", 0, 1.0, intervals=(re_timed, left)))
    assert ("no fair ratio between frameworks: only lines 1-3 (jax) could be re-timed; lines 5-7: not re-timed: "
            "line 6 calls `print`") in text
