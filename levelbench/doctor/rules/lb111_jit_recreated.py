"""LB111, jit-recreated: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..._values.intent import counts_traces
from .._context import Context
from .._diagnostic import Diagnostic
from .._iteration import jitted_per_value
from .._program import Program
from .._shapes import ShapeEvidence, derived_names
from .._syntax import (
    FUNCTIONS, bound_names, enclosing_function, enclosing_loop, local_walk, nonlocal_names, parameter_names, short,
    walk_code,
)
from .._warmth import static_arguments

CODE = "LB111"


_FRESH_WRAPPERS = frozenset(
    {"functools.partial", "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.checkpoint", "jax.remat", "jax.jacfwd",
     "jax.jacrev", "jax.hessian", "equinox.filter_grad", "equinox.filter_value_and_grad", "flax.nnx.grad",
     "jax.shard_map", "jax.experimental.shard_map.shard_map"}
)


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB111: ``jax.jit`` applied inside a loop, a repeated timed statement, or to a fresh function per call."""
    facts, program = ctx.facts, ctx.program
    repeated = [r for r in ctx.regions if r.samples in ("repeated", "averaged") and r.harness]
    harness_nodes = {id(n) for r in repeated for n in walk_code(ctx.program, list(r.work))}
    # `%time` / `%%time` at module level: a cell, run again in the same process as cells are (cases 130 and 102)
    cell_nodes = {id(n) for r in ctx.regions if r.harness and r.label == "%time" and r.scope is None
                  for n in walk_code(ctx.program, list(r.work))}
    seen: set[int] = set()
    candidates = list(program.of_type(ast.Call))
    candidates += [n for r in repeated for n in walk_code(ctx.program, list(r.work)) if isinstance(n, ast.Call)]
    for call in candidates:
        target = facts.jit_target(call)
        if target is None or id(call) in seen:
            continue
        seen.add(id(call))
        parent = program.parent(call)
        called_now = isinstance(parent, ast.Call) and parent.func is call
        fresh = _fresh_function(ctx, target)
        what = f"`{short(target, 40)}`"
        if id(call) in harness_nodes and called_now:
            message = f"`{short(call)}` jits inside the repeated timed statement: every run re-wraps {what}"
            message += ", a new function each time, so every run recompiles" if fresh else ""
        elif (
            (loop := enclosing_loop(program, call)) is not None
            and not ctx.callers_decide(call)  # a caller that jits the function traces the loop, and this jit, once
            and enclosing_function(program, call) not in ctx.facts.traced_defs
            and _created_in(ctx, target, loop)
            and _used_in_loop(program, call, parent, called_now)
            and not jitted_per_value(facts, ctx.kinds, call, loop)  # one program per value the loop names
        ):
            message = (
                f"`{short(call)}` inside a loop jits {what}, a new function every iteration: JAX caches compiled "
                "code per function object, so every iteration recompiles"
            )
        elif id(call) in cell_nodes and called_now and _made_by_call(ctx, target):
            message = (
                f"`{short(call)}` jits {what}, a new function every time the timed cell runs: JAX caches compiled "
                "code per function object, so every run of the cell recompiles"
            )
        elif fresh and _fresh_per_call(ctx, call, parent, called_now):
            outer = enclosing_function(program, call)
            outer_name = getattr(outer, "name", "?")
            message = (
                f"`{short(call)}` in `{outer_name}` jits a new function on every call of `{outer_name}`: JAX caches "
                "compiled code per function object, so every call recompiles"
            )
        else:
            continue
        yield ctx.report(
            "LB111",
            call,
            message,
            evidence=f"jax.jit is applied to {what} where it runs more than once",
            fix=f"jitted = {ast.unparse(call)}  # once, at module level (or cached)\n# ...then call jitted(...)",
        )
    yield from _nested_jitted_defs(ctx)
    yield from _eager_control_flow(ctx)
    yield from _fresh_static_arguments(ctx)


