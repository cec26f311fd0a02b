"""What cases 366-371 showed at first sight, mended in the shared model (mend32).

- `_regions.clock_read`: a clock reading scaled to a unit by a number (``time.time_ns() / 1000``,
  ``time.time() * 1e3``) is a reading of that clock; a pair of them times the code between them (case 366: LB105).
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source

from doctor_support import codes, lines, notebook_codes


# --- 366: a test-utilities helper timing each call with `time.time_ns() / 1000` ---------------------------------------
BENCHMARK_HELPER = """
{imports}
import jax

def benchmark(name, init_fn, fn, iter=100):
    state = init_fn(jax.random.PRNGKey(42))
    times = []
    for i in range(iter):
        t = {start}
        out = fn(state)
        out.block_until_ready()
        times.append(({end}) - t)
    return times
"""


@pytest.mark.parametrize(
    ("imports", "start", "end"),
    [
        ("import time", "time.time_ns() / 1000", "time.time_ns() / 1000"),
        ("import time", "time.time() * 1e3", "time.time() * 1e3"),
        ("import time", "1000 * time.time()", "1000 * time.time()"),
        ("import time as tm", "tm.time_ns() // 1_000_000", "tm.time_ns() // 1_000_000"),
        ("from time import time_ns as now_ns", "now_ns() / 1e3", "now_ns() / 1e3"),
    ],
)
def test_a_scaled_wall_clock_reading_times_the_pair(imports, start, end):
    assert lines(codes(BENCHMARK_HELPER.format(imports=imports, start=start, end=end)), "LB105") == {9}


def test_a_scaled_wall_clock_read_into_a_name_of_its_own():
    source = BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="t1").replace(
        "        times.append", "        t1 = time.time_ns() / 1000\n        times.append"
    )
    assert lines(codes(source), "LB105") == {9}


def test_a_scaled_steady_clock_reading_is_no_wall_clock():
    source = BENCHMARK_HELPER.format(
        imports="import time", start="time.perf_counter_ns() / 1000", end="time.perf_counter_ns() / 1000"
    )
    assert lines(codes(source), "LB105") == set()


def test_a_scaled_wall_clock_reading_in_a_notebook_helper_cell():
    cell = BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="time.time_ns() / 1000")
    use = "benchmark('step', lambda k: k, lambda s: s)"
    assert {(c, cell_, line) for c, cell_, line in notebook_codes(cell, use) if c == "LB105"} == {("LB105", 1, 8)}


def test_the_fix_of_a_scaled_wall_clock_keeps_the_scale():
    source = textwrap.dedent(
        BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="time.time_ns() / 1000")
    )
    (finding,) = [d for d in lint_source(source, "bench.py") if d.code == "LB105"]
    assert finding.fix is not None and len(finding.fix.edits) == 2
    assert {e.text for e in finding.fix.edits} == {"time.perf_counter_ns"}
