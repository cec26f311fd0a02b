"""What cases 380-387 showed at first sight, mended in the shared model (mend33).

- `Facts.jitted_key_of`: a function value read by its name is jitted only where a binding of that name in its own
  scope (or a scope around it) is: ``step = jit(partial(draw, n=k))`` in one function does not make another
  function's ``step = partial(draw, n=k)`` jitted (case 380: no LB103 at the eager walk, LB103 at the jitted one,
  which the eager walk's call no longer seems to warm).
- `_iteration._one_operation`: a transform of a function whose work is a compiled loop (``lax.scan``) batches or
  differentiates that loop as one primitive, as ``runs_compiled_loop`` reads a call of such a function (case 380's
  eager ``vmap`` over ``lax.scan``: no LB114).
- LB114: in a file that times code, a loop of the script or notebook cell itself that no timing reaches is the
  example's set-up (cases 382 and 387, the readings of 246, 260 and 369); a loop in a function stays (162).
- BrainPy (`brainpy.math`) is a JAX front end (`_names.JAX_LIBRARIES`, `brainpy.math.jit` a jit), and calling an
  object of a local class runs its ``__call__`` (`Facts._called_object`): a timed ``lr(points, labels)`` that
  updates its ``bm.Variable`` in place and returns nothing is JAX work nothing waits for (case 381: LB102).
- LB103 on printed per-pass loops (case 383): `_warmth` reads the shape of a
  ``jax.random`` draw (``shape=`` or the second argument), the same computation on inputs of other shapes gives
  another shape, and a name bound anew earlier in the same pass holds at its use; a start read again after more
  work times that work too (`_regions._later_readings`); and LB106 leaves a ``while`` over a traced argument of a
  jitted function alone (tracing raises before anything unrolls).
- LB104 (`_intent.repeated_right_after`): a one-run clock pair of a first call, repeated right after by a harness
  that repeats the same call (``%timeit``, ``timeit.repeat``), is the catalogue's first call timed again warm: no
  LB104. LB103 still reports the compile in it (cases 020 and 244).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


# --- 380: two functions binding the same local name, one jitted -----------------------------------------------------
TWO_WALKS = """
{imports}
from functools import partial

def draw(key, num_steps):
    keys = random.split(key, num_steps)
    final, draws = lax.scan(lambda c, k: (c + random.normal(k), c), 0.0, keys)
    return final, draws

def walk_eager(key, n, t):
    keys = random.split(key, n)
    {name} = partial(draw, num_steps=t)
    return {vmap}({name})(keys)

def walk_jit(key, n, t):
    keys = random.split(key, n)
    {name} = {jit}(partial(draw, num_steps=t))
    return {vmap}({name})(keys)

key = random.PRNGKey(0)
start = {clock}()
final, draws = walk_eager(key, 100, 1000)
draws.block_until_ready()
print({clock}() - start)

start = {clock}()
final, draws = walk_jit(key, 100, 1000)
draws.block_until_ready()
print({clock}() - start)
"""

SPELLINGS = [
    ("from jax import jit, lax, random, vmap\nfrom time import time", "steps", "jit", "vmap", "time"),
    ("import jax\nfrom jax import lax, random\nimport time", "steps", "jax.jit", "jax.vmap", "time.perf_counter"),
    ("import jax as jx\nfrom jax import lax, random\nimport time as tm", "grw", "jx.jit", "jx.vmap", "tm.time"),
]


def _walks(imports, name, jit, vmap, clock):
    return TWO_WALKS.format(imports=imports, name=name, jit=jit, vmap=vmap, clock=clock)


def _line(source, text):
    """The line of ``source`` (dedented, as `codes` reads it) holding ``text`` first."""
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


@pytest.mark.parametrize(("imports", "name", "jit", "vmap", "clock"), SPELLINGS)
def test_another_functions_jit_of_the_same_local_name_is_not_this_ones(imports, name, jit, vmap, clock):
    source = _walks(imports, name, jit, vmap, clock)
    found = codes(source)
    assert lines(found, "LB103") == {_line(source, "= walk_jit(")}


def test_the_same_local_names_in_notebook_cells():
    source = _walks(*SPELLINGS[0])
    head, rest = source.split("key = random.PRNGKey(0)")
    eager, jitted = rest.split("\n\n")
    found = notebook_codes(head, "key = random.PRNGKey(0)" + eager, jitted)
    assert {(c, cell) for c, cell, _ in found if c == "LB103"} == {("LB103", 3)}


def test_a_jitted_local_name_in_the_same_function_is_still_jitted():
    source = """
    import time
    import jax

    def f(x):
        return x * 2

    def run(x):
        step = jax.jit(f)
        return jax.vmap(step)(x)

    x = jax.numpy.ones((8, 4))
    start = time.perf_counter()
    run(x).block_until_ready()
    print(time.perf_counter() - start)
    """
    assert lines(codes(source), "LB103") == {_line(source, "run(x).block")}


# --- 380: an eager transform of a function whose work is one compiled loop ----------------------------------------
EAGER_SCAN = """
import jax
from jax import lax, random
from functools import partial