def _fresh_static_arguments(ctx: Context) -> Iterator[Diagnostic]:
    """A jitted function given a function made inside the caller as a static argument (``_T = lambda f: T(p, f)``
    then ``solve(_T, x)`` with ``static_argnums=(0,)``): JAX caches compiled code per static value, compared by
    equality, and a new function object equals no earlier one, so every call of the caller compiles again."""
    facts, program = ctx.facts, ctx.program
    for call in program.of_type(ast.Call):
        if not isinstance(call, ast.Call):
            continue
        key = facts.jitted_key_of(call.func)
        if key is None or facts.jit_target(call.func) is not None:
            continue  # `jax.jit(f, ...)(x)` made here is the main check's
        positions, names = static_arguments(facts, key, call)
        statics = [call.args[i] for i in sorted(positions) if i < len(call.args)]
        statics += [k.value for k in call.keywords if k.arg in names]
        outer = enclosing_function(program, call)
        if not statics or not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        fresh = next((a for a in statics if _made_in(ctx, a, outer)), None)
        if fresh is None:
            continue
        # the function as made (the lambda or def): a library function's callers may jit it, and one that closes
        # over the call's own values is then traced once with them (jax-md's `fn = lambda g2: ... S2` in `energy_fn`)
        made = fresh if isinstance(fresh, ast.Lambda) or _made_by_call(ctx, fresh) else ctx.facts.function_of(fresh)
        if not (_timed_here(ctx, outer) or _runs_per_call(ctx, outer, made)):
            continue
        what = f"`{short(fresh, 40)}`"
        yield ctx.report(
            "LB111",
            call,
            f"`{short(call)}` passes {what}, a new function on every call of `{outer.name}`, as a static argument "
            f"of jitted `{key}`: JAX caches compiled code per static value, and a new function equals no earlier "
            "one, so every call recompiles",
            evidence=f"{what} is created inside `{outer.name}` and passed where `{key}` marks its argument static",
            fix=f"# make {ast.unparse(fresh)} once, outside {outer.name} (or pass its data as traced arguments)",
        )


def _made_in(ctx: Context, value: ast.AST, outer: ast.AST) -> bool:
    """``value`` is a function object ``outer`` makes on each call: a lambda or ``partial(...)`` written there, or a
    name bound to a lambda or def inside it (not a parameter: the caller's function may be the same each time)."""
    if isinstance(value, ast.Lambda) or _made_by_call(ctx, value):
        return any(a is outer for a in ctx.program.ancestors(value))
    if isinstance(value, ast.Name) and value.id in _enclosing_parameters(ctx, value):
        return False
    function = ctx.facts.function_of(value)
    return function is not None and any(a is outer for a in ctx.program.ancestors(function))


def _eager_control_flow(ctx: Context) -> Iterator[Diagnostic]:
    """``lax.while_loop(lambda x: x < 0, body, x)`` run outside jit in a timed region: it compiles a program for its
    functions, cached per function object, and the lambda is a new object every time the statement runs, so the
    timing holds a compilation however often it is repeated. (A short untimed loop of such calls, as tests write,
    only compiles a few times.)"""
    for call in ctx.program.of_type(ast.Call):
        if id(call) not in ctx.timed_ids:
            continue
        fresh = [f for f in ctx.facts.compiled_arguments(call)
                 if _fresh_function(ctx, f) and not _a_nested_jitted_def(ctx, f)]
        if not fresh or ctx.callers_decide(call) or _timed_once(ctx, call):
            continue
        what = f"`{short(fresh[0], 40)}`"
        where = "timed statement"
        yield ctx.report(
            "LB111",
            call,
            f"`{short(call)}` runs outside jit, so JAX compiles it for its functions, and {what} is a new function "
            f"each time this {where} runs: every run compiles again",
            evidence=f"{what} is created in the call; JAX caches the compiled loop per function object",
            fix=f"cond = {ast.unparse(fresh[0])}  # define the functions once, outside the {where}\n"
            "# or jit the whole computation once: jax.jit(lambda x: lax.while_loop(cond, body, x))",
        )


