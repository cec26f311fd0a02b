"""Arrays of another rank compile again (`_warmth.Warmth._rank`, case 322's LB104:82).

jit (and each eager operation) compiles once per argument shape, so a call on arrays whose number of dimensions
visibly differs from every earlier call's is a cold one, even where no shape is spelled out. QuantEcon's `jax_intro`
runs the jitted ``f(x[i], y[j])`` on scalars in a double loop over ``range(n)`` and ``f(x, y)`` on the 1-d
``jnp.linspace`` arrays, then times ``f(x_mesh, y_mesh)`` on ``jnp.meshgrid``'s 2-d results twice: the first timing is
a compile timed on purpose before the warm repeat, so no LB104 there; the repeat stays a single warm sample.
The ranks read: 1 for ``linspace``/``arange``, ``len(shape)`` for ``jnp.ones(shape)``, one less for ``x[i]`` with an
integer or a ``range`` loop's variable, and one per array given for each of ``jnp.meshgrid``'s results.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

HEADER = """
import time
import jax
import jax.numpy as jnp
import numpy as np
"""


def lb104(source: str) -> list[int]:
    text = textwrap.dedent(source)
    return sorted(d.location.line for d in lint_source(text, "grid.py") if d.code == "LB104")


def _lines_of(source: str, text: str) -> list[int]:
    return [i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]


def test_a_meshgrid_after_scalars_from_a_range_loop_is_timed_cold_then_warm():
    source = HEADER + """
@jax.jit
def g(a, b):
    return jnp.cos(a * b)

k = 64
a = jnp.arange(k)
b = jnp.arange(k)
out = np.empty((k, k))
for r in range(k):
    for c in range(k):
        out[r, c] = g(a[r], b[c])

ga, gb = jnp.meshgrid(a, b)
start = time.perf_counter()
g(ga, gb).block_until_ready()
print("first", time.perf_counter() - start)
start = time.perf_counter()
g(ga, gb).block_until_ready()
print("again", time.perf_counter() - start)
"""
    calls = _lines_of(source, "g(ga, gb).block_until_ready()")
    assert lb104(source) == [calls[1]]  # on c3db5ba also calls[0]: the scalar runs read as a warm-up


def test_an_eager_function_on_a_three_way_grid_after_vectors():
    source = HEADER + """
def energy(p, q, s):
    return jnp.sum(p * q + s)

p = jnp.linspace(0.0, 1.0, 20)
energy(p, p, p)
P, Q, S = jnp.meshgrid(p, p, p, indexing="ij")
t = time.time()
energy(P, Q, S).block_until_ready()
print(time.time() - t)
t = time.time()
energy(P, Q, S).block_until_ready()
print(time.time() - t)
"""
    calls = _lines_of(source, "energy(P, Q, S).block_until_ready()")
    assert lb104(source) == [calls[1]]


def test_the_same_rank_is_warm_already():
    source = HEADER + """
@jax.jit
def g(a, b):
    return jnp.cos(a * b)

a = jnp.arange(64)
ga, gb = jnp.meshgrid(a, a)
g(ga, gb).block_until_ready()
ha, hb = jnp.meshgrid(a, a)
start = time.perf_counter()
g(ha, hb).block_until_ready()
print(time.perf_counter() - start)
"""
    assert lb104(source) == _lines_of(source, "g(ha, hb).block_until_ready()")  # one warm sample


def test_an_index_that_is_not_an_integer_says_nothing_of_the_rank():
    source = HEADER + """
@jax.jit
def g(a):
    return jnp.cos(a)

a = jnp.arange(64)
mask = a > 3
for r in range(4):
    g(a[mask])
ga, gb = jnp.meshgrid(a, a)
start = time.perf_counter()
g(a[1:])
print(time.perf_counter() - start)
"""
    # `a[1:]` and `a[mask]` are slices of unknown shape: unknown counts as warmed, one warm sample
    assert lb104(source) == _lines_of(source, "g(a[1:])")