def draw(key, num_steps):
    keys = random.split(key, num_steps)
    {body}
    return final

def walk(key, n, t):
    keys = random.split(key, n)
    return jax.vmap(partial(draw, num_steps=t))(keys)

key = random.PRNGKey(0)
%timeit walk(key, 100, 1000).block_until_ready()
"""


@pytest.mark.parametrize("loop", ["lax.scan(lambda c, k: (c + random.normal(k), c), 0.0, keys)",
                                  "jax.lax.scan(lambda c, k: (c + random.normal(k), c), 0.0, keys)"])
def test_an_eager_transform_of_a_compiled_loop_is_one_primitive(loop):
    source = EAGER_SCAN.format(body=f"final, _ = {loop}")
    assert lines(codes(source), "LB114") == set()


def test_an_eager_transform_of_many_operations_is_still_op_by_op():
    body = "final = random.normal(keys[0]) + jax.numpy.sin(keys[1].sum()) * jax.numpy.cos(keys[2].sum())"
    source = EAGER_SCAN.format(body=body)
    assert lines(codes(source), "LB114") == {_line(source, "%timeit")}


# --- 380: a first call timed once, then repeated right after by %timeit ------------------------------------------
ONCE_THEN_REPEATED = """
{imports}

def f(x):
    return jnp.sin(x) @ x.T

f_jit = jax.jit(f)
x = jnp.ones((500, 500))
start = {clock}()
y = f_jit(x)
y.block_until_ready()
print({clock}() - start)
{repeat}
"""

CLOCKS = [("import time\nimport jax\nimport jax.numpy as jnp", "time.time"),
          ("from time import perf_counter as now\nimport jax\nimport jax.numpy as jnp", "now")]


@pytest.mark.parametrize(("imports", "clock"), CLOCKS)
@pytest.mark.parametrize("repeat", ["%timeit f_jit(x).block_until_ready()",
                                    "%timeit -r 7 f_jit(x).block_until_ready()",
                                    "import timeit\nprint(min(timeit.repeat(lambda: f_jit(x).block_until_ready(),"
                                    " number=10, repeat=5)))"])
def test_a_first_call_repeated_right_after_is_not_one_sample(imports, clock, repeat):
    source = ONCE_THEN_REPEATED.format(imports=imports, clock=clock, repeat=repeat)
    found = codes(source)
    assert lines(found, "LB104") == set()
    assert lines(found, "LB103") == {_line(source, "y = f_jit(x)")}  # the compile is still timed (cases 020, 244)


def test_a_first_call_repeated_right_after_in_notebook_cells():
    source = ONCE_THEN_REPEATED.format(imports=CLOCKS[0][0], clock="time.time", repeat="")
    found = notebook_codes(source, "%timeit f_jit(x).block_until_ready()")
    assert {c for c, _, _ in found} >= {"LB103"}
    assert "LB104" not in {c for c, _, _ in found}


@pytest.mark.parametrize("repeat", ["%timeit jnp.dot(x, x).block_until_ready()",
                                    "print('done')",
                                    "%time f_jit(x).block_until_ready()"])
def test_a_first_call_not_repeated_right_after_is_one_sample(repeat):
    source = ONCE_THEN_REPEATED.format(imports=CLOCKS[0][0], clock="time.time", repeat=repeat)
    assert lines(codes(source), "LB104") == {_line(source, "y = f_jit(x)")}


# --- 382, 387: a script's own untimed training loop beside its timings --------------------------------------------
TRAINING_BESIDE_A_TIMING = """
{imports}

