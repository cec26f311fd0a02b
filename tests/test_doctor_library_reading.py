"""How the doctor's model reads library code it was not tuned on (issue 25, the fetched library corpus).

Each test is one general reason a finding on a real library was wrong, written as synthetic code: a
positive twin (the mistake the rule is for, still reported) beside the quiet one.
"""

from __future__ import annotations

import textwrap

from levelbench._values.intent import says_it_times_compilation
from levelbench.doctor import lint_source


def found(source: str) -> list[tuple[str, int]]:
    """(code, line) of every finding on ``source`` read as a script."""
    return [(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")]


def test_a_container_holding_an_element_of_itself_is_read_not_reported_unreadable():
    # netket/utils/jax.py: `res = (res_val, res[1])` made the model chase `res[1]` forever (LB100)
    src = """
    import jax.numpy as jnp

    def maybe_scalar(apply_fun, pars, x):
        res = apply_fun(pars, jnp.atleast_2d(x))
        if isinstance(res, tuple):
            res_val = res[0]
            res = (res_val, res[1])
        return res[0](x)
    """
    assert found(src) == []


# pgx's chess and shogi tables: module-level loops over Python integers, filling NumPy arrays, in a file whose
# functions bind the same names (`to`, `from_`) to JAX values and whose NamedTuple has a JAX default `from_`.
_TABLES = """
import jax.numpy as jnp
import numpy as np
from typing import NamedTuple

class Action(NamedTuple):
    from_: jnp.ndarray = jnp.int32(-1)

BETWEEN = -np.ones((64, 64), dtype=np.int32)
for from_ in range(64):
    for to in range(64):
        r, c = from_ % 8, to // 8
        BETWEEN[from_, to] = {body}
BETWEEN = jnp.array(BETWEEN)

def legal(state, a):
    to = BETWEEN[a.from_, state.square]
    c = to * 8
    return jnp.where(to >= 0, c, -1)
"""


def test_a_functions_local_does_not_make_a_module_variable_of_the_same_name_jax():
    assert found(_TABLES.format(body="c * 8 + r")) == []


def test_a_module_loop_over_jax_values_is_still_op_by_op():
    # the twin: the same loop, its body dispatching JAX operations on the module's own arrays
    table = found(_TABLES.format(body="int(jnp.sum(BETWEEN[from_] * 8 + jnp.ones(64)[to]))"))
    assert ("LB114", 11) in table


# jaxley's regression test: a timing whose own result is named the compile time measures compilation on purpose.
_NAMED_TIMINGS = """
import time
import jax
import jax.numpy as jnp

X = jnp.ones((100, 100))
simulate = jax.jit(lambda p: jnp.sin(p) @ p)
runtimes = {{}}
start_time = time.perf_counter()
simulate(X).block_until_ready()
runtimes["{first}"] = time.perf_counter() - start_time
start_time = time.perf_counter()
simulate(X).block_until_ready()
runtimes["run_time"] = time.perf_counter() - start_time
"""


def test_lb103_a_timing_the_code_names_compile_time_measures_compilation_on_purpose():
    for name in ("compile_time", "first_call", "jit time"):
        assert "LB103" not in {code for code, _ in found(_NAMED_TIMINGS.format(first=name))}


def test_jit_time_says_compilation_only_of_a_timing_of_one_call():
    assert says_it_times_compilation("jit_time = end - start")
    assert not says_it_times_compilation("jit_time = end - start", repeated=True)
    assert says_it_times_compilation("compile_time = end - start", repeated=True)  # other words keep their sense


def test_lb103_a_first_timing_named_for_the_speed_still_holds_the_compilation():
    for name in ("build_time", "compiled"):  # `compiled` names what a warm call runs
        assert ("LB103", 10) in found(_NAMED_TIMINGS.format(first=name))


# netket's fermionic kernels: loops under jit whose length is the program's structure, not the data's.
_UNDER_JIT = """
import jax
import jax.numpy as jnp

@jax.jit
def halves(x):
    return tuple(x[..., i, :] for i in range(2))

@jax.jit
def kernel(weights, idx, x, *xs):
    {body}

X = jnp.ones((4, 4))
print(kernel(X, X, X, X, X))  # a script: the jitted function's parameters are the arrays passed here
"""


def lb106(body: str) -> list[int]:
    return [line for code, line in found(_UNDER_JIT.format(body=body)) if code == "LB106"]


def test_lb106_an_index_tuple_has_one_entry_per_axis():
    assert lb106("return weights[tuple(idx)]") == []
    assert lb106("return jnp.stack(tuple(idx))") == [11]  # the twin: the rows of an array, one slice each


def test_lb106_a_list_of_one_array_per_argument_is_structure():
    assert lb106("for i, xi in enumerate(jnp.broadcast_arrays(*xs)):\n        x = x.at[i].set(xi)\n    return x") == []
    assert lb106("for i, xi in enumerate(x):\n        x = x.at[i].set(xi)\n    return x") == [11]


def test_lb106_what_a_function_returns_as_a_tuple_per_counted_step_is_structure():
    assert lb106("parts = halves(x)\n    return tuple(p * 2 for p in parts)") == []
    assert lb106("return tuple(p * 2 for p in x)") == [11]  # the twin: the rows of an argument


def test_lb106_lexsort_takes_its_keys_apart_itself():
    assert lb106("return jnp.lexsort(list(x.T)[::-1])") == []
    assert lb106("return jnp.stack(list(x.T)[::-1])") == [11]


# jax-md's a2c workflow: a script's loop around a function that runs a 500-step `lax.fori_loop`.
_RELAX = """
import jax
import jax.numpy as jnp
from jax import lax

def relax(s, n_steps=500):
    box = jnp.eye(3) * s
    def step(i, box):
        return box * 0.99 + jnp.sin(box)
    {loop}
    return jnp.sum(box)

results = []
for s in [float(v) for v in range(100)]:
    results.append(relax(s) + jnp.ones(()))
"""


def test_lb114_a_loop_around_a_compiled_lax_loop_is_not_op_by_op():
    assert found(_RELAX.format(loop="box = lax.fori_loop(0, n_steps, step, box)")) == []


def test_lb114_a_loop_around_a_python_loop_of_operations_still_is():
    python_loop = "for i in range(n_steps):\n        box = step(i, box)"
    assert ("LB114", 15) in found(_RELAX.format(loop=python_loop))


# mujoco's visualize_render: the leaves of a model sharded through the host, once, by `jax.tree.map`.
_SHARD = """
import jax
import jax.numpy as jnp

params = {{"w": jnp.ones((8, 8)), "b": jnp.ones(8)}}

def {name}(x):
    {body}

params = jax.tree.map({name}, params)
"""


def test_lb114_mapping_a_placement_over_the_leaves_is_not_op_by_op():
    body = (
        "x_cpu = jax.device_put(x, jax.devices('cpu')[0])\n"
        "    reshaped = x_cpu.reshape(2, -1) if x_cpu.ndim > 1 else jnp.stack([x_cpu] * 2)\n"
        "    return jax.device_put(reshaped, None)"
    )
    assert found(_SHARD.format(name="shard", body=body)) == []


def test_lb114_mapping_arithmetic_over_the_leaves_still_is():
    body = "scale = jnp.max(jnp.abs(x)) / 127\n    return jnp.round(x / scale)"
    assert ("LB114", 11) in found(_SHARD.format(name="quantize", body=body))


# haiku's transformer example: metrics read on the host once per logging interval of a timed training loop.
_TRAINING = """
import time
import jax
import jax.numpy as jnp

update = jax.jit(lambda w: (w * 0.9, {{"loss": jnp.sum(w)}}))
w = jnp.ones(1000)
update(w)
prev_time = time.perf_counter()
for step in range(1000):
    w, metrics = update(w)
    {guard}
        steps_per_sec = 100 / (time.perf_counter() - prev_time)
        prev_time = time.perf_counter()
        print(steps_per_sec, {{k: float(v) for k, v in metrics.items()}})
"""


def test_lb115_a_metric_read_once_per_logging_interval_is_not_a_timed_transfer():
    assert "LB115" not in {code for code, _ in found(_TRAINING.format(guard="if step % 100 == 0:"))}


def test_lb115_a_metric_read_at_every_step_of_the_timing_still_is():
    assert ("LB115", 15) in found(_TRAINING.format(guard="if step > 0:"))


GUARDED = """
import jax
import chex

def test_redefined_traced_function():
    def outer_fn(x):
        @jax.jit{decorator}
        def inner_fn(y):
            return y.sum()
        return inner_fn(2 * x)

    outer_fn(1)
    outer_fn(2)
"""


def test_lb111_a_def_whose_traces_are_counted_is_retraced_on_purpose():
    # chex/_src/asserts_test.py: the test redefines a jitted def per call to see its trace guard fire
    assert found(GUARDED.format(decorator="\n        @chex.assert_max_traces(3)")) == []


def test_lb111_the_same_def_without_a_trace_counter_still_retraces_per_call():
    assert found(GUARDED.format(decorator="\n        @jax.named_call")) == [("LB111", 7)]
    assert found(GUARDED.format(decorator="")) == [("LB111", 7)]


# jaxns's worker: a serving loop that batches requests eagerly, then runs a program compiled ahead of time and
# kept in a container (`record.programs[op].lower(request).compile()`), out of sight of the file's jits.
_SERVE = """
import jax
import jax.numpy as jnp

def serve(programs, inbox):
    for requests in inbox:
        batch = jnp.concatenate([r + 1.0 for r in requests])
        batch = jnp.sin(batch) * 2.0
        {run}
"""


def test_lb114_a_loop_around_a_program_compiled_ahead_of_time_is_not_op_by_op():
    assert found(_SERVE.format(run="compiled = programs['sample'].lower(batch).compile()\n        compiled(batch)")
                 + "\nserve({}, [])\n") == []


def test_lb114_a_loop_around_a_plain_call_still_is():
    assert ("LB114", 6) in found(_SERVE.format(run="programs['sample'](batch)") + "\nserve({}, [])\n")


# clu's metrics_test: a jitted function iterates what every call passes, a tuple of model outputs kept on the
# test case (`self.model_outputs = (dict(...), dict(...))` in setUp) and chosen by a conditional.
_OUTPUTS = """
import jax
import jax.numpy as jnp

class CollectionTest:
    def setUp(self):
        self.outputs = {one}
        self.outputs_masked = {two}

    def test_collection(self, masked):
        @jax.jit
        def compute(outputs):
            total = 0.0
            for output in outputs:
                total = total + jnp.sum(output)
            return total

        outputs = self.outputs_masked if masked else self.outputs
        return compute(outputs)
"""


def test_lb106_a_tuple_kept_on_the_test_case_and_passed_to_jit_is_structure():
    assert found(_OUTPUTS.format(one="(jnp.ones(3), jnp.zeros(3))", two="[jnp.ones(3)]")) == []


def test_lb106_an_array_kept_on_the_test_case_is_still_data():
    assert ("LB106", 14) in found(_OUTPUTS.format(one="jnp.ones((100, 3))", two="(jnp.ones(3),)"))


# oryx's harvest and inverse tests: a function that jits a lambda inside is only handed to library functions that
# trace it (`plant_variables = functools.partial(harvest.plant, ...)`, `jax.jacrev`); the jit is part of the trace.
_HANDED = """
import functools
import jax
from absl.testing import absltest
from oryx.core.interpreters import harvest

plant_variables = functools.partial(harvest.plant, tag="variable")

class HarvestTest(absltest.TestCase):
    def test_should_plant_in_jit(self):
        def f(x):
            return jax.jit(lambda x: x * 2.0)(x)

        {uses}

if __name__ == "__main__":
    absltest.main()
"""


def test_lb111_a_function_only_handed_to_tracing_library_functions_is_not_recreated_per_call():
    assert found(_HANDED.format(uses="plant_variables(f)({}, 1.0)\n        plant_variables(f)({'x': 2.0}, 1.0)")) == []
    assert found(_HANDED.format(uses="jax.make_jaxpr(f)(1.0)\n        jax.jacrev(f)(1.5)")) == []


def test_lb111_the_same_function_handed_to_a_helper_of_the_file_still_is():
    helper = "def run(g):\n            return g(1.0)\n        run(f)\n        run(f)"  # a helper of the file: its calls are seen
    assert found(_HANDED.format(uses=helper)) == [("LB111", 12)]
    assert found(_HANDED.format(uses="plant_variables(f)({}, 1.0)\n        " + helper)) == [("LB111", 12)]


# oryx's harvest test: a jitted function whose one statement sows a value (`variable(x, name="x")`, a partial of
# `harvest.sow`) runs for that effect, which the test reaps; nothing computed is dropped.
_EFFECT = """
import functools
import jax
import jax.numpy as jnp
from oryx.core.interpreters import harvest

variable = functools.partial(harvest.sow, tag="variable")

def double(x):
    return x * 2.0

@jax.jit
def f(x):
    {body}
"""


def test_lb107_a_jitted_function_run_for_its_effects_returns_nothing_on_purpose():
    assert found(_EFFECT.format(body="variable(x, name='x')")) == []
    assert found(_EFFECT.format(body="jax.debug.print('x = {}', x)")) == []


def test_lb107_a_dropped_array_or_a_dropped_call_of_the_files_own_function_is_still_lost_work():
    assert found(_EFFECT.format(body="jnp.sin(x)")) == [("LB107", 13)]
    assert found(_EFFECT.format(body="double(x)")) == [("LB107", 13)]
    assert found(_EFFECT.format(body="y = variable(x, name='x')")) == [("LB107", 13)]


# jaxns's worker: a server that concatenates the leaves of a batch of requests (one operation per leaf) and then
# runs the batch's compiled executable, inside the clock pair that times the request.
_SERVED = """
import time
import jax
import jax.numpy as jnp

def combine(requests):
    def concatenate(*values):
        return jnp.concatenate(values, axis=0)
    return jax.tree.map(concatenate, *requests)

program = jax.jit(lambda tree: jax.tree.map(jnp.sin, tree))
requests = [{{"a": jnp.ones(3), "b": jnp.ones(4)}} for _ in range(8)]
started = time.perf_counter()
batch = combine(requests)
{run}
elapsed = time.perf_counter() - started
"""


def test_lb114_one_operation_per_leaf_beside_a_timed_compiled_program_assembles_its_input():
    assert "LB114" not in {c for c, _ in found(_SERVED.format(run="out = jax.block_until_ready(program(batch))"))}
    compiled = "executable = program.lower(batch).compile()\nout = jax.block_until_ready(executable(batch))"
    assert "LB114" not in {c for c, _ in found(_SERVED.format(run=compiled))}


def test_lb114_one_operation_per_leaf_is_what_a_timing_without_a_compiled_program_measures():
    assert ("LB114", 9) in found(_SERVED.format(run="out = jax.block_until_ready(batch)"))


# The same for a loop of one operation per step: timed with nothing compiled beside it, its dispatches are the
# numbers; beside a compiled program they assemble its input.
_STACKED = """
import time
import jax
import jax.numpy as jnp

program = jax.jit(lambda x: jnp.sin(x) @ x.T)
rows = [jnp.ones(64) for _ in range(256)]
started = time.perf_counter()
parts = []
for row in rows:
    parts.append(jnp.cumsum(row))
{run}
elapsed = time.perf_counter() - started
"""


def test_lb114_a_timed_loop_of_one_operation_beside_a_compiled_program_is_not_reported():
    assert "LB114" not in {c for c, _ in found(_STACKED.format(run="jax.block_until_ready(program(jnp.stack(parts)))"))}


def test_lb114_a_timed_loop_of_one_operation_alone_is():
    assert ("LB114", 10) in found(_STACKED.format(run="jax.block_until_ready(parts)"))


# qdax's ask/tell test: two key splits per iteration of a loop whose trip count is a local constant
# (`num_iterations = 5`), around the library's own ask and tell: ten dispatches, once.
_ASK_TELL = """
import jax
from qd import algorithm, state

def run(key):
    {bound}
    for _ in range(num_iterations):
        key, subkey = jax.random.split(key)
        candidates = algorithm.ask(state, subkey)
        key, subkey = jax.random.split(key)
        state = algorithm.tell(state, candidates, subkey)

run(jax.random.PRNGKey(0))
"""


def test_lb114_a_loop_bounded_by_a_local_constant_of_few_steps_dispatches_little():
    assert found(_ASK_TELL.format(bound="num_iterations = 5")) == []


def test_lb114_a_loop_bounded_by_a_large_constant_or_by_what_the_caller_gives_still_is():
    assert ("LB114", 7) in found(_ASK_TELL.format(bound="num_iterations = 1000"))
    assert ("LB114", 7) in found(_ASK_TELL.format(bound="num_iterations = 5 if state else 1000"))
    assert ("LB114", 8) in found(_ASK_TELL.format(bound="num_iterations = 5\n    num_iterations = 1000"))
    assert ("LB114", 8) in found(_ASK_TELL.format(bound="num_iterations = 5\n    num_iterations *= 200"))
    given = _ASK_TELL.replace("def run(key):", "def run(key, num_iterations=5):").replace("run(jax.random.PRNGKey(0))",
                                                                                     "run(jax.random.PRNGKey(0), 1000)")
    assert ("LB114", 7) in found(given.format(bound="pass"))


def test_an_iterator_rebound_from_itself_is_read_once_per_binding_not_once_per_path(monkeypatch):
    # pgx's tests/test_bridge_bidding.py: `actions = iter(actions); action = next(actions)` again and again took
    # minutes: each `next` walked every binding of `actions` from each binding, once per path (8 rebindings: 8 s,
    # growing ~4x per two); each node is now answered once per question
    from levelbench.doctor import _kinds

    asked = []
    elements_of = _kinds.Kinds._elements_of
    monkeypatch.setattr(_kinds.Kinds, "_elements_of", lambda self, it, depth: asked.append(it) or elements_of(self, it, depth))
    src = "import jax.numpy as jnp\n\ndef test_observe():\n    actions = [jnp.int32(0), jnp.int32(1)]\n" \
          + "    actions = iter(actions)\n    action = next(actions)\n" * 8
    assert found(src) == []
    assert len(asked) <= 8 * 8 * 4, f"{len(asked)} iterator questions for 8 rebindings"


_STATIC_FN = """
from functools import partial
import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnums=(0,))
def apply(fn, x):
    return fn(x)

def energy(x, alpha):
    s2 = jnp.sum(x ** 2)
    {made}
    return apply(fn, x)
"""


def test_lb111_a_library_function_passing_a_closure_over_its_own_values_as_static_is_its_callers_to_jit():
    # jax-md's electrostatics: `fn = lambda g2: ... S2` built in `energy_fn` from its own values, passed to a jit
    # with the function static: a caller that jits `energy_fn` traces it once; the library cannot hoist it
    assert "LB111" not in {code for code, _ in found(_STATIC_FN.format(made="fn = lambda v: v * s2 / alpha"))}
    # the twin: a function that depends on nothing the call computes is only rebuilt, for every eager caller
    assert ("LB111", 13) in found(_STATIC_FN.format(made="fn = lambda v: v * 2"))
