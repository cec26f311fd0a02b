"""A program that times a function eagerly beside its jitted version, and a jit the doctor knows by another name.

- The eager figure of a jit comparison (``%%timeit grad_function(x)`` beside ``%%timeit jitted_grad_function(x)``,
  ``jitted_grad_function = jax.jit(grad_function)``) is its baseline, what the timing sets out to show: no LB114
  for timing it un-jitted. A Python loop of eager calls is still LB114's (the dispatch per iteration is the loop's).
- brainstate's ``brainstate.transform.jit`` is a jit: the plain function it was given, called in a timed loop, runs
  op by op, whatever it calls inside (a library module's ``update()``, no JAX operation in sight).
- ``f.lower(x).compile()`` compiles what a later ``f(x)`` runs (jax 0.10.2 does not compile again): a warm-up of
  ``f`` for LB103, wherever the figure is printed.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def codes_at(source: str, notebook: bool = False) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py", notebook=notebook)}


COMPARISON = """
import jax
import jax.numpy as jnp

def loss(x):
    return ((x + 2) ** 2).mean()

grad_loss = jax.grad(loss)
x = jnp.arange(1000.0)
{jitted}
%timeit grad_loss(x).block_until_ready()
"""


def test_the_eager_half_of_a_jit_comparison_is_its_baseline():
    both = COMPARISON.format(jitted="jitted = jax.jit(grad_loss)\n_ = jitted(x)\n%timeit jitted(x).block_until_ready()")
    assert not {c for c, _ in codes_at(both)} & {"LB114"}
    alone = COMPARISON.format(jitted="")
    assert "LB114" in {c for c, _ in codes_at(alone)}  # no jitted figure beside it: an eager transform timed


def test_a_loop_of_eager_calls_beside_its_jitted_twin_is_still_op_by_op():
    source = """
    import time
    import jax
    import jax.numpy as jnp

    def step(x):
        return jnp.tanh(x) * 2.0 + 1.0

    step_jit = jax.jit(step)
    x = jnp.ones(64)
    _ = step_jit(x).block_until_ready()
    t0 = time.perf_counter()
    for i in range(300):
        x = step(x)
    x.block_until_ready()
    eager = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(300):
        x = step_jit(x)
    x.block_until_ready()
    print(eager, time.perf_counter() - t0)
    """
    assert ("LB114", 14) in codes_at(source)


def test_brainstates_jit_is_a_jit_and_its_plain_function_in_a_timed_loop_runs_op_by_op():
    source = """
    import time
    import jax
    import brainstate
    import brainmass

    node = brainmass.HopfStep(in_size=64)

    def step(i):
        node.update()
        return node.x.value

    step_jit = brainstate.transform.jit(step)
    t0 = time.perf_counter()
    for i in range(300):
        step(i)
    jax.block_until_ready(node.x.value)
    print(time.perf_counter() - t0)
    """
    assert ("LB114", 16) in codes_at(source)
    assert not {c for c, _ in codes_at(source.replace("step(i)\n    jax", "step_jit(i)\n    jax"))} & {"LB114"}


def test_a_parameter_named_like_the_jitted_function_is_its_callers_value():
    # jarp's bench (case 184): `def bench(fun): for _ in range(2000): fun()` warms up the callable it is handed
    source = """
    import timeit
    import jax

    def fun(inputs=None):
        return inputs

    def bench(fun):
        for _ in range(2000):
            fun()
        return timeit.Timer(fun).timeit(2000) / 2000

    fun_jax = jax.jit(fun)
    print(bench(lambda: jax.block_until_ready(fun_jax())))
    """
    assert not {c for c, _ in codes_at(source)} & {"LB114"}


def test_an_ahead_of_time_compile_warms_the_jitted_function_it_lowers():
    source = """
    import time
    import jax
    import jax.numpy as jnp

    @jax.jit
    def sort(x):
        return jnp.sort(x)

    x = jnp.arange(1000.0)[::-1]

    def run():
        global elapsed
        {warm}
        t0 = time.perf_counter()
        for i in range(10):
            jax.block_until_ready(sort(x))
        elapsed = time.perf_counter() - t0

    run()
    print(elapsed / 10)
    """
    assert "LB103" not in {c for c, _ in codes_at(source.format(warm="sort.lower(x).compile()"))}
    assert "LB103" in {c for c, _ in codes_at(source.format(warm="pass"))}


REPEATED = """
import time
import jax
import jax.numpy as jnp

