"""What cases 257-266 showed (issue 25, mend17): one fault reported once, set-up per configuration, a jit per call
that each call asks for.

- A timed training loop whose work is one call of an un-jitted step (``jax.value_and_grad`` run eagerly inside it)
  is one fault: LB114 at the call, where the whole program runs op by op, not again at the loop's line (case 258).
  A loop that also runs eager operations of its own beside that call is still the loop's.
- An untimed loop over a few values the code spells out (``for width in (8, 32, 128)``), whose body reads its
  variable, builds one configuration per value: a whole program run eagerly there (``jax.vmap(init)(keys)``) runs
  once per value, and jitting it would compile once per value (case 260, LB114 quiet). The same body repeated by
  ``range(3)``, or run over data, is still op by op.
- A helper that jits a function made from what its caller passes, through a local def that closes over it
  (``def loss(p, x): return model(p, x)`` then ``jax.jit(jax.grad(loss))``), builds what each call asks for: called
  once per model, a jit made once outside would compile as often (case 261, LB111 quiet), as when the parameter is
  jitted directly (``speedtest(scan_fn)``). Called twice with the same model, it compiles the same program again:
  LB111.
- A timing helper handed, by a factory, a function that queues JAX work and returns nothing (``def run(): y = a @
  a``) stops its clock before the work is done, and no wait on the result could help: LB102 at the argument that
  hands it, the helper being sound for the other values it is given (case 257). A function that returns its
  result to a helper that waits, a jitted one (LB107's) and a NumPy one stay quiet.
- A benchmark of pytree utilities (``jax.tree_util.tree_flatten`` 1000 times) times the framework's host-side
  work: read on ``time.time()``, it is LB105's as any other interval (case 265). A wall-clock interval around
  host work of no framework (``sorted``, ``json.dumps``) stays quiet.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def codes_at(source: str, path: str = "bench.py") -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


def lb114_lines(source: str) -> set[int]:
    return {line for code, line in codes_at(source) if code == "LB114"}


TRAINING = """
import time
import jax
import jax.numpy as jnp

def mse(w, xs, ys):
    return jnp.mean((xs @ w - ys) ** 2)

def update(w, xs, ys):
    value, g = jax.value_and_grad(mse)(w, xs, ys)
    return jnp.subtract(w, 0.01 * g), value

def fit(w, pairs):
    t0 = time.perf_counter()
    for xs, ys in pairs:
        w, value = update(w, xs, ys){extra}
    value.block_until_ready()
    print("fit took", time.perf_counter() - t0)
    return w

keys = jax.random.split(jax.random.key(0), 3)
data = [(jax.random.normal(k, (256, 8)), jax.random.normal(k, (256,))) for k in keys]
fit(jnp.zeros(8), data)
"""


def test_a_timed_loop_whose_work_is_one_eager_step_is_reported_once_at_the_step():
    lines = lb114_lines(TRAINING.format(extra=""))
    assert lines == {16}, f"expected LB114 once, at the eager `update(...)` call (line 16); got lines {sorted(lines)}"


def test_a_loop_with_eager_operations_of_its_own_beside_the_step_is_still_the_loops():
    extra = "\n        w = jnp.clip(w, -1.0, 1.0)\n        w = w / jnp.linalg.norm(w)"
    lines = lb114_lines(TRAINING.format(extra=extra))
    assert 15 in lines, f"expected LB114 at the loop (line 15), whose own clip and norm dispatch op by op; got {lines}"


SWEEP = """
import time
import jax
import jax.numpy as jnp

def init(key):
    w = jax.random.normal(key, (64, 64))
    return w / jnp.linalg.norm(w)

@jax.jit
def forward(ws, x):
    return jnp.tanh(jnp.einsum("bij,j->bi", ws, x))

def seconds(fn, *args):
    fn(*args).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(50):
        fn(*args).block_until_ready()
    return (time.perf_counter() - t0) / 50

def main():
    x = jnp.ones(64)
    key = jax.random.key(0)
    for {loop}:
        key, sub = jax.random.split(key)
        keys = jax.random.split(sub, {count})
        ws = jax.vmap(init)(keys)
        print({count}, seconds(forward, ws, x))

