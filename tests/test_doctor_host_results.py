"""Results the host takes on the spot, read as waited for by LB102 (cases 311, 322 and 326).

- `_effects.stored_to_host`: a JAX value stored into an element of a NumPy array (``z_loops[i, j] = f(x[i], y[j])``)
  is copied to the host there and then, which waits for it, as ``float(...)`` does.
- `_effects._handed_on`: a JAX value a timed function hands to a call the model cannot read (a project's own
  ``generate(..., key=subkey)``, imported) is consumed by that call; whether that call's result is pending is not
  known, so the function is not read as dispatching work it leaves unwaited.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def lb102(source: str, path: str = "bench.py") -> set[int]:
    return {d.location.line for d in lint_source(textwrap.dedent(source), path) if d.code == "LB102"}


DOUBLE_LOOP = """
import time
import jax
import jax.numpy as jnp
import numpy as {np}

@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x
z_loops = {np}.{maker}((n, n))
start = {clock}()
for i in range(n):
    for j in range(n):
        {store} = f(x[i], y[j])
print({clock}() - start)
"""


def test_a_result_stored_into_a_numpy_array_is_copied_to_the_host_and_waited_for():
    for np_name, maker, clock in (("np", "empty", "time.perf_counter"), ("onp", "zeros", "time.time"),
                                  ("numpy", "ones", "time.monotonic")):
        source = DOUBLE_LOOP.format(np=np_name, maker=maker, clock=clock, store="z_loops[i, j]")
        assert not lb102(source), (np_name, clock)


def test_a_result_kept_on_the_device_is_still_left_pending():
    kept = DOUBLE_LOOP.format(np="np", maker="empty", clock="time.perf_counter", store="last")
    assert lb102(kept) == {18}
    listed = DOUBLE_LOOP.format(np="np", maker="empty", clock="time.perf_counter", store="z_loops").replace(
        "z_loops = np.empty((n, n))", "z_loops = jnp.zeros((n, n))")
    assert lb102(listed) == {18}  # a JAX array rebound, not a NumPy element written


def test_a_cell_magic_and_a_timer_context_read_the_store_the_same_way():
    magic = """
    import jax
    import jax.numpy as jnp
    import numpy as np
    # %%
    @jax.jit
    def f(x, y):
        return x * y
    x = jnp.linspace(-2, 2, 80)
    z = np.empty((80, 80))
    # %%
    %%time
    for i in range(80):
        for j in range(80):
            z[i, j] = f(x[i], x[j])
    """
    assert not lb102(magic, "lecture.py")
    timer = """
    import jax
    import jax.numpy as jnp
    import numpy as np
    import quantecon as qe

    @jax.jit
    def f(x, y):
        return x * y

    x = jnp.linspace(-2, 2, 80)
    z = np.empty((80, 80))
    with qe.Timer():
        for i in range(80):
            for j in range(80):
                z[i, j] = f(x[i], x[j])
    """
    assert not lb102(timer)


GENERATE = """
import timeit
import jax
import jax.random as rand
from lib.generation import generate

def generate_jax(params, tokenizer, key):
    sentences = ["Four score and seven years ago"] * 30
    key, subkey = {split}
    {body}

def main(params, tokenizer):
    key = rand.key(0)
    for _ in range(5):
        generate_jax(params, tokenizer, key)
    print(timeit.timeit(lambda: generate_jax(params, tokenizer, key), number=10))

main(None, None)
"""


def test_a_key_handed_to_an_unread_project_function_is_consumed_there():
    """llama-2-jax's benchmark (case 326): the key split feeds ``generate``, which the file imports from its project
    and returns decoded strings; the split is no work left pending."""
    for split in ("rand.split(key)", "jax.random.split(key)"):
        returned = GENERATE.format(split=split, body="return generate(sentences, tokenizer, params, key=subkey)")
        assert not lb102(returned), split
        body = "out = generate(sentences, tokenizer, params, key=subkey)\n    return out"
        named = GENERATE.format(split=split, body=body)
        assert not lb102(named), split


def test_a_key_split_and_left_is_still_pending():
    left = GENERATE.format(split="rand.split(key)", body="return None")
    assert lb102(left)
    jitted = GENERATE.replace("from lib.generation import generate", "generate = jax.jit(lambda *a, key: key)").format(
        split="rand.split(key)", body="generate(sentences, tokenizer, params, key=subkey)")
    assert lb102(jitted)  # handed to a jitted function: that call is JAX work nothing waits for