def loss(params, x, y):
    return jnp.mean((x @ params['w'] + params['b'] - y) ** 2)

grads_of = {transform}(loss)
x = jnp.ones((64, 3))
y = jnp.ones(64)
params = {{'w': jnp.zeros(3), 'b': 0.0}}
{loop}
    grads = grads_of(params, x, y)
    params = {tree_map}(lambda p, g: p - 0.1 * g, params, grads)
    print(loss(params, x, y))

predict = {jit}(lambda p, x: x @ p['w'] + p['b'])
{timing}
"""

TRAINING_SPELLINGS = [
    ("import jax\nimport jax.numpy as jnp", "jax.grad", "jax.tree_util.tree_map", "jax.jit"),
    ("import jax as jx\nimport jax.numpy as jnp", "jx.value_and_grad", "jx.tree.map", "jx.jit"),
]
TIMINGS = [
    "%timeit predict(params, x).block_until_ready()",
    "import time\npredict(params, x).block_until_ready()\nstart = time.perf_counter()\nfor _ in range(10):\n"
    "    predict(params, x).block_until_ready()\nprint((time.perf_counter() - start) / 10)",
]


def _training(imports, transform, tree_map, jit, timing, loop="for i in range(101):"):
    return TRAINING_BESIDE_A_TIMING.format(
        imports=imports, transform=transform, tree_map=tree_map, jit=jit, timing=timing, loop=loop)


@pytest.mark.parametrize(("imports", "transform", "tree_map", "jit"), TRAINING_SPELLINGS)
@pytest.mark.parametrize("timing", TIMINGS)
@pytest.mark.parametrize("loop", ["for i in range(101):", "for _ in range(200):"])
def test_a_scripts_untimed_training_loop_beside_its_timings_is_set_up(imports, transform, tree_map, jit, timing, loop):
    assert lines(codes(_training(imports, transform, tree_map, jit, timing, loop)), "LB114") == set()


def test_a_cells_untimed_training_loop_beside_a_timing_cell_is_set_up():
    source = _training(*TRAINING_SPELLINGS[0], timing="")
    set_up, trained = source.split("params = {'w'")
    found = notebook_codes(set_up, "params = {'w'" + trained, TIMINGS[0])
    assert {c for c, _, _ in found if c == "LB114"} == set()


def test_the_same_loop_in_a_function_is_a_routine_its_callers_run():
    source = _training(*TRAINING_SPELLINGS[0], timing=TIMINGS[0], loop="def train(params):\n  for i in range(101):")
    source = source.replace("\n    grads =", "\n      grads =").replace("\n    params =", "\n      params =").replace(
        "\n    print(", "\n      print(").replace(
        "\npredict =", "\n  return params\n\nparams = train(params)\npredict =")
    assert lines(codes(source), "LB114") == {_line(source, "for i in range(101):")}


def test_the_same_loop_timed_is_still_op_by_op():
    loop = "import time\nstart = time.perf_counter()\nfor i in range(101):"
    source = _training(*TRAINING_SPELLINGS[0], timing="", loop=loop)
    source += "print(time.perf_counter() - start)\n"
    assert _line(source, "for i in range(101):") in lines(codes(source), "LB114")


# --- 381: objects of a JAX library's classes, called and timed, updating their state in place --------------------
BRAINPY_OBJECT = """
{imports}

class LogisticRegression(bp.Base):
    def __init__(self, dimension):
        super().__init__()
        self.w = bm.Variable(2.0 * bm.ones(dimension) - 1.3)

    def __call__(self, X, Y):
        u = bm.dot(((1.0 / (1.0 + bm.exp(-Y * bm.dot(X, self.w))) - 1.0) * Y), X)
        self.w[:] = self.w - u