main()
"""


def test_set_up_run_once_per_spelled_out_configuration_is_not_op_by_op():
    source = SWEEP.format(loop="width in (8, 32, 128)", count="width")
    assert 24 not in lb114_lines(source), "a loop over three listed widths builds each once: no LB114 expected"
    listed = SWEEP.format(loop="width in [4, 16, 64, 256]", count="width")
    assert 24 not in lb114_lines(listed)


def test_the_same_set_up_repeated_or_over_data_is_still_op_by_op():
    repeated = SWEEP.format(loop="_ in range(3)", count="32")
    assert 24 in lb114_lines(repeated), "range(3) runs the same eager program again: LB114 expected at the loop"
    over_data = SWEEP.format(loop="width in read_widths()", count="width").replace(
        "def main():", "def read_widths():\n    return [int(w) for w in open('widths.txt')]\n\ndef main():")
    assert 27 in lb114_lines(over_data), "widths read from a file: the data decides how many, LB114 expected"


HELPER = """
import time
import jax
import jax.numpy as jnp

def step_time(model, params, x, steps=200):
    def objective(p, batch):
        return jnp.mean(model(p, batch) ** 2)

    step = jax.jit(jax.grad(objective))
    step(params, x)["w"].block_until_ready()
    t0 = time.perf_counter()
    for _ in range(steps):
        g = step(params, x)
    g["w"].block_until_ready()
    return (time.perf_counter() - t0) / steps

def linear(p, x):
    return x @ p["w"]

def gated(p, x):
    return jax.nn.sigmoid(x @ p["w"]) * (x @ p["w"])

params = {"w": jnp.ones((128, 128))}
x = jnp.ones((64, 128))
"""


def test_a_jit_per_call_of_a_function_made_from_each_calls_model_is_what_each_call_asks_for():
    source = HELPER + 'print(step_time(linear, params, x))\nprint(step_time(gated, params, x))\n'
    assert ("LB111", 10) not in codes_at(source), "each call passes another model: one compile per model, no LB111"


def test_the_same_model_timed_twice_compiles_the_same_program_again():
    twice = HELPER + 'print(step_time(linear, params, x))\nprint(step_time(linear, params, x))\n'
    assert ("LB111", 10) in codes_at(twice), "the same model twice: the second call compiles it again, LB111 expected"


HANDED = """
import time
import numpy as np
import jax
import jax.numpy as jnp

def make_numpy():
    a = np.ones((1000, 1000))
    def run():
        b = a @ a
    return run

def make_eager():
    a = jnp.ones((1000, 1000))
    def run():
        b = jnp.tanh(a @ a)
    return run

def make_jitted():
    a = jnp.ones((1000, 1000))
    @jax.jit
    def run():
        b = a @ a
    return run

def seconds(name, fn, n=20):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    print(name, (time.perf_counter() - t0) / n)

seconds("numpy", make_numpy())
seconds("eager", make_eager())
seconds("jitted", make_jitted())
"""


def test_a_function_that_queues_jax_work_and_returns_nothing_handed_to_a_timing_helper_is_lb102_at_the_argument():
    found = {line for code, line in codes_at(HANDED) if code == "LB102"}
    assert found == {33}, f"expected LB102 at `make_eager()` (line 33) alone; got lines {sorted(found)}"


def test_a_handed_function_that_returns_its_result_to_a_helper_that_waits_is_quiet():
    returned = HANDED.replace("        b = jnp.tanh(a @ a)", "        return jnp.tanh(a @ a)").replace(
        "        fn()", "        jax.block_until_ready(fn())")
    assert not {line for code, line in codes_at(returned) if code == "LB102"}


TREES = """
import time
import jax
import jax.numpy as jnp

params = {"layer%d" % i: {"w": jnp.ones((4, 4)), "b": jnp.zeros(4)} for i in range(50)}
started = time.time()
for _ in range(500):
    WORK
print("per call", (time.time() - started) / 500)
"""


def test_a_wall_clock_around_pytree_utilities_is_lb105():
    for work in ("leaves, treedef = jax.tree_util.tree_flatten(params)", "jax.tree.map(lambda x: x, params)"):
        assert ("LB105", 7) in codes_at(TREES.replace("WORK", work)), f"expected LB105 at line 7 timing `{work}`"


def test_a_wall_clock_around_host_work_of_no_framework_is_quiet():
    assert ("LB105", 7) not in codes_at(TREES.replace("WORK", "ordered = sorted(params)"))
