"""How often a loop runs, and whether its variable takes values the code spells out.

    for dtype in (jnp.float16, jnp.float32):   # spelled out: 2 iterations, one per value the code names
    for seed in range(10):                      # 10 iterations
    for _ in range(num_iterations):             # 10 too, where the scope binds only `num_iterations = 10`
    for batch in loader:                        # unknown: the data decides

A loop over values the code spells out asks for each of them on purpose. A function jitted per value
(a closure over ``dtype``), or an array shaped per value (``jnp.zeros(shape)`` for each listed shape),
is one compilation per value the code names: hoisting the jit or padding the array would still need one
program per value, or would defeat what the loop is for (a test of each dtype, each shape). Only a loop
over data (a loader, a range sized by an array) makes the count of programs the data's business.

And a loop whose trip count the code states bounds the work it dispatches: `eager_dispatch_is_small`
says when that work is too little to be worth a finding.
"""

from __future__ import annotations

import ast

from ._facts import JIT_TRANSFORMS, Facts
from ._kinds import FUNCTION_TRANSFORMS, Kinds
from ._names import dotted
from ._program import Program
from ._syntax import (
    COMPREHENSIONS, FUNCTIONS, LOOPS, SCOPES, enclosing_function, given_argument, local_walk, loop_iterable,
    parameter_default,
)

_DISPLAYS = (ast.Tuple, ast.List, ast.Set)
# Eager JAX dispatch costs some 10-50 microseconds per operation on a CPU host (more on an accelerator's
# launch path); 64 of them is a few milliseconds at most, once, outside any timing: nothing a user would see.
SMALL_DISPATCH_TOTAL = 64


def spelled_out(facts: Facts, kinds: Kinds, loop: ast.AST) -> list[ast.expr] | None:
    """The values a ``for`` loop (or a comprehension's first ``for``) takes when the code writes them out: the
    elements of a tuple, list or set display, or of a name every binding of which in scope is one
    (``dtypes = [jnp.float16, jnp.float32]``, ``dtypes += [float64]``). None when the data decides, and when an
    element is an array (a loop over arrays is a loop over data, however written)."""
    iterable = loop_iterable(loop)
    if iterable is None:
        return None
    elements = _display_elements(facts, iterable, loop)
    if elements is None:
        return None
    if any(kinds.of(e) is not None for e in elements):
        return None
    return elements


def max_trips(facts: Facts, loop: ast.AST) -> int | None:
    """At most how many times the body of ``loop`` runs each time the function (or module) around it runs:
    its own trip count times those of the loops around it in the same function, when the code states every
    one (``range`` of integer constants, a spelled-out collection). None when any is unknown."""
    total = 1
    node: ast.AST | None = loop
    scope = enclosing_function(facts.program, loop)
    while node is not None and node is not scope:
        if isinstance(node, (ast.For, ast.AsyncFor, *COMPREHENSIONS)):
            count = _trips(facts, node)
            if count is None:
                return None
            total *= count
        elif isinstance(node, ast.While):
            return None
        node = facts.program.parent(node)
    return total


def calls_running_once(facts: Facts, loop: ast.AST) -> list[tuple[ast.Call, str]]:
    """The calls of the function around ``loop`` that make it iterate once, each with the words that say so
    (``n_runs=1``): the loop is ``for _ in range(n)`` over a parameter ``n`` that the function never rebinds, and the
    call gives it 1 (a literal, or a name the caller's scope binds only to 1), or leaves out a parameter whose
    default is 1. A loop count the caller decides takes each caller's value: ``benchmark(params, 1000, 1)`` times
    one run where ``benchmark(params, 1, 1000)`` times a thousand (case 344)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return []
    iterable = loop.iter
    if not (isinstance(iterable, ast.Call) and facts.names.qualname(iterable.func) == "builtins.range"
            and len(iterable.args) == 1 and not iterable.keywords and isinstance(iterable.args[0], ast.Name)):
        return []
    name = iterable.args[0].id
    function = enclosing_function(facts.program, loop)
    return [(call, f"{name}=1") for call in _calls_giving_one(facts, function, name)]


# `timeit`'s harnesses and the keywords that say how many runs they time: `repeat` runs of `number` calls each.
_HARNESS_COUNTS = {"timeit.timeit": ("number",), "timeit.repeat": ("number", "repeat")}
# The `timeit` harness calls whose counts a helper may take from its caller (`harness_calls_running_once`).
TIMEIT_HARNESSES = frozenset(_HARNESS_COUNTS)


def harness_calls_running_once(facts: Facts, harness: ast.Call) -> list[tuple[ast.Call, str]]:
    """The calls of the function around ``harness`` (``timeit.repeat(bench, repeat=repeat, number=number)``) that make
    it time one run, with the words that say so: every count the harness reads is a parameter of the function, and
    the call gives each 1 (``time_it_measure(bench, repeat=1, number=1)`` in Octax's ``--measure_memory`` mode, case
    443): that call's figure is one run, whatever the other calls of the helper time."""
    counts = _HARNESS_COUNTS.get(facts.names.qualname(harness.func) or "")
    if counts is None:
        return []
    function = enclosing_function(facts.program, harness)
    given = {k.arg: k.value for k in harness.keywords if k.arg is not None}
    names = [given.get(count) for count in counts]
    if not all(isinstance(n, ast.Name) for n in names):
        return []  # a count written in the harness (or left to its default) is the same for every caller
    first, *others = [_calls_giving_one(facts, function, n.id) for n in names]  # type: ignore[union-attr]
    words = ", ".join(f"{n.id}=1" for n in names)  # type: ignore[union-attr]
    return [(call, words) for call in first if all(any(call is c for c in found) for found in others)]