def affine(v):
    return jnp.tanh(w @ v) + 1.0

w = jnp.ones((256, 256))
v = jnp.ones(256)
affine_fast = jax.jit(affine)
jax.block_until_ready(affine(v))
jax.block_until_ready(affine_fast(v))
t0 = time.perf_counter()
for _ in range(50):
    {eager}
eager = time.perf_counter() - t0
t0 = time.perf_counter()
for _ in range(50):
    jax.block_until_ready(affine_fast(v))
print(eager, time.perf_counter() - t0)
"""


def test_an_eager_function_repeated_pass_by_pass_beside_its_timed_jit_is_the_baseline():
    # m1-cpu-benchmarks (case 248): the same timed loop over the eager and the jitted version, each pass one
    # independent, waited call; the loop repeats the measurement as %timeit would
    assert not {c for c, _ in codes_at(REPEATED.format(eager="jax.block_until_ready(affine(v))"))} & {"LB114"}
    assert not {c for c, _ in codes_at(REPEATED.format(eager="affine(v).block_until_ready()"))} & {"LB114"}


def test_an_eager_function_mapped_over_a_batch_beside_its_timed_jit_is_the_baseline():
    source = """
    import time
    import jax
    import jax.numpy as jnp

    def affine(v):
        return jnp.tanh(w @ v) + 1.0

    w = jnp.ones((256, 256))
    vs = jnp.ones((100, 256))
    affine_fast = jax.jit(affine)

    def naive(batch):
        out = []
        for v in batch:
            out.append(affine(v))
        return jnp.stack(out)

    batched = jax.jit(jax.vmap(affine))
    naive(vs).block_until_ready()
    batched(vs).block_until_ready()
    affine_fast(vs[0]).block_until_ready()
    t0 = time.perf_counter()
    naive(vs).block_until_ready()
    t1 = time.perf_counter()
    affine_fast(vs[0]).block_until_ready()
    t2 = time.perf_counter()
    batched(vs).block_until_ready()
    print(t1 - t0, time.perf_counter() - t2)
    """
    assert not {c for c, _ in codes_at(source)} & {"LB114"}


def test_a_compared_eager_pass_that_hands_state_on_or_loops_itself_stays_op_by_op():
    # the rollout `x = affine(x)` hands each pass's value to the next
    carried = REPEATED.format(eager="v = affine(v)\n    v.block_until_ready()")
    assert ("LB114", 16) in codes_at(carried)
    # a function whose own Python loop dispatches op by op (case 196, the GRU seed), waited on each pass
    looping = REPEATED.replace(
        "return jnp.tanh(w @ v) + 1.0", "for _ in range(100):\n        v = jnp.tanh(w @ v)\n    return v"
    ).format(eager="jax.block_until_ready(affine(v))")
    assert "LB114" in {c for c, _ in codes_at(looping)}
    # a call whose value the pass drops runs for what it changes (case 239's `step_uncompiled(i)`)
    assert ("LB114", 16) in codes_at(REPEATED.format(eager="affine(v)"))


TRANSFORM_TIMED = """
import time
import timeit
import jax
import jax.numpy as jnp

def loss(w, x):
    return jnp.sum(jnp.tanh(x @ w) ** 2)

