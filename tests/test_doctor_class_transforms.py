"""A lifted jit of a class builds a class, not a compiled function (`Facts.jit_target`, `Facts.lifts_a_class`).

Flax linen's lifted ``nn.jit(MLP)`` gives back a Module class whose methods compile when the module is applied;
calling it (``nn.jit(MLP)(features=3)``) constructs a module and runs no JAX. `_kinds.FUNCTION_TRANSFORMS` holds the
jits (`_facts.JIT_TRANSFORMS`, ``flax.linen.jit`` among them), so before review23 that construction read as a first
call of a jitted function returning arrays: LB102 and LB103 (and LB104) on a timing of module construction.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

SOURCE = """
import time
import jax
import jax.numpy as jnp
{imports}


{define}


def build():
    t0 = time.perf_counter()
    model = {jit}({cls})(features=3)
    print(time.perf_counter() - t0)
    return model


if __name__ == "__main__":
    build()
"""
LOCAL_CLASS = """class MLP(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(x)"""


def codes(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


def build(imports="import flax.linen as nn", define=LOCAL_CLASS, jit="nn.jit", cls="MLP") -> str:
    return SOURCE.format(imports=imports, define=define, jit=jit, cls=cls)


def test_timing_the_construction_of_a_jitted_module_class_runs_no_jax():
    assert not codes(build())


def test_the_class_written_other_ways_is_read_alike():
    twins = [
        build(imports="from flax import linen as nn"),
        build(imports="import flax.linen as nn\nfrom flax.linen import jit as lift_jit", jit="lift_jit"),
        build(imports="import flax.linen as nn\nfrom models import MLP", define="", cls="MLP"),
        build(imports="import flax.linen as nn\nimport models", define="", cls="models.MLP"),
    ]
    for source in twins:
        assert not codes(source), source


def test_a_jit_of_a_function_is_still_a_compiled_function():
    """The same timing of ``jax.jit(f)(x)``, a function's first call, keeps its compile-in-timing finding."""
    source = """
    import time
    import jax
    import jax.numpy as jnp


    def f(x):
        return jnp.sin(x) @ x


    def run(x):
        t0 = time.perf_counter()
        y = jax.jit(f)(x).block_until_ready()
        print(time.perf_counter() - t0)
        return y


    if __name__ == "__main__":
        run(jnp.ones((4, 4)))
    """
    assert ("LB103", 13) in codes(source)


def test_a_jit_of_a_constructor_is_a_compiled_function():
    """Equinox builds a model under jit (``eqx.filter_jit(Model)(key)``): the constructor is traced and compiled, and
    the call returns the module's arrays. Only Flax linen's lifted jit gives back a class."""
    source = """
    import time
    import jax
    import equinox as eqx


    def build(key):
        t0 = time.perf_counter()
        model = {jit}(eqx.nn.MLP)(2, 2, 8, 2, key=key)
        print(time.perf_counter() - t0)
        return model


    if __name__ == "__main__":
        build(jax.random.PRNGKey(0))
    """
    for jit in ("eqx.filter_jit", "jax.jit"):
        assert ("LB103", 9) in codes(source.format(jit=jit)), jit
