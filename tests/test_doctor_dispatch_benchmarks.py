"""A benchmark of dispatch itself (Flax's `nnx_graph_overhead.py`, case 319).

- ``flax.nnx.jit_partial`` is a jit (`_facts.JIT_TRANSFORMS`): its result is a compiled function, not a transform run
  op by op (no LB114), and its first call compiles (LB103).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def codes(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


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
    for imports, jit_partial in (("from flax import nnx", "nnx.jit_partial"), ("import flax.nnx as fx", "fx.jit_partial"),
                                 ("from flax.nnx import jit_partial", "jit_partial")):
        found = codes(PARTIAL.format(imports=imports, jit_partial=jit_partial))
        assert ("LB103", 12) in found, imports
        assert "LB114" not in {c for c, _ in found}, imports
