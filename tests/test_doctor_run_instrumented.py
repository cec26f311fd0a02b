"""What ``doctor --run``'s instrumentation did in a run, counted (`ScriptAudit.instrumented`): the counts the
overhead benchmark multiplies by unit costs (benchmarks/doctor_run_overhead.py), and the records' shape that
keeps the garbage collector off them."""

from __future__ import annotations

import gc
import textwrap

import pytest

from levelbench import audit_script
from levelbench._auditing._observer import Observer

SCRIPT = """\
    import time
    import jax, jax.numpy as jnp
    x = jnp.ones(8)
    t0 = time.perf_counter()
    for _ in range(30):
        jnp.sin(x)
    print(time.perf_counter() - t0)
"""


def test_the_instrumentation_counts_what_it_did(tmp_path):
    pytest.importorskip("jax")
    path = tmp_path / "counted.py"
    path.write_text(textwrap.dedent(SCRIPT))
    audit = audit_script(path, output="captured", retime=False)
    counted = audit.instrumented
    assert counted["clock_reads"] == 2 and counted["pending_checks"] == 2  # jax imported before both reads
    assert counted["dispatches"] >= 31  # jnp.ones and the 30 jnp.sin calls, each through a counting wrapper
    assert counted["compile_events"] >= 2 and counted["module_calls"] == 0
    assert audit.to_dict()["instrumented"] == counted
    # the fair re-timing after the script (thousands of calls of jnp.sin) is not the script's run: not counted
    path.write_text(textwrap.dedent(SCRIPT).replace("for _ in range(30):\n    jnp.sin(x)", "y = jnp.sin(x)"))
    retimed = audit_script(path, output="captured")
    assert retimed.intervals[0].fair is not None and retimed.intervals[0].fair.samples > 1
    assert retimed.instrumented["dispatches"] <= 3  # jnp.ones, jnp.sin: not the re-timing's calls


def test_a_read_is_recorded_as_plain_values_the_garbage_collector_stops_tracking():
    observer = Observer("script.py")
    index = observer.read(3, "perf_counter", False, 1.5)
    gc.collect()
    assert not gc.is_tracked(observer.reads[index])  # a million tracked records would slow every collection
    assert observer.to_json()["reads"][index][1:4] == [3, "perf_counter", False]
