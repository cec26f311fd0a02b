"""``doctor --run`` at torch's calls and NumPy's BLAS: grad mode and training mode of the modules a timed
interval called (LB112, LB281), and the BLAS thread settings the script ran with.

The analysis alone on made-up module calls, then a real torch script run as written.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench import audit_script
from levelbench._auditing._analysis import intervals
from levelbench._auditing._torch import BACKWARD
from levelbench._rendering.script_audit import render_audit_text


def codes(interval) -> list[str]:
    return [f.code for f in interval.findings]


def _read(ref_s: float, line: int) -> list:
    return [int(ref_s * 1e9), line, "perf_counter", False, 0.0, 0, None, ref_s]


def _audited(calls: list[tuple[float, str, bool, bool, bool]]):
    """One interval from 1 s to 2 s around ``calls`` (reference seconds, module, grad, training, changes)."""
    raw = {"reads": [_read(1.0, 2), _read(2.0, 4)], "pairs": [[0, 1]], "events": [],
           "torch_calls": [[int(t * 1e9), name, grad, training, changes] for t, name, grad, training, changes in calls]}
    (interval,) = intervals(raw, "import time\nt0 = time.perf_counter()\ny = net(x)\ndt = time.perf_counter() - t0\n")
    return interval


def test_module_calls_inside_the_interval_are_counted_with_their_modes():
    interval = _audited([(0.5, "Net", True, True, True), (1.2, "Net", True, True, True), (1.4, "Net", True, False, False),
                         (1.6, "Head", False, False, False), (2.5, "Net", True, True, True)])
    (sample,) = interval.samples
    assert (sample.module_calls, sample.module_calls_grad, sample.module_calls_training) == (3, 2, 1)
    assert (sample.backward_calls, sample.module) == (0, "Net")


@pytest.mark.parametrize("calls, expected", [
    ([(1.5, "Net", True, False, False)], ["LB104", "LB112"]),  # inference with autograd on
    ([(1.5, "Net", False, True, True)], ["LB104", "LB281"]),  # training mode where dropout changes the computation
    ([(1.5, "Net", True, True, True)], ["LB104", "LB112", "LB281"]),
    ([(1.5, "Net", False, True, False)], ["LB104"]),  # training mode that computes the same: nothing to say
    ([(1.5, "Net", False, False, False)], ["LB104"]),  # eval, no grad: the fair inference
    ([(1.3, "Net", True, True, True), (1.5, BACKWARD, False, False, False)], ["LB104"]),  # a training step
])
def test_inference_with_autograd_on_is_lb112_and_training_mode_lb281_but_a_training_step_is_neither(calls, expected):
    assert codes(_audited(calls)) == expected


TORCH_SCRIPT = """\
    import time
    import torch

    net = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Dropout(0.5), torch.nn.Linear(64, 8))
    x = torch.ones(32, 64)

    t0 = time.perf_counter()
    for _ in range(20):
        y = net(x)
    print("as built", time.perf_counter() - t0)

    net.eval()
    with torch.inference_mode():
        t0 = time.perf_counter()
        for _ in range(20):
            y = net(x)
        print("inference", time.perf_counter() - t0)

    net.train()
    t0 = time.perf_counter()
    for _ in range(5):
        net(x).sum().backward()
    print("training steps", time.perf_counter() - t0)
"""


def test_a_torch_script_is_seen_at_the_call_and_its_blas_threads_recorded(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    script = tmp_path / "torch_bench.py"
    script.write_text(textwrap.dedent(TORCH_SCRIPT))
    audit = audit_script(script, output="captured", retime=False)
    assert audit.status == "finished", audit.traceback
    as_built, inference, training = audit.intervals
    assert codes(as_built) == ["LB112", "LB281"]
    assert as_built.samples[0].module_calls == 20 and as_built.samples[0].module == "Sequential"  # not its layers
    assert codes(inference) == [] and inference.samples[0].module_calls_grad == 0
    assert codes(training) == [] and training.samples[0].backward_calls == 5
    threads = audit.threads
    assert threads is not None and ("OPENBLAS_NUM_THREADS", "1") in threads.env
    if threads.read_by == "threadpoolctl":
        assert ("openblas", 1) in threads.pools
    text = render_audit_text(audit)
    assert "torch: 20 calls of `Sequential` (autograd on, training mode (dropout or batch norm))" in text
    assert "BLAS threads at the script's end: " in text and "OPENBLAS_NUM_THREADS=1" in text