def _calls_giving_one(facts: Facts, function: ast.AST | None, name: str) -> list[ast.Call]:
    """The calls of ``function`` that give its parameter ``name`` (never rebound in it) the value 1: a literal, a
    name the caller's scope binds only to 1, or a left-out parameter whose default is 1."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or name in facts.stored_in(function):
        return []
    arguments = function.args
    if name not in {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}:
        return []
    default = parameter_default(arguments, name)
    found = []
    for site in facts.call_sites(function):
        call = facts.program.parent(site)
        if not (isinstance(call, ast.Call) and call.func is site):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            continue  # `bench(*args)`, `bench(**config)`: the value is not written here
        given = given_argument(call, arguments, name)
        value = given if given is not None else default
        if value is not None and _stated_integer(facts, value, call) == 1:
            found.append(call)
    return found


def eager_dispatch_is_small(facts: Facts, kinds: Kinds, loop: ast.AST, operations: int, calls: list[ast.Call]) -> bool:
    """``operations`` eager JAX operations per iteration of ``loop`` (made by ``calls``) add up, over every
    iteration the code states, to no more than `SMALL_DISPATCH_TOTAL` dispatches: a bounded cost of a few
    milliseconds. Not when one of the calls dispatches an unknown number of primitives (`runs_many_operations`),
    unless the loop is set-up per configuration (`_set_up_per_value`)."""
    trips = max_trips(facts, loop)
    if trips is None or trips * max(operations, 1) > SMALL_DISPATCH_TOTAL:
        return False
    if not any(runs_many_operations(facts, call) for call in calls):
        return True
    return _set_up_per_value(facts, kinds, loop)


def _set_up_per_value(facts: Facts, kinds: Kinds, loop: ast.AST) -> bool:
    """``for n_envs in [4, 16, 64]: keys = jax.random.split(rng, n_envs); batch = jax.vmap(env.reset)(keys)``: a loop
    over a few values the code spells out, whose body reads its variable, builds one configuration per value on
    purpose. A whole program run eagerly once per value is that configuration's set-up, run once: jitting it would
    compile one program per value (the values change what it is given), which costs more than dispatching it once.
    A loop that repeats (``range(3)``) or walks data is not this: its passes run the same program again."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or spelled_out(facts, kinds, loop) is None:
        return False
    trips = max_trips(facts, loop)
    if trips is None or trips > _FEW_VALUES:
        return False
    variables = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in variables
        for statement in loop.body for n in ast.walk(statement)
    )


# A handful of configurations spelled out in the code (sizes, batch widths, dtypes): set-up once per value.
_FEW_VALUES = 8