points = bm.random.random((2000, 10))
labels = bm.random.random(2000)
{name} = LogisticRegression(10)
{timing}
"""

BRAINPY_IMPORTS = ["import brainpy as bp\nimport brainpy.math as bm",
                   "import brainpy as bp\nfrom brainpy import math as bm"]


@pytest.mark.parametrize("imports", BRAINPY_IMPORTS)
@pytest.mark.parametrize("name", ["lr", "model"])
@pytest.mark.parametrize("timing", [
    "%timeit {name}(points, labels)",
    "import timeit\nprint(timeit.timeit(lambda: {name}(points, labels), number=100))",
    "import time\nstart = time.perf_counter()\nfor _ in range(100):\n    {name}(points, labels)\n"
    "print(time.perf_counter() - start)",
])
def test_a_called_object_that_updates_its_variables_is_unwaited_work(imports, name, timing):
    source = BRAINPY_OBJECT.format(imports=imports, name=name, timing=timing.format(name=name))
    assert lines(codes(source), "LB102") == {_line(source, f"{name}(points, labels)")}


def test_a_called_object_under_brainpys_jit_is_unwaited_work():
    timing = "lr_jit = bm.jit(lr)\n%timeit lr_jit(points, labels)"
    source = BRAINPY_OBJECT.format(imports=BRAINPY_IMPORTS[0], name="lr", timing=timing)
    assert lines(codes(source), "LB102") == {_line(source, "%timeit lr_jit")}


def test_called_objects_in_notebook_cells():
    source = BRAINPY_OBJECT.format(imports=BRAINPY_IMPORTS[0], name="lr", timing="")
    jitted = "lr_jit = bm.jit(lr)\n\n%timeit lr_jit(points, labels)"
    found = notebook_codes(source, "%timeit lr(points, labels)", jitted)
    assert {(c, cell) for c, cell, _ in found if c == "LB102"} == {("LB102", 2), ("LB102", 3)}


LOCAL_CALLABLE = """
import jax.numpy as jnp
{numpy}

class Layer:
    def __init__(self, n):
        self.w = {lib}.ones((n, n))

    def __call__(self, x):
        return {lib}.tanh(x @ self.w)

layer = Layer(256)
x = {lib}.ones((64, 256))
%timeit {timed}
"""


def test_a_called_object_of_a_local_class_runs_its_call():
    source = LOCAL_CALLABLE.format(numpy="", lib="jnp", timed="layer(x)")
    assert lines(codes(source), "LB102") == {_line(source, "%timeit")}


@pytest.mark.parametrize(("numpy", "lib", "timed"), [
    ("", "jnp", "layer(x).block_until_ready()"),
    ("import numpy as np", "np", "layer(x)"),
])
def test_a_waited_or_numpy_called_object_stays_quiet(numpy, lib, timed):
    assert lines(codes(LOCAL_CALLABLE.format(numpy=numpy, lib=lib, timed=timed)), "LB102") == set()


# --- 383: jitted functions first called inside the first pass of printed timing loops ------------------------------
PRINTED_PASSES = """
{imports}

def dot(W, X):
    return jnp.dot(W, X)

def act(x):
    return jnp.maximum(0.0, x)

key = {random}.PRNGKey(0)
W = {draw_small}
X = {random}.normal(key, (100, 200))
dot_jit = jax.jit(dot)
act_jit = jax.jit(act)
for i in range(3):
    start = {clock}()
    Z = dot_jit(W, X).block_until_ready()
    print(f"dot: {{{clock}() - start:.2f}}")
    start = {clock}()
    A = act_jit(Z).block_until_ready()
    print(f"act: {{{clock}() - start:.2f}}")

W = {draw_large}
dot_jit = jax.jit(dot)
act_jit = jax.jit(act)
for i in range(3):
    start = {clock}()
    Z = dot_jit(W, X).block_until_ready()
    print(f"dot: {{{clock}() - start:.2f}}")
    start = {clock}()
    A = act_jit(Z).block_until_ready()
    print(f"act: {{{clock}() - start:.2f}}")
    Z, A = jnp.ones(1), jnp.ones(1)
