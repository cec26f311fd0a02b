"""``doctor --run`` on a pytest test file: run under pytest, pytest-benchmark's ``benchmark`` fixture observed.

Each call of the fixture is an interval at the test's line, its rounds the samples (its calibration runs
kept out of the findings, as they are out of the statistics it reports).
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench import audit_script
from levelbench._rendering.script_audit import render_audit_text

pytest.importorskip("pytest_benchmark")
pytest.importorskip("jax")

TESTS = """\
    import jax
    import jax.numpy as jnp

    f = jax.jit(lambda a: (a @ a).sum())
    x = jnp.ones((300, 300))


    def test_unblocked(benchmark):
        benchmark(f, x)


    def test_blocked_warm(benchmark):
        f(x).block_until_ready()
        benchmark(lambda: f(x).block_until_ready())
"""


def test_the_benchmark_fixtures_rounds_are_the_intervals_of_a_test_file(tmp_path):
    path = tmp_path / "test_bench.py"
    path.write_text(textwrap.dedent(TESTS))
    audit = audit_script(path, output="captured", retime=False)
    assert audit.status == "finished", audit.traceback or audit.output
    unblocked, blocked = audit.intervals  # the fixture's own time.time() of its whole run is not one
    assert (unblocked.closing_line, blocked.closing_line) == (9, 14)
    assert unblocked.magic == blocked.magic == "benchmark" and unblocked.via_timeit
    assert [f.code for f in unblocked.findings] == ["LB102"]
    assert blocked.findings == ()
    # the calibration runs (the first holds the compile) are samples, but not in the figure the fixture reports
    assert len(unblocked.timed) < len(unblocked.samples) and any(s.cold for s in unblocked.samples)
    assert not any(s.cold for s in unblocked.timed)
    assert "test_bench.py:14  pytest-benchmark's fixture" in render_audit_text(audit)


def test_a_failing_test_file_is_reported_with_pytests_exit_status(tmp_path):
    path = tmp_path / "test_fails.py"
    path.write_text("def test_no():\n    assert 1 == 2\n")
    audit = audit_script(path, output="captured", retime=False)
    assert (audit.status, audit.exit_code, audit.partial) == ("exited", 1, True)
    assert "assert 1 == 2" in audit.output