w = jnp.ones((64, 64))
x = jnp.ones((32, 64))
{timing}
"""


def test_an_eager_transform_timed_once_is_one_sample_not_repeated_dispatch():
    # jaxopt's benchmarks (cases 289-291): `J = jax.jacrev(f)(x)` between two clock reads, once; the figure is one
    # cold sample (LB104), not dispatch repeated in a loop
    once = [
        "t0 = time.time()\nJ = jax.jacrev(loss)(w, x)\nprint(time.time() - t0)",
        "start = time.perf_counter()\ng = jax.grad(loss)(w, x).block_until_ready()\nprint(time.perf_counter() - start)",
        "print(timeit.timeit(lambda: jax.vmap(loss, in_axes=(None, 0))(w, x), number=1))",
    ]
    for timing in once:
        assert "LB114" not in {c for c, _ in codes_at(TRANSFORM_TIMED.format(timing=timing))}, timing
    repeated = [
        "t0 = time.time()\nfor _ in range(100):\n    J = jax.jacrev(loss)(w, x)\nprint(time.time() - t0)",
        "print(timeit.timeit(lambda: jax.grad(loss)(w, x).block_until_ready(), number=100))",
        "%timeit jax.vmap(loss, in_axes=(None, 0))(w, x).block_until_ready()",
        "for _ in range(5):\n    t0 = time.time()\n    J = jax.jacrev(loss)(w, x)\n    print(time.time() - t0)",
    ]
    for timing in repeated:
        assert "LB114" in {c for c, _ in codes_at(TRANSFORM_TIMED.format(timing=timing))}, timing


TWINS = """
import jax
import jax.numpy as jnp

@jax.jit
def step(w, x):
    return w - 0.1 * jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))(w)

def epoch(w, batches):
    for x in batches:
        w = step(w, x)
        loss = jnp.sum(w ** 2)
    return w

def step_eager(w, x):
    return w - 0.1 * jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))(w)

def epoch_eager(w, batches):
    for x in batches:
        w = {eager_step}(w, x)
        loss = jnp.sum(w ** 2)
    return w

w = jnp.ones((64, 64))
batches = [jnp.ones((32, 64)) for _ in range(20)]
{timings}
"""


def test_an_eager_copy_timed_beside_its_jitted_twin_is_the_baseline():
    # the Flax speed-test notebook (case 279): `train_model_no_jit` -> `train_epoch_no_jit` -> `apply_model_no_jit`
    # written line for line beside the jitted chain, both epochs timed with `%timeit -o`
    both = "%timeit -o epoch(w, batches).block_until_ready()\n%timeit -o epoch_eager(w, batches).block_until_ready()"
    assert "LB114" not in {c for c, _ in codes_at(TWINS.format(eager_step="step_eager", timings=both))}
    clocks = (
        "import time\nfor f in (epoch, epoch_eager):\n    t0 = time.perf_counter()\n"
        "    f(w, batches).block_until_ready()\n    print(time.perf_counter() - t0)"
    )
    paired = "import time\n" + "\n".join(
        f"t0 = time.perf_counter()\nfor _ in range(5):\n    {f}(w, batches).block_until_ready()\n"
        "print(time.perf_counter() - t0)" for f in ("epoch", "epoch_eager"))
    for timings in (clocks, paired):
        assert "LB114" not in {c for c, _ in codes_at(TWINS.format(eager_step="step_eager", timings=timings))}
    # the twin is not timed: the eager epoch alone is op by op
    alone = "%timeit -o epoch_eager(w, batches).block_until_ready()"
    assert "LB114" in {c for c, _ in codes_at(TWINS.format(eager_step="step_eager", timings=alone))}
    # a copy whose loop differs from its twin's (an extra operation per pass) is not the same code run without jit
    other = TWINS.replace("        w = {eager_step}(w, x)\n        loss = jnp.sum(w ** 2)",
                          "        w = {eager_step}(w, x)\n        loss = jnp.sum(w ** 3)")
    assert "LB114" in {c for c, _ in codes_at(other.format(eager_step="step_eager", timings=both))}