def _one_operation(facts: Facts, transform: ast.Call) -> bool:
    """``jax.vmap(jnp.linalg.solve)``: a transform of one JAX operation runs that operation, batched or
    differentiated, not a program of the user's op by op; so does a transform of a jitted function
    (``jax.vmap(f)`` with ``@jax.jit def f``, ``jax.vmap(lambda y: f(grid, y))``, ``jax.vmap(jax.vmap(f))``): the
    jitted function is one compiled program, batched as a whole; a jitted method of the class the transform is
    built in, too (``jax.vmap(self.forward_pass)`` with ``@partial(jax.jit, static_argnums=(0,))``, case 481)."""
    while facts.names.qualname(transform.func) == "jax.block_until_ready" and transform.args:
        if not isinstance(transform.args[0], ast.Call):
            break
        transform = transform.args[0]  # of a function: returns it unchanged
    target = transform.args[0] if transform.args else None
    if target is None:
        return False
    if facts.names.qualname(target) is not None:
        return True  # a library's function: one JAX operation, or a program the file cannot see (jitted or not)
    function = facts.function_of(target) or facts.own_method(target)
    if function is None:
        passed = facts.argument_values(target) if facts.def_named(getattr(target, "id", ""), target) is None else None
        if passed is not None:  # `def bench(func, x): jax.vmap(func)(x)`: op by op only if given a plain local def
            return not any(_plain_local_function(facts, v) for v in passed)
        return False
    site = facts.jitted_defs.get(function)
    if site is not None and site.node in getattr(function, "decorator_list", ()):
        return True
    body = [function.body] if isinstance(function, ast.Lambda) else getattr(function, "body", [])
    calls = [n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    if any(facts.names.qualname(c.func) in COMPILED_LOOPS for c in calls):
        return True  # `jax.vmap(partial(draw, n=k))` of `draw` running `lax.scan`: the batched loop is one primitive
    return bool(calls) and all(facts.calls_jax_callable(c) for c in calls)


def _plain_local_function(facts: Facts, value: ast.expr) -> bool:
    """``value`` is a def or lambda of this file that nothing jits: transformed and run eagerly, op by op."""
    if facts.jitted_key_of(value) is not None:
        return False
    function = facts.function_of(value)
    return function is not None and function not in facts.jitted_defs


# Transforms that evaluate the function as they are called (`jax.vjp(f, x)` runs f's forward pass).
_EVALUATING_TRANSFORMS = frozenset({"jax.vjp", "jax.jvp", "jax.linearize"})


# `lax` loops run eagerly are one compiled program each: the body is traced and compiled as a whole.
COMPILED_LOOPS = frozenset({"jax.lax.fori_loop", "jax.lax.scan", "jax.lax.while_loop", "jax.lax.map"})


def runs_compiled_loop(facts: Facts, call: ast.Call) -> bool:
    """``relax_structure(s)``, whose body runs ``lax.fori_loop(0, 500, step, ...)``: every call runs a compiled loop,
    which outweighs the few eager operations around it, as a call of a jitted function does (what the loop's body
    calls, an optax step or a gradient, runs inside that program, not op by op)."""
    if facts.names.qualname(call.func) in COMPILED_LOOPS:
        return True
    function = facts.local_def(call)
    return function is not None and any(
        isinstance(n, ast.Call) and facts.names.qualname(n.func) in COMPILED_LOOPS
        for n in local_walk(facts.program, function)
    )


# The methods of an optax gradient transformation, each a whole program of the file's parameters run op by op.
_OPTIMISER_METHODS = frozenset({"init", "update"})


def runs_many_operations(facts: Facts, call: ast.Call, depth: int = 0) -> bool:
    """Run eagerly, ``call`` dispatches a whole program one primitive at a time, not one operation: an un-jitted
    transform applied (``jax.grad(loss)(x)``, or through a name bound to one), an optax step
    (``optimizer.update``, ``optax.apply_updates``), a Flax module's apply; or an un-jitted local function
    that makes such a call."""
    qualified = facts.names.qualname(call.func) or ""
    if qualified.startswith("optax.") or facts.is_flax_call(call) or qualified in _EVALUATING_TRANSFORMS:
        return True
    if (isinstance(call.func, ast.Attribute) and call.func.attr in _OPTIMISER_METHODS
            and dotted(call.func.value) in facts.optax_transforms):
        return True  # not `loss.block_until_ready()` of `loss = optax.l2_loss(...)`: an array's method (case 464)
    if facts.jitted_on_some_path(call):
        return False  # `if args.jit: f = jax.jit(f)`: op by op only when asked, not on every path
    values = [call.func, *facts.callee_values(call.func)]
    if any(facts.is_jax_transform(v) and not facts.jitted_key_of(v) and not _one_operation(facts, v) for v in values):
        return True  # `jax.vmap(loss)(xs)`, `batched(xs)` with `batched = jax.vmap(loss)`
    function = facts.local_def(call)
    if function is None or function in facts.jitted_defs or depth > 3:
        return False
    if _transformed_def(facts, function):
        return True  # `@eqx.filter_value_and_grad def loss(...)` called: the forward and backward passes, op by op
    if runs_compiled_loop(facts, call):
        return False  # its work is one compiled loop, whose body's steps run inside the program
    inner = [n for n in ast.walk(function) if isinstance(n, ast.Call)]
    return any(runs_many_operations(facts, c, depth + 1) for c in inner)


def _transformed_def(facts: Facts, function: ast.AST) -> bool:
    """``function`` is a def decorated with a JAX transform that is no jit (``@jax.grad``,
    ``@eqx.filter_value_and_grad``, ``@partial(jax.vmap, in_axes=0)``, ``@jax.value_and_grad(argnums=1)``) whose
    body is a program of the file's own, not only calls of jitted functions: called, it runs that program and its
    transform eagerly, as ``jax.grad(loss)(x)`` does (diffrax's neural ODE example, case 298)."""
    transforms = FUNCTION_TRANSFORMS - JIT_TRANSFORMS
    for decorator in getattr(function, "decorator_list", ()):
        applied = decorator.func if isinstance(decorator, ast.Call) else decorator
        qualified = facts.names.qualname(applied) or ""
        if qualified == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
            qualified = facts.names.qualname(decorator.args[0]) or ""
        if qualified in transforms:
            calls = [n for n in local_walk(facts.program, function) if isinstance(n, ast.Call)]
            return bool(calls) and not all(facts.calls_jax_callable(c) for c in calls)
    return False


def yields_batches(program: Program, loop: ast.AST) -> bool:
    """``loop`` is a generator's outer loop that yields only from a loop nested in it: each pass hands its consumer
    many items, one per pass of the inner loop, so its own operations run once per batch of items (an epoch's
    shuffle: ``perm = jrandom.permutation(key, indices)`` over ``while end < n: ... yield batch``, the data loader
    of diffrax's and Equinox's examples, case 298), not once per item the consumer's loop draws."""
    own = list(program.walk(loop, skip=(*SCOPES, *LOOPS, *COMPREHENSIONS)))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own):
        return False
    return any(
        isinstance(inner, LOOPS) and inner is not loop
        and any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in local_walk(program, inner))
        for inner in own
    )