"""

DRAWS = [
    ("import jax\nimport jax.numpy as jnp\nfrom jax import random\nimport time", "random", "time.time",
     "random.normal(key=key, shape=[50, 100])", "random.normal(key=key, shape=[80, 100])"),
    ("import jax\nimport jax.numpy as jnp\nimport jax.random as jr\nfrom time import perf_counter", "jr",
     "perf_counter",
     "jr.normal(key, (50, 100))", "jr.uniform(key, (80, 100))"),
    ("import jax\nimport jax.numpy as jnp\nimport time", "jax.random", "time.perf_counter",
     "jnp.ones((50, 100))", "jax.random.normal(key, shape=(80, 100))"),
]


def _passes(imports, random, clock, small, large):
    return PRINTED_PASSES.format(imports=imports, random=random, clock=clock, draw_small=small, draw_large=large)


def _all_lines(source, text):
    return {i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line}


@pytest.mark.parametrize(("imports", "random", "clock", "small", "large"), DRAWS)
def test_each_printed_loop_times_its_new_shapes_first_calls(imports, random, clock, small, large):
    source = _passes(imports, random, clock, small, large)
    assert lines(codes(source), "LB103") == _all_lines(source, "= dot_jit(W, X)") | _all_lines(source, "= act_jit(Z)")


def test_the_same_shapes_again_are_warm():
    source = _passes(*DRAWS[0][:3], DRAWS[0][3], DRAWS[0][3])
    first_dot, first_act = _line(source, "= dot_jit(W, X)"), _line(source, "= act_jit(Z)")
    again = (_all_lines(source, "= dot_jit(W, X)") | _all_lines(source, "= act_jit(Z)")) - {first_dot, first_act}
    assert not lines(codes(source), "LB103") & again


def test_printed_loops_in_notebook_cells():
    source = _passes(*DRAWS[0])
    head, second = source.split("\nW = random.normal(key=key, shape=[80")
    found = notebook_codes(head, "W = random.normal(key=key, shape=[80" + second)
    assert {(c, cell) for c, cell, _ in found if c == "LB103"} == {("LB103", 1), ("LB103", 2)}
    assert len([1 for c, cell, _ in found if c == "LB103" and cell == 2]) == 2


# --- 383: a start read again after more work ----------------------------------------------------------------------
READ_AGAIN = """
import time
import jax
import jax.numpy as jnp

f_jit = jax.jit(lambda x: jnp.sin(x) @ x)
g_jit = jax.jit(lambda x: jnp.cos(x) @ x)
x = jnp.ones((300, 300))
f_jit(x).block_until_ready()
{warm}
start = {clock}()
a = f_jit(x).block_until_ready()
print(f"f: {{{clock}() - start:.3f}}")
b = g_jit(x).block_until_ready()
print(f"f and g: {{{clock}() - start:.3f}}")
"""


@pytest.mark.parametrize("clock", ["time.perf_counter", "time.time"])
def test_a_start_read_again_times_the_work_after_the_first_reading(clock):
    source = READ_AGAIN.format(warm="", clock=clock)
    assert lines(codes(source), "LB103") == {_line(source, "b = g_jit(x)")}


def test_a_start_read_again_after_a_warm_call_is_quiet():
    source = READ_AGAIN.format(warm="g_jit(x).block_until_ready()", clock="time.perf_counter")
    assert lines(codes(source), "LB103") == set()


def test_a_start_read_again_after_the_same_call_again_is_warm():
    source = READ_AGAIN.format(warm="", clock="time.perf_counter").replace("b = g_jit(x)", "b = f_jit(x)")
    assert lines(codes(source), "LB103") == set()


# --- 383: a `while` over a traced argument of a jitted function cannot trace -------------------------------------
TRACED_WHILE = """
import jax
{jit_import}

def multiply_n_times(x, n):
    count = 0
    res = 1
    while count < {bound}:
        res = res * x
        count += 1
    return res

try:
    val = {jitted}(2, 5)
except Exception as ex:
    print(type(ex).__name__, ex)
"""


@pytest.mark.parametrize(("jit_import", "jitted"), [("from jax import jit", "jit(multiply_n_times)"),
                                                    ("", "jax.jit(multiply_n_times)")])
def test_a_while_over_a_traced_argument_raises_rather_than_unrolls(jit_import, jitted):
    source = TRACED_WHILE.format(jit_import=jit_import, jitted=jitted, bound="n")
    assert lines(codes(source), "LB106") == set()


def test_a_while_over_a_shape_under_jit_still_unrolls():
    source = TRACED_WHILE.format(jit_import="", jitted="jax.jit(multiply_n_times)", bound="x.shape[0]")
    assert lines(codes(source), "LB106") == {_line(source, "while count")}