def _a_nested_jitted_def(ctx: Context, function: ast.AST) -> bool:
    """``function`` names a def nested in a function and decorated with a jit (BlackJAX's ``inference_loop``:
    ``@jax.jit def one_step(...)``, then ``jax.lax.scan(one_step, ...)``, cases 360 and 361): that it is a new
    function on every call of its outer function is the nested jit's fault (`_nested_jitted_defs`, reported at the
    decorator, where the fix goes), not a second one at the loop that runs it."""
    defined = ctx.facts.function_of(function) if isinstance(function, ast.Name) else None
    if not isinstance(defined, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    site = ctx.facts.jitted_defs.get(defined)
    return site is not None and any(site.node is d for d in defined.decorator_list)


def _timed_once(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs once per run of the program: it sits in a function with no loop around it there, the function
    is called once, and the one timing that reaches it is a single sample (Gigastep's eager ``lax.scan`` over a
    closure, in a function ``main`` times once, case 331). JAX caches compiled code per process, and no second call
    in this one asks for it again: the figure holds a cold first call (LB104's reading), not a compile repeated on
    every run. A statement at module level is another matter: a notebook cell or a console line is run again in the
    same process (jax#587's `lax.while_loop(lambda x: x < 0, ...)`, cases 130 and 102), and each run compiles."""
    function = enclosing_function(ctx.program, call)
    if function is None or enclosing_loop(ctx.program, call) is not None:
        return False
    if ctx.facts.called_repeatedly(function):
        return False
    sites = {id(n) for s in ctx.facts.call_sites(function) for n in (s, ctx.program.parent(s))}
    timing = [r for r in ctx.regions if any(id(n) in sites for n in ctx.timed_nodes(r))]
    return len(timing) == 1 and timing[0].samples == "single" and (not timing[0].harness or timing[0].label == "%time")


def _nested_jitted_defs(ctx: Context) -> Iterator[Diagnostic]:
    """``@jax.jit`` on a def inside a function that calls it: each call of the outer function makes a new
    function object, which JAX traces and compiles again."""
    for function, site in ctx.facts.jitted_defs.items():
        if not site.direct or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not any(site.node is d for d in function.decorator_list):
            continue
        if _traces_counted(function):
            continue  # a test of a trace guard builds the retrace on purpose, to see it counted
        outer = ctx.program.parent(function)
        if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) or outer.name in ("__init__", "setup"):
            continue
        uses = [
            n for n in local_walk(ctx.program, outer)
            if isinstance(n, ast.Name) and n.id == function.name and isinstance(n.ctx, ast.Load)
        ]
        called = {id(n.func) for n in local_walk(ctx.program, outer) if isinstance(n, ast.Call)}
        returned = any(
            isinstance(n, ast.Return) and n.value is not None and any(
                isinstance(m, ast.Name) and m.id == function.name and id(m) not in called for m in ast.walk(n.value)
            ) for n in local_walk(ctx.program, outer)
        )  # a factory hands the jitted function out: made once per factory call, by design
        if not uses or returned:
            continue
        if not _timed_here(ctx, outer) and (not _runs_per_call(ctx, outer) or _closes_over(ctx, function, outer)):
            continue  # a closure over the call's own values must be rebuilt per call (or take them as arguments)
        if _runs_per_trace(ctx, outer):
            continue
        if _compiles_per_call_anyway(ctx, outer, function.name):
            continue
        yield ctx.report(
            "LB111",
            site.node,
            f"`{function.name}` is jitted inside `{outer.name}`: every call of `{outer.name}` defines a new function "
            "object, so JAX traces and compiles it again on every call",
            end=site.node,
            evidence=f"`{site.label}` decorates a def nested in `{outer.name}`, which calls it",
            fix=f"{site.label}  # at module level, once\ndef {function.name}(...):\n    ...\n"
            f"def {outer.name}(...):\n    return {function.name}(...)",
        )


def _compiles_per_call_anyway(ctx: Context, outer: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Every call of ``outer`` hands the jitted def ``name`` arrays sized by a parameter that each call gives a new
    value (``x = jr.randint(key, (batch_size, seq_len), ...)`` then ``forward(model, x)``, with ``for b, s, ... in
    product(...): benchmark_run(..., b, s, ...)``, gated_deltanet_jax's benchmark, case 497): each call compiles for
    its new shapes, so a jit made once outside would compile as often, and nothing is lost to the re-wrapping (the
    reading `_fresh_per_call` gives ``jax.jit(f)`` made inside such a function)."""
    sizing = _parameters_sizing_calls(ctx, outer, name)
    return bool(sizing) and (ctx.facts.differs_per_call(outer, sizing) or _swept_per_pass(ctx, outer, sizing))


def _runs_per_trace(ctx: Context, outer: ast.AST) -> bool:
    """``outer`` is called once, and only from inside functions that are never called here but handed to another
    library's function (`_only_handed_to_libraries`: ``jax.jit(jax.shard_map(run_one_chain, ...))``), which traces
    them: the nested jit runs once per trace of that function, as part of the trace, not once per timed call
    (BlackJAX's multiple-chains how-to, whose ``run_one_chain`` calls ``inference_loop``, case 361). The jit that
    makes the traced program anew is its own matter, where the transform is applied."""
    if outer in ctx.facts.traced_defs or ctx.facts.called_repeatedly(outer):
        return False
    sites = ctx.facts.call_sites(outer)
    callers = [enclosing_function(ctx.program, s) for s in sites]
    return bool(sites) and all(
        isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)) and c is not outer and _only_handed_to_libraries(ctx, c)
        for c in callers
    )


def _traces_counted(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A decorator of ``function`` counts its traces (``@chex.assert_max_traces(3)``): the code watches the retraces
    it makes, as a test of that guard does (chex's own ``test_redefined_traced_function``)."""
    for decorator in function.decorator_list:
        wrapper = decorator.func if isinstance(decorator, ast.Call) else decorator
        if counts_traces(ast.unparse(wrapper)):
            return True
    return False


def _timed_here(ctx: Context, outer: ast.AST) -> bool:
    """``outer`` runs here and inside a timed region, un-jitted. A timing is meant to be read, and repeated: every
    timed call defines the nested function anew and compiles it again, closure or not, so no run of the timing
    shows the compiled speed (QuantEcon's `%time generate_draws()`, timed twice on the maintainer's request)."""
    return outer not in ctx.facts.traced_defs and not ctx.callers_decide(outer) and id(outer) in ctx.timed_ids


def _runs_per_call(ctx: Context, outer: ast.AST, jitted: ast.AST | None = None) -> bool:
    """``outer`` runs more than once, un-jitted: called repeatedly here; or a library function
    (`Context.callers_decide`, not a method: who calls a method is not visible) whose jitted function (``jitted``,
    with its jit options) depends on nothing the call computes. A caller that jits a library function traces the
    jit inside once with it, so a jitted function made from the call's own values (a closure, a partial of a
    local step) is the library's design; one that depends on nothing is only rebuilt, for every eager caller."""
    if outer in ctx.facts.traced_defs:
        return False  # jitted itself: its body, and the jit inside, run once per trace, not per call
    if not ctx.callers_decide(outer):
        return ctx.facts.called_repeatedly(outer) and not _only_handed_to_libraries(ctx, outer)
    if isinstance(ctx.program.parent(outer), ast.ClassDef):
        return False
    return jitted is None or not _closes_over(ctx, jitted, outer)


def _only_handed_to_libraries(ctx: Context, outer: ast.AST) -> bool:
    """``outer`` is never called here: every use hands it to a function the file does not define, a JAX transform
    or another library's (oryx's ``plant_variables(f)({}, 1.)``, ``jax.jacrev(f)(x)``). That function decides how
    ``outer`` runs, and a transform traces it: a jit made inside a traced function is part of the trace, not a
    compilation per call. (A timing harness handed ``outer`` is a timed region: `_timed_here`.)"""
    sites = ctx.facts.call_sites(outer)
    if not sites:
        return False
    for site in sites:
        call = ctx.program.parent(site)
        if not isinstance(call, ast.Call) or call.func is site or not any(a is site for a in call.args):
            return False
        if not _library_function(ctx, call.func):
            return False  # a helper of this file (its calls are visible) or a name the doctor cannot resolve
    return True


def _library_function(ctx: Context, func: ast.AST, depth: int = 0) -> bool:
    """``func`` is a function of another library: imported (``jax.jacrev``, ``core.inverse_and_ildj``), or a name
    bound only to such a function or a ``functools.partial`` of one (``plant_variables = partial(plant, ...)``)."""
    if depth > 3 or isinstance(func, ast.Lambda):
        return False
    if ctx.facts.function_of(func) is not None:
        return False  # a def of this file
    qualified = ctx.names.qualname(func)
    if qualified is not None:
        return qualified != "functools.partial" and not qualified.startswith("builtins.")
    bound = ctx.names.partial_target(func)
    if bound is not None:
        return _library_function(ctx, bound, depth + 1)
    values = ctx.facts.callee_values(func)
    return bool(values) and all(_library_function(ctx, v, depth + 1) for v in values)


def _closes_over(ctx: Context, node: ast.AST, outer: ast.AST) -> bool:
    """``node`` (a nested def with its decorators, or a jit call) reads names ``outer`` binds: its parameters
    or locals. Then the jitted function is made from the call's own values and cannot simply be hoisted."""
    bound: set[str] = set()
    scopes = [outer, *(a for a in ctx.program.ancestors(outer) if isinstance(a, FUNCTIONS))]
    for scope in scopes:  # the call's own values, and those of the functions around it (a closure's)
        args = scope.args
        bound |= {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        for n in local_walk(ctx.program, scope):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                bound.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
                bound.add(n.name)  # a local step function: `jax.jit(partial(lax.scan, step))` is made from it
    own: set[str] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        own = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        own |= bound_names(node)
    shared = nonlocal_names(node)  # `nonlocal n; n += 1`: the call's own variable, written as well as read
    loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return bool(((loaded - own) | shared) & bound)


def _created_in(ctx: Context, target: ast.AST, loop: ast.AST) -> bool:
    """The function jitted is made anew in each iteration of ``loop`` (a lambda, a partial, ``grad(f)``, a def in
    the body); jitting the same function object again finds JAX's cache."""
    if isinstance(target, ast.Lambda) or _made_by_call(ctx, target):
        return True
    function = ctx.facts.function_of(target)
    return function is not None and any(a is loop for a in ctx.program.ancestors(function))


def _made_by_call(ctx: Context, target: ast.AST) -> bool:
    """``partial(f, k)``, ``jax.grad(f)``, ``jax.vmap(f)``: each evaluation returns a new function object."""
    return isinstance(target, ast.Call) and (ctx.names.qualname(target.func) or "") in _FRESH_WRAPPERS


def _fresh_function(ctx: Context, target: ast.AST) -> bool:
    """The jitted thing is built anew each time the jit call runs: a lambda, a partial, a nested def."""
    if isinstance(target, ast.Lambda):
        return True
    if _made_by_call(ctx, target):
        return True
    if isinstance(target, ast.Name) and target.id in _enclosing_parameters(ctx, target):
        return False  # `def check(fn): jax.pmap(fn)`: the caller's function, perhaps the same object every call
    if _a_new_objects_function(ctx, target):
        return True
    function = ctx.facts.function_of(target)
    return function is not None and isinstance(ctx.program.parent(function), FUNCTIONS)


def _a_new_objects_function(ctx: Context, target: ast.AST) -> bool:
    """``optimizer.update`` where the function around it builds ``optimizer`` by a call (``optimizer =
    optax.chain(...)``) and binds the name to nothing else: the object, and the function it holds, are new on every
    call of that function (case 371: ``jax.jit(optimizer.update)`` in ``jaxfit1``), and the same object again when the
    call builds it from nothing the function is given. One built from the function's parameters is configured by each
    caller (flashbax's test helper: ``buffer = make_buffer(add_batch_size=add_batch_size, ...)``, then
    ``jax.jit(buffer.add)``), compiled for that configuration by design. A parameter's function (``def fit(opt):
    jax.jit(opt.update)``) is the caller's object, perhaps the same one every call."""
    if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
        return False
    outer = enclosing_function(ctx.program, target)
    name = target.value.id
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) or name in _enclosing_parameters(ctx, target):
        return False
    values = ctx.facts.bindings.values_at(name, target)
    parameters = parameter_names(outer)
    return bool(values) and all(
        isinstance(v, ast.Call) and enclosing_function(ctx.program, v) is outer
        and not any(isinstance(n, ast.Name) and n.id in parameters for n in ast.walk(v))
        for v in values
    )


def _sizing_parameters(
    ctx: Context, outer: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, parent: ast.AST | None, called_now: bool
) -> set[str]:
    """The parameters of ``outer`` that set the size of an array the jitted function is called with in ``outer``
    (``timed(size)``: ``x = (jnp.zeros(size), ...)``, then ``jitted(x)``). A call of ``outer`` that passes a new
    value there compiles for the new shape anyway, so a jit made once outside would compile as often."""
    called: ast.Call | str
    if called_now and isinstance(parent, ast.Call):
        called = parent  # `jax.jit(f)(x)`
    elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        called = parent.targets[0].id  # `jitted = jax.jit(f)`: every call of `jitted`
    else:
        return set()
    return _parameters_sizing_calls(ctx, outer, called)


def _parameters_sizing_calls(ctx: Context, outer: ast.FunctionDef | ast.AsyncFunctionDef, called: ast.Call | str
                             ) -> set[str]:
    """`_sizing_parameters` for the call ``called`` or every call in ``outer`` of the name ``called``."""
    nodes = list(local_walk(ctx.program, outer))  # walked once: for the calls and for what the parameters size
    if isinstance(called, str):
        calls = [n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == called]
    else:
        calls = [called]
    shapes = ShapeEvidence(ctx)
    sizing: set[str] = set()
    for parameter in parameter_names(outer):
        derived = derived_names({parameter}, nodes)
        if any(shapes.new_each_iteration(a, outer, derived) is not None for c in calls for a in c.args):
            sizing.add(parameter)
    return sizing


def _static_parameters(
    ctx: Context, outer: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, parent: ast.AST | None, called_now: bool
) -> set[str]:
    """The parameters of ``outer`` that the jitted function made by ``call`` is given as a static argument
    (``jitted_is = jax.jit(f, static_argnums=(3,))`` then ``jitted_is(key, xs, ys, n_particles)`` with
    ``n_particles`` a parameter, GenJAX's benchmark, case 295): JAX compiles once per static value, so each call of
    ``outer`` compiles for the value its caller gives, and a jit made once outside compiles as often when the calls
    pass a new value each (`Facts.differs_per_call`, or `_swept_per_pass`: ``for n in counts: timing(d, n)``)."""
    positions = {v for v in _constants(_keyword(call, "static_argnums")) if isinstance(v, int)}
    names = {v for v in _constants(_keyword(call, "static_argnames")) if isinstance(v, str)}
    if not positions and not names:
        return set()
    if called_now and isinstance(parent, ast.Call):
        calls = [parent]
    elif isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        calls = [n for n in ast.walk(outer)  # `def task(): return jitted(...)` nested in it too
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]
    else:
        return set()
    nodes = list(local_walk(ctx.program, outer))
    found: set[str] = set()
    for parameter in parameter_names(outer):
        derived = derived_names({parameter}, nodes)
        for jitted_call in calls:
            given = [a for i, a in enumerate(jitted_call.args) if i in positions]
            given += [k.value for k in jitted_call.keywords if k.arg in names]
            if any(isinstance(n, ast.Name) and n.id in derived for a in given for n in ast.walk(a)):
                found.add(parameter)
    return found


def _swept_per_pass(ctx: Context, outer: ast.FunctionDef | ast.AsyncFunctionDef, parameters: set[str]) -> bool:
    """Every call of ``outer`` is made in a ``for`` loop's body and passes, for one of ``parameters``, the loop's
    variable itself (``for n_particles in args.n_particles: timing(dataset, n_particles)``): each pass asks for the
    next value of a sweep."""
    sites = ctx.facts.call_sites(outer)
    positional = [a.arg for a in [*outer.args.posonlyargs, *outer.args.args]]
    if not sites:
        return False
    for site in sites:
        call, loop = ctx.program.parent(site), enclosing_loop(ctx.program, site)
        if not (isinstance(call, ast.Call) and call.func is site and isinstance(loop, (ast.For, ast.AsyncFor))):
            return False
        if enclosing_function(ctx.program, loop) is not enclosing_function(ctx.program, call):
            return False
        variables = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        given = {positional[i]: a for i, a in enumerate(call.args[: len(positional)])}
        given |= {k.arg: k.value for k in call.keywords if k.arg is not None}
        if not any(isinstance(value := given.get(p), ast.Name) and value.id in variables for p in parameters):
            return False
    return True


def _keyword(call: ast.Call, keyword: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _constants(node: ast.AST | None) -> list[object]:
    """``3`` -> [3]; ``(0, 3)`` -> [0, 3]; ``"n"`` -> ["n"]; anything else -> []."""
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def _enclosing_parameters(ctx: Context, node: ast.AST) -> set[str]:
    """The parameter names of the functions around ``node``."""
    names: set[str] = set()
    for scope in ctx.program.ancestors(node):
        if isinstance(scope, FUNCTIONS):
            args = scope.args
            names |= {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    return names


def _used_in_loop(program: Program, call: ast.Call, parent: ast.AST | None, called_now: bool) -> bool:
    if called_now:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        loop = enclosing_loop(program, call)
        name = parent.targets[0].id
        return any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in program.walk(loop)
        )
    return False


def _closure_reads(ctx: Context, outer: ast.AST, call: ast.Call) -> set[str]:
    """The names the jitted function made at ``call`` reads from ``outer``'s scope: those written in the call, and
    those read by the local defs it names, which close over them (``def loss_fn(p, x): return apply_fn(p, x)``,
    then ``jax.jit(jax.value_and_grad(loss_fn))``: the jitted function is made from ``apply_fn``, case 261). A
    def's own parameters are its arguments, not its closure."""
    read: set[str] = set()
    pending: list[ast.AST] = [call]
    visited: set[int] = set()
    while pending and len(visited) < 16:
        node = pending.pop()
        if id(node) in visited:
            continue
        visited.add(id(node))
        own = set(parameter_names(node)) if isinstance(node, FUNCTIONS) else set()
        for name in ast.walk(node):
            if not (isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load)) or name.id in own:
                continue
            read.add(name.id)
            function = ctx.facts.def_named(name.id, name)
            if function is not None and any(a is outer for a in ctx.program.ancestors(function)):
                pending.append(function)
    return read


def _fresh_per_call(ctx: Context, call: ast.Call, parent: ast.AST | None, called_now: bool) -> bool:
    outer = enclosing_function(ctx.program, call)
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) or outer.name in ("__init__", "setup"):
        return False
    if not _timed_here(ctx, outer) and not _runs_per_call(ctx, outer, call):
        return False
    read = _closure_reads(ctx, outer, call)
    if ctx.facts.differs_per_call(outer, read):
        return False  # `speedtest(scan_fn)`, `speedtest(dfx_fn)`: each call jits the function it is given, once
    static = _static_parameters(ctx, outer, call, parent, called_now)
    if ctx.facts.differs_per_call(outer, _sizing_parameters(ctx, outer, call, parent, called_now) | static):
        return False  # `timed(10000)`, `timed(30000)`: each call compiles for its own sizes or static values
    if static and _swept_per_pass(ctx, outer, static):
        return False  # `for n in counts: timing(data, n)`: each pass compiles for its own static value
    if called_now:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        returns = [n.value for n in local_walk(ctx.program, outer) if isinstance(n, ast.Return) and n.value is not None]
        return not any(isinstance(m, ast.Name) and m.id == name for value in returns for m in ast.walk(value))
    return False