def unstacks_a_jax_array(kinds: Kinds, loop: ast.AST) -> bool:
    """``loop`` iterates a JAX array itself (``for action in actions`` over ``jax.random.randint(key, (n,), 0, 7)``,
    ``[f(x) for x in jnp.arange(n)]``): each pass indexes the array eagerly, one dispatch per element, and hands the
    body a 0-d JAX array whose every use outside jit is another (case 367: each action handed to MiniGrid's
    ``env.step``). A NumPy array, a list or tuple of arrays, ``.tolist()`` yield host values: no dispatch."""
    iterable = loop_iterable(loop)
    if iterable is None or isinstance(iterable, (ast.List, ast.Tuple, ast.Set, ast.ListComp, ast.Dict)):
        return False
    return kinds.of(iterable) == "jax"


def reads_loop_values(facts: Facts, kinds: Kinds, nodes: list[ast.AST], loop: ast.AST) -> bool:
    """Some node in ``nodes`` (a jitted lambda, a def, a jit call's options) reads the variable of ``loop``, a loop
    over spelled-out values: what it builds differs from one iteration to the next, by the code's design."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or spelled_out(facts, kinds, loop) is None:
        return False
    variables = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in variables
        for node in nodes for n in ast.walk(node)
    )


def _trips(facts: Facts, loop: ast.AST) -> int | None:
    """How many times a ``for`` loop or comprehension iterates, when the code states it."""
    count = 1
    generators = loop.generators if isinstance(loop, COMPREHENSIONS) else [loop]
    for generator in generators:
        iterable = generator.iter
        if isinstance(iterable, ast.Call) and facts.names.qualname(iterable.func) == "builtins.range":
            bounds = [_stated_integer(facts, a, loop) for a in iterable.args]
            if not bounds or None in bounds or iterable.keywords or (len(bounds) == 3 and bounds[2] == 0):
                return None
            count *= len(range(*bounds))
            continue
        if isinstance(iterable, ast.Call) and facts.names.qualname(iterable.func) == "builtins.enumerate":
            iterable = iterable.args[0] if iterable.args else iterable
        elements = _display_elements(facts, iterable, loop)
        if elements is None:
            return None
        count *= len(elements)
    return count


def _stated_integer(facts: Facts, node: ast.AST, at: ast.AST) -> int | None:
    """An integer the code states: a literal, or a name that the scope of ``at`` binds only to that one literal
    (``num_iterations = 5`` ... ``range(num_iterations)``). Not a parameter, a loop variable or a name bound to
    anything else (`_rebound_otherwise`), whose value the caller or the data decides."""
    value = _integer(node)
    if value is not None or not isinstance(node, ast.Name):
        return value
    values = facts.bindings.values_at(node.id, at)
    if not values or _rebound_otherwise(facts, node.id, at) or _a_parameter_around(facts, node.id, at):
        return None
    if any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == node.id
           for n in _scope_nodes(facts, at)):
        return None
    stated = {_integer(v) for v in values}
    return stated.pop() if len(stated) == 1 and None not in stated else None


def _a_parameter_around(facts: Facts, name: str, at: ast.AST) -> bool:
    """``name`` is a parameter of a function around ``at`` (a closure's ``n``): the caller's value."""
    return any(
        isinstance(scope, FUNCTIONS)
        and name in {a.arg for a in [*scope.args.posonlyargs, *scope.args.args, *scope.args.kwonlyargs]}
        for scope in facts.program.ancestors(at)
    )


def _integer(node: ast.AST) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _integer(node.operand)
        return None if value is None else -value
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _display_elements(facts: Facts, iterable: ast.expr, at: ast.AST) -> list[ast.expr] | None:
    """The elements of a display, or of a name bound only to displays (and extended only by them with ``+=``) in
    the scope of ``at``; None otherwise (a starred element, a binding of another kind, an unknown name)."""
    if isinstance(iterable, _DISPLAYS):
        if any(isinstance(e, ast.Starred) for e in iterable.elts):
            return None
        return list(iterable.elts)
    name = dotted(iterable)
    if not isinstance(iterable, ast.Name) or name is None:
        return None
    values = facts.bindings.values_at(name, at)
    extended = [
        n.value for n in _scope_nodes(facts, at)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name
    ]
    if not values or _rebound_otherwise(facts, name, at):
        return None
    elements: list[ast.expr] = []
    for value in [*values, *extended]:
        if not isinstance(value, _DISPLAYS) or any(isinstance(e, ast.Starred) for e in value.elts):
            return None
        elements.extend(value.elts)
    return elements


def _scope_nodes(facts: Facts, at: ast.AST) -> list[ast.AST]:
    scope = enclosing_function(facts.program, at)
    return list(ast.walk(scope if scope is not None else facts.program.module))


def _rebound_otherwise(facts: Facts, name: str, at: ast.AST) -> bool:
    """``name`` is also bound in the scope of ``at`` by something other than an assignment (a loop, a ``with``, a
    parameter, a method call that mutates it: ``dtypes.append(x)``), which the bindings do not hold."""
    scope = enclosing_function(facts.program, at)
    if isinstance(scope, FUNCTIONS) and name in {a.arg for a in [*scope.args.posonlyargs, *scope.args.args,
                                                                   *scope.args.kwonlyargs]}:
        return True
    for node in _scope_nodes(facts, at):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.target)):
                return True
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.optional_vars)):
                return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name) and node.func.value.id == name and node.func.attr in _MUTATORS:
                return True
    return False


_MUTATORS = frozenset({"append", "extend", "insert", "add", "update"})


def jitted_per_value(facts: Facts, kinds: Kinds, jit_call: ast.Call, loop: ast.AST) -> bool:
    """The function ``jit_call`` jits, or its jit options, are made from the variable of ``loop``, a loop over
    spelled-out values (``for dtype in dtypes: jax.jit(lambda: jnp.ones(3, dtype))``): one program per value."""
    nodes: list[ast.AST] = [*jit_call.args, *(k.value for k in jit_call.keywords)]
    target = facts.jit_target(jit_call)
    function = facts.function_of(target) if target is not None else None
    if function is not None:
        nodes.append(function)
    return reads_loop_values(facts, kinds, nodes, loop)


# Calls that apply a function to each element or leaf in turn: a loop the code does not spell as one.
_PER_ELEMENT = frozenset(
    {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree.map_with_path", "jax.tree_util.tree_map_with_path",
     "builtins.map"}
)


def per_element_calls(facts: Facts) -> list[tuple[ast.Call, ast.AST]]:
    """``jax.tree.map(quantize, params)``, ``map(f, xs)``: (the call, the function it applies to each leaf or
    element, a lambda or a local def). Run eagerly, the function's operations dispatch once per leaf."""
    found: list[tuple[ast.Call, ast.AST]] = []
    for call in facts.program.of_type(ast.Call):
        function = applied_per_element(facts, call) if isinstance(call, ast.Call) else None
        if function is not None:
            found.append((call, function))
    return found


def applied_per_element(facts: Facts, call: ast.Call) -> ast.AST | None:
    """The lambda or local def ``call`` applies to each leaf or element (``jax.tree.map(quantize, params)``), or
    None. What the call returns is a tree of those results, not one array: the kinds model leaves it unknown."""
    if not call.args or facts.names.qualname(call.func) not in _PER_ELEMENT:
        return None
    applied = call.args[0]
    function = applied if isinstance(applied, ast.Lambda) else facts.function_of(applied)
    return function if isinstance(function, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)) else None
