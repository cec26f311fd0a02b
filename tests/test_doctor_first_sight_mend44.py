"""What cases 497-511 showed at first sight, mended in the shared model (mend44).

- `Facts.alternative_defs`, read by `_effects.is_wait`: a helper defined once per branch of an ``if`` (``if backend
  == "jax": def sync_gpu(out): jax.block_until_ready(out)`` / ``elif backend == "torch": def sync_gpu(out):
  torch.cuda.synchronize()``) runs whichever def its branch bound; the JAX branch's waits for the JAX work, so a
  timed JAX call followed by the helper is waited (clip-jax's notebook, case 504's false LB102 x4). A helper whose
  every def waits for nothing still leaves the call unwaited.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 504: a waiting helper defined once per backend branch ----------------------------------------------------------
BRANCHED = """
import {clock_module}
import numpy as np

backend = "jax"

if backend == "jax":
    import jax
    import jax.numpy as jnp

    x = jnp.ones((256, 256))
    forward = jax.jit(lambda a: jnp.tanh(a @ a))

    def call_forward():
        return forward(x)

    def {sync}(output=None):
        if output is not None:
            {wait}
elif backend == "torch":
    import torch

    t = torch.ones((256, 256))

    def torch_forward():
        with torch.no_grad():
            return torch.tanh(t @ t)

    call_forward = torch_forward

    def {sync}(output=None):
        if torch.cuda.is_available():
            torch.cuda.synchronize()

for _ in range(3):
    call_forward()
latencies = []
for _ in range(20):
    t0 = {clock}
    out = call_forward()
    {sync}(out)
    latencies.append({clock} - t0)
print(np.mean(latencies))
"""


@pytest.mark.parametrize(
    ("clock_module", "clock", "sync", "wait"),
    [
        ("time", "time.perf_counter()", "sync_gpu", "jax.block_until_ready(output)"),  # as posted
        ("time", "time.monotonic()", "wait_device", "output.block_until_ready()"),  # another clock, a method
        ("timeit", "timeit.default_timer()", "sync", "jax.tree_util.tree_map(lambda a: a.block_until_ready(), output)"),
    ],
)
def test_a_waiting_helper_defined_per_backend_branch_waits_for_the_jax_call(clock_module, clock, sync, wait):
    source = BRANCHED.format(clock_module=clock_module, clock=clock, sync=sync, wait=wait)
    found = codes(source)
    assert not lines(found, "LB102"), found


def test_a_waiting_helper_defined_per_backend_branch_in_notebook_cells_waits():
    source = BRANCHED.format(clock_module="time", clock="time.perf_counter()", sync="sync_gpu",
                             wait="jax.block_until_ready(output)")
    head, _, tail = source.partition("for _ in range(3):")
    found = notebook_codes(head, "for _ in range(3):" + tail)
    assert "LB102" not in {c for c, _, _ in found}, found


def test_a_helper_that_waits_in_no_branch_still_leaves_the_call_unwaited():
    source = BRANCHED.format(clock_module="time", clock="time.perf_counter()", sync="sync_gpu",
                             wait="pass")
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "out = call_forward()")}, found
