"""A benchmark of dispatch itself: jitted steps that compute nothing (Flax's `nnx_graph_overhead.py`, case 319).

- `_effects.computes_nothing`: a jitted def whose body is ``pass`` or returns its own parameters queues no device
  work, so its timed call has nothing to wait for: no LB102 (case 095's reading of a dispatch benchmark). The first
  call inside the timed loop still compiles (LB103).
- ``flax.nnx.jit_partial`` is a jit (`_facts.JIT_TRANSFORMS`): its result is a compiled function, not a transform run
  op by op (no LB114), and its first call compiles (LB103).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def codes(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


STEP = """
import time
import jax
import jax.numpy as jnp

{define}

def main(total_steps):
    graphdef, state = jnp.ones(3), jnp.ones(3)
    t0 = {clock}()
    for _ in range(total_steps):
        {call}
    print(({clock}() - t0) / total_steps)

main(100)
"""

EMPTY_BODIES = {
    "pass": "def step(graphdef, state):\n    pass",
    "identity": "def step(graphdef, state):\n    return graphdef, state",
    "none": 'def step(graphdef, state):\n    """Nothing: the overhead alone."""\n    return None',
}


def _step(body: str, how: str, clock: str, call: str) -> str:
    define = f"@jax.jit\n{body}" if how == "decorated" else f"{body}\nstep_jit = jax.jit(step)"
    callee = "step" if how == "decorated" else "step_jit"
    return STEP.format(define=define, clock=clock, call=call.format(callee=callee))


def test_a_jitted_step_that_computes_nothing_has_nothing_to_wait_for():
    for name, body in EMPTY_BODIES.items():
        for how in ("decorated", "assigned"):
            for clock in ("time.time", "time.perf_counter"):
                for call in ("{callee}(graphdef, state)", "graphdef, state = {callee}(graphdef, state)"):
                    found = codes(_step(body, how, clock, call))
                    assert not {c for c, _ in found} & {"LB102"}, (name, how, clock, call)
                    assert "LB103" in {c for c, _ in found}, (name, how, clock, call)  # the compile in the loop


def test_a_jitted_step_that_computes_is_still_left_pending():
    body = "def step(graphdef, state):\n    return graphdef + 1, state"
    for how in ("decorated", "assigned"):
        found = codes(_step(body, how, "time.perf_counter", "graphdef, state = {callee}(graphdef, state)"))
        assert "LB102" in {c for c, _ in found}, how


PARTIAL = """
import time
{imports}

def main(model, optimizer, total_steps):
    def step_partial(model, optimizer):
        pass

    step_partial_jit = {jit_partial}(step_partial, model, optimizer, graph=False)
    t0 = time.time()
    for _ in range(total_steps):
        step_partial_jit()
    print(time.time() - t0)

main(None, None, 100)
"""


def test_nnx_jit_partial_is_a_jit():
    for imports, jit_partial in (("from flax import nnx", "nnx.jit_partial"),
                                 ("import flax.nnx as fx", "fx.jit_partial"),
                                 ("from flax.nnx import jit_partial", "jit_partial")):
        found = codes(PARTIAL.format(imports=imports, jit_partial=jit_partial))
        assert ("LB103", 12) in found, imports
        assert not {c for c, _ in found} & {"LB114", "LB102"}, imports


SETUP = """
import timeit
import jax
import jax.numpy as jnp
from jax import random

def sample_indices(key, num_rows, num_cols):
    indices = []
    for i, k in zip(range(num_rows), random.split(key, num_rows)):
        row = jnp.sort(random.permutation(k, jnp.arange(num_cols))[:4])
        indices.append(row + i)
    {assemble}
    return indices

x = sample_indices(random.PRNGKey(0), 128, 64)
matmul = jax.jit(jnp.matmul)
matmul(x, x.T).block_until_ready()
{timing}
"""

TIMING = "print(timeit.timeit(lambda: matmul(x, x.T).block_until_ready(), number=100))"


def _lb114(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB114"}


def test_an_input_assembled_once_outside_the_timing_is_set_up():
    """jax-triton's blocksparse benchmark (case 324): the rows built in a loop become one array right after; the
    file times the matmuls, not this."""
    for assemble in ("indices = jnp.array(indices)", "indices = jnp.stack(indices)", "return jnp.asarray(indices)"):
        assert not _lb114(SETUP.format(assemble=assemble, timing=TIMING)), assemble


def test_an_input_assembled_in_a_branch_or_a_finally_block_is_set_up_too():
    """The statements after the loop are read in whatever block holds it: an ``else:`` branch, a ``finally:``."""
    built = """    for i, k in zip(range(num_rows), random.split(key, num_rows)):
        row = jnp.sort(random.permutation(k, jnp.arange(num_cols))[:4])
        indices.append(row + i)
    {assemble}"""
    for opening in ("if num_rows < 0:\n        pass\n    else:", "try:\n        pass\n    finally:"):
        nested = "\n".join("    " + line if line else line for line in built.splitlines())
        source = SETUP.replace(built, f"    {opening}\n{nested}")
        assert source != SETUP, opening
        assembled = source.format(assemble="indices = jnp.array(indices)", timing=TIMING)
        assert not _lb114(assembled), opening
        assert _lb114(source.format(assemble="indices = indices[0]", timing=TIMING)), opening  # not built: reported


def test_the_same_loop_is_reported_when_nothing_is_timed_or_nothing_is_assembled():
    assert _lb114(SETUP.format(assemble="indices = jnp.array(indices)", timing="")) == {9}  # no benchmark here
    assert _lb114(SETUP.format(assemble="indices = indices[0]", timing=TIMING)) == {9}  # not built into one array
