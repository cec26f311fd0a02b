"""Asynchronous work and what waits for it: JAX dispatch, ``block_until_ready``, copies to the host.

JAX returns from a call as soon as the work is queued. A timed region measures the work only if
something in it waits: ``block_until_ready()``, ``jax.block_until_ready``, or a conversion to a
host value (``np.asarray``, ``float``, ``.item()``, ``print``), which has to wait for the value.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._context import Context
from ._kinds import FUNCTION_TRANSFORMS, HOST_METHODS, call_kind
from ._names import JAX_LIBRARIES, NOT_PROJECT_MODULES, dotted
from ._regions import CLOCKS, TimedRegion
from ._syntax import (
    FUNCTIONS, bound_names, enclosing_function, enclosing_loop, local_walk, parameter_names, position, walk_code,
)

# Not `jax.effects_barrier()`: it waits for the side effects of dispatched work (`jax.debug.callback`, io_callback),
# not for results that have none (case 453, Keras's `quick_time.py`).
WAIT_FUNCTIONS = frozenset({"jax.block_until_ready", "jax.device_get"})
HOST_FUNCTIONS = frozenset(
    {
        "numpy.asarray", "numpy.array", "numpy.asanyarray", "numpy.ascontiguousarray", "builtins.float",
        "builtins.int", "builtins.bool", "builtins.complex", "builtins.print", "builtins.str", "builtins.repr",
        "builtins.list", "builtins.format", "builtins.tuple",
    }
)
_WAIT_METHODS = frozenset({"block_until_ready", "numpy"}) | HOST_METHODS


def is_wait(ctx: Context, call: ast.Call, _seen: frozenset[ast.AST] = frozenset()) -> bool:
    """``call`` waits for the values it is given (or, for a local function, waits inside)."""
    qualified = ctx.names.qualname(call.func)
    if qualified in WAIT_FUNCTIONS or qualified in HOST_FUNCTIONS:
        return not wraps_a_function(ctx, call)
    if isinstance(call.func, ast.Attribute) and call.func.attr in _WAIT_METHODS:
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr.startswith("print") \
            and ctx.facts.library_call(call) is not None:
        return True  # `mcmc.print_summary()` reads the samples to print them (numpyro#446, case 292)
    # `jax.tree.map(lambda a: a.block_until_ready(), out)`; not `jax.block_until_ready(f)(x)`, which calls `f`
    looked_at = [*call.args, *(k.value for k in call.keywords)]
    if not isinstance(call.func, ast.Call):
        looked_at.append(call.func)
    if any(isinstance(n, ast.Attribute) and n.attr == "block_until_ready"
           for part in looked_at for n in ctx.program.walk(part)):
        return True
    function = ctx.facts.local_def(call)
    if function is not None and function not in _seen and not runs_traced(ctx, call):
        seen = _seen | {function}
        # a helper defined once per branch of an `if` (a JAX and a PyTorch `sync`): the JAX branch's waits
        return any(isinstance(n, ast.Call) and is_wait(ctx, n, seen)
                   for d in [function, *ctx.facts.alternative_defs(function)] if d is function or d not in _seen
                   for n in local_walk(ctx.program, d))
    if isinstance(call.func, ast.Name) and _waiting_callables(ctx, call):
        return True
    if isinstance(call.func, ast.Subscript) and _held_waits(ctx, call.func):
        return True
    return _host_side_effect(ctx, call, qualified)


def _held_waits(ctx: Context, func: ast.Subscript) -> bool:
    """``fns["get"](x)`` where every function the container holds is a wait (``fns = {"get": jax.device_get}``): the
    call waits as ``jax.device_get(x)`` does, whichever element it takes (case 491's ``container`` variant)."""
    held = ctx.facts.callee_values(func)
    return bool(held) and all(
        isinstance(v, (ast.Name, ast.Attribute)) and ctx.names.qualname(v) in WAIT_FUNCTIONS | HOST_FUNCTIONS
        for v in held
    )


def runs_traced(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs its function through a JAX transform (``jax.vmap(solve)(x)``, or ``batched(x)`` of ``batched =
    jax.vmap(solve)``): the function sees tracers, so a wait inside it waits for nothing. JAX's
    ``block_until_ready`` hands a tracer back unchanged; the traced program is the same without it (checked on jax
    0.10.2 under ``jax.jit`` and ``jax.vmap``: same jaxpr), and the caller gets an array nothing waited for. A wait
    inside a traced function does not wait for its caller (ProbDiffEq's ``return jax.block_until_ready(solution.u)``
    inside ``@jax.jit``, case 393; a jitted callee is never read for waits at all)."""
    func = call.func
    if isinstance(func, ast.Call):
        values: list[ast.expr] = [func]
    elif isinstance(func, ast.Name):
        values = ctx.facts.bindings.values_at(func.id, func)
    else:
        return False
    return bool(values) and all(
        isinstance(v, ast.Call) and ctx.names.qualname(v.func) in FUNCTION_TRANSFORMS for v in values
    )


# Libraries whose calls queue work (or read nothing of their arguments' values) even when their result is dropped.
_ASYNC_OR_BLIND = ("jax.", "torch.", "time.", "gc.", "random.")


def _host_side_effect(ctx: Context, call: ast.Call, qualified: str | None) -> bool:
    """A function of another library called for its effect, its result dropped, given values of the program
    (``mjx.get_data_into(d, m, dx)``, ``pickle.dump(y, f)``, ``wandb.log({"loss": loss})``): JAX functions are
    pure, so a call made for its effect acts on the host, which needs the values it is given: it waits."""
    if qualified is None or qualified.startswith(_ASYNC_OR_BLIND):
        return False
    if call_kind(qualified) is not None and not qualified.startswith(JAX_LIBRARIES):
        return False  # an array function's dropped result; a JAX library's function called for its effect acts on the host
    if qualified.startswith("builtins."):
        return False
    if qualified.startswith(JAX_LIBRARIES) and _timed_by_a_magic(ctx, call):
        return False  # `%timeit lx.linear_solve(op, b)`: the harness drops every value it times; none says effect (470)
    return isinstance(ctx.program.parent(call), ast.Expr) and any(
        not isinstance(a, ast.Constant) for a in [*call.args, *(k.value for k in call.keywords)]
    )


def _timed_by_a_magic(ctx: Context, call: ast.Call) -> bool:
    """``call`` is the statement of a ``%timeit`` or ``%time`` line or cell, whose value the magic drops."""
    statement = ctx.program.parent(call)
    holder = ctx.program.parent(statement) if isinstance(statement, ast.Expr) else None
    magic = ctx.program.magic(holder) if isinstance(holder, ast.With) else None
    return magic is not None and magic.name in ("time", "timeit")


def pending_jax(ctx: Context, expr: ast.AST) -> ast.AST | None:
    """The outermost JAX computation in ``expr`` whose result nothing in ``expr`` waits for."""
    if isinstance(expr, (ast.Lambda, ast.Constant, ast.Name, ast.JoinedStr)):
        return None
    facts, kinds = ctx.facts, ctx.kinds
    if isinstance(expr, ast.Call):
        if returns_unawaited(ctx, facts.local_def(expr)):
            return expr  # it waits inside, then returns work it queued after: `while err > tol: ...; return g(v)`
        if is_wait(ctx, expr) or reads_a_waited_run(ctx, expr):
            return None
        if facts.calls_jax_callable(expr) or facts.is_flax_call(expr):
            return None if computes_nothing(ctx, expr) else expr
        if facts.keras_model_method(expr) == "__call__":
            return expr  # `llm(ids, training=False)` of a Keras model on JAX: JAX's arrays, as dispatched (case 453)
        library = facts.library_call(expr)
        if library is not None and library.pending:
            return expr  # `mcmc.run(key, X, Y)`: the samples are still being drawn when it returns (case 351)
        if library is not None and library.waits_as_it_goes:
            return None  # `result = svi.run(key, 2000)`, its bar on: every step read back, what it returns too
        passed = facts.passed_functions(expr)
        if any(facts.is_jax_transform(v) or facts.jitted_key_of(v) or _pending_callable(ctx, v) for v in passed):
            return expr  # bench(jax.grad(f)) ... df(x); timer(lambda: f(s)) ... fn()
        qualified = ctx.names.qualname(expr.func)
        if qualified is not None and call_kind(qualified) == "jax":
            return expr
        function = facts.local_def(expr)
        if function is not None and (function_runs_jax(ctx, function) or _runs_jax_as_called(ctx, function, expr)):
            return expr  # its result, or the last work it queued and returns nothing of
        if isinstance(expr.func, ast.Attribute) and kinds.of(expr.func.value) == "jax":
            return expr
        if isinstance(expr.func, (ast.Name, ast.Subscript, ast.IfExp, ast.Call, ast.Attribute)) \
                and kinds.of(expr) == "jax":
            return expr  # `ops["jax"](a, b)`, `for op in (jnp.dot, np.dot): op(a, b)`, `jax.vmap(f)(xs)`, `e.step(s)`
        children: list[ast.AST] = [] if _handed_to_code_not_shown(ctx, expr) else [*expr.args,
                                                                                   *(k.value for k in expr.keywords)]
        if isinstance(expr.func, ast.Attribute):
            children.insert(0, expr.func.value)
    elif isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Attribute)) and kinds.of(expr) == "jax":
        return expr
    else:
        children = list(ast.iter_child_nodes(expr))
    for child in children:
        if isinstance(child, ast.expr):
            found = pending_jax(ctx, child)
            if found is not None:
                return found
    return None


def _handed_to_code_not_shown(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a function imported from a module the file does not show (`Facts.imported_function`), which the
    model does not read as JAX: what it is handed is its input, used inside it (``Telescope.from_yaml(path,
    key=jax.random.key(42))``, iactrace's asv suite, case 506), and whether that code waits is not in the file (476's
    and 491's reading of code not shown). A value computed for it is not the timed work left pending."""
    return ctx.facts.imported_function(call.func) is not None


# A JAX library object's methods that hand back what its last run computed and stored on it (NumPyro's
# `mcmc.get_samples()`, `get_extra_fields()`): they queue no work of their own beyond the run's.
_STORED_RESULT_PREFIX = "get_"


def reads_a_waited_run(ctx: Context, call: ast.Call) -> bool:
    """``call`` reads the stored results of a JAX library object (`Facts.library_call`: ``mcmc.get_samples()``)
    after a call that waited for the object's last run (``mcmc.print_summary()``, which reads every sample on the
    host, numpyro#446), with no pending run of it between (`LibraryCall.pending`): the samples it returns were
    computed before that wait returned, so nothing is left pending (NumPyro's forecasting notebook, case 362, and
    ``hmcecs.py``'s ``run_hmc``, case 364). Calls on the same object in the same function (or at module level, in
    the same program) are read in program order."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr.startswith(_STORED_RESULT_PREFIX)
            and ctx.facts.library_call(call) is not None):
        return False
    owner = dotted(func.value)
    scope = enclosing_function(ctx.program, call) or ctx.program.module
    earlier = sorted(
        (n for n in local_walk(ctx.program, scope)
         if isinstance(n, ast.Call) and n is not call and isinstance(n.func, ast.Attribute)
         and dotted(n.func.value) == owner and position(n) < position(call)),
        key=position, reverse=True,
    )
    for other in earlier:
        if (run := ctx.facts.library_call(other)) is not None and run.pending:
            return False
        if is_wait(ctx, other):
            return True
    return False


def computes_nothing(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a jitted local def whose body does no array work: ``pass``, or ``return`` of its own parameters
    (Flax's graph-overhead benchmark: ``@nnx.jit def step_nnx(model, optimizer): pass``, ``@jax.jit def
    step_jax(graphdef, state): return graphdef, state``, case 319). Its program computes nothing (JAX forwards an
    input returned as is), so the call's time is dispatch, all there is to time; no device work is left to wait for."""
    function = ctx.facts.function_of(call.func)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [s for s in function.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))]
    parameters = set(parameter_names(function))
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Return):
            value = statement.value
            parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
            if all(p is None or (isinstance(p, ast.Constant) and p.value is None)
                   or (isinstance(p, ast.Name) and p.id in parameters) for p in parts):
                continue
        return False
    return True


def _pending_callable(ctx: Context, value: ast.expr) -> bool:
    """Calling the function value ``value`` (what a caller passes for a parameter) returns JAX work nothing in it
    waits for: a lambda whose body is such work (``timer(lambda: f(s))``), not one that waits
    (``timer(lambda: jax.block_until_ready(f(s)))``); a local def as its direct call is read."""
    function = ctx.facts.function_of(value) if not isinstance(value, ast.Lambda) else value
    if isinstance(function, ast.Lambda):
        return function is value and pending_jax(ctx, function.body) is not None
    if function is None or not isinstance(value, ast.Name):
        return False
    if returns_unawaited(ctx, function):
        return True
    if any(isinstance(n, ast.Call) and is_wait(ctx, n) for n in local_walk(ctx.program, function)):
        return False
    return function_runs_jax(ctx, function)


def _waiting_callables(ctx: Context, call: ast.Call) -> bool:
    """``call`` calls a parameter, and every function value the file passes for it waits for what it computes:
    ``timer(lambda: jax.block_until_ready(f(s)))`` makes the helper's ``fn()`` a wait. A local function handed by
    name counts when its body waits (``def sync(out): out.block_until_ready()``) or synchronizes CUDA (the PyTorch
    rows' ``sync``, handed to the same helper): ``bench(fn, x, sync=sync)``'s ``sync(out)`` after the timed call
    (Keras's ``benchmarks/bench.py``, case 452). ``None``, a parameter's default, is no function and waits for
    nothing, so ``if sync: sync(out)`` waits exactly when a function is handed."""
    passed = [v for v in ctx.facts.parameter_values(call.func) or [] if not _is_none(v)]
    if not passed:
        return False
    if all(isinstance(v, ast.Lambda) for v in passed):
        return all(_waits_when_called(ctx, v) for v in passed)
    return all(_waits_when_called(ctx, v) for v in passed) and _handed_at_every_site(ctx, call.func)


def _handed_at_every_site(ctx: Context, func: ast.expr) -> bool:
    """Every call of the function whose parameter ``func`` is hands it a value (by position or keyword): a call that
    leaves it to its default (``bench(f, x)`` of ``def bench(fn, *args, sync=None)``) runs the timing unwaited."""
    if not isinstance(func, ast.Name):
        return False
    function = next((a for a in ctx.program.ancestors(func) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and func.id in parameter_names(a)), None)
    if function is None:
        return False
    positional = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    index = positional.index(func.id) if func.id in positional else None
    for site in ctx.facts.call_sites(function):
        outer = ctx.program.parent(site)
        if not (isinstance(outer, ast.Call) and outer.func is site):
            return False  # handed on or called another way: what it is given there is not shown
        by_position = index is not None and index < len(outer.args) and not any(
            isinstance(a, ast.Starred) for a in outer.args[: index + 1])
        if not by_position and not any(k.arg == func.id for k in outer.keywords):
            return False
    return True


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _waits_when_called(ctx: Context, value: ast.expr) -> bool:
    """The function ``value`` (a lambda, or a local def by name) waits for the work queued before it returns."""
    if isinstance(value, ast.Lambda):
        return isinstance(value.body, ast.Call) and is_wait(ctx, value.body)
    function = ctx.facts.def_named(value.id, value) if isinstance(value, ast.Name) else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return any(
        isinstance(n, ast.Call) and (is_wait(ctx, n, frozenset({function})) or synchronizes_cuda(ctx, n))
        for n in local_walk(ctx.program, function)
    )


def handed_work_unawaited(ctx: Context, region: TimedRegion) -> ast.Call | None:
    """In a library function that times a callable it is handed (a timing helper, or a decorator's wrapper
    timing the function it decorates) and waits for nothing: the call of that callable, when the file is JAX code
    (`Facts.jax_code`) and no call site in it says what is passed. Its callers hand it their JAX functions, and
    whatever they hand, the clock stops before the work it queued is done: the finding holds whatever they do.

        def timed(fun):
            def wrapper(*args):
                with timed_scope(fun.__name__):
                    return fun(*args)       # <- this call
            return wrapper
    """
    if not ctx.facts.jax_code:
        return None
    calls = ctx.timed_calls(region)
    if any(is_wait(ctx, c) for c in calls) or only_logs_its_interval(ctx, region):
        return None
    return next(
        (c for c in calls if isinstance(c.func, ast.Name) and ctx.facts.parameter_values(c.func) == []), None
    )


# torch's profiler ranges: what runs inside one is torch work the profiler's trace names (`record_function(name)`)
_TORCH_RANGES = frozenset({"torch.profiler.record_function", "torch.autograd.profiler.record_function"})


def handed_torch_work(ctx: Context, region: TimedRegion) -> list[ast.Call]:
    """In a timer of a callable it is handed (a decorator's wrapper, a timing helper), the calls of that callable
    that run inside a torch profiler range (``with torch.profiler.record_function(name): result = func(*args)``),
    when no call site in the file says what is passed and the interval is not only logged: by the code's own account
    the callable is torch work, the operations the profile names. Where the file puts work on CUDA, the clock stops
    before that work is done whatever the callers hand it (triton-lang/kernels' ``Profiler.profiling_decorator``,
    case 335; the torch side of case 186's reading)."""
    if only_logs_its_interval(ctx, region):
        return []
    return [
        c for c in ctx.timed_calls(region)
        if isinstance(c.func, ast.Name) and ctx.facts.parameter_values(c.func) == [] and _in_torch_range(ctx, c)
    ]


def _in_torch_range(ctx: Context, node: ast.AST) -> bool:
    """A ``with`` of a torch profiler range (`_TORCH_RANGES`) encloses ``node``, or decorates its function."""
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, (ast.With, ast.AsyncWith)) and any(
            isinstance(i.context_expr, ast.Call) and ctx.names.qualname(i.context_expr.func) in _TORCH_RANGES
            for i in ancestor.items
        ):
            return True
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return any(
                ctx.names.qualname(d.func if isinstance(d, ast.Call) else d) in _TORCH_RANGES
                for d in ancestor.decorator_list
            )
    return False


def handed_functions_unawaited(ctx: Context, region: TimedRegion) -> list[ast.expr]:
    """The arguments, at the call sites of a timing helper, that hand the callable it times a function which queues
    JAX work, returns nothing and waits for nothing (neurlang's ``time_results("Jax slow", jax_function_slow())``,
    the factory's ``def time_func(): res = values * values + values * 2``, timed by ``timeit.timeit(func, ...)``).
    The clock stops when the call returns, before that work is done; and since the function returns nothing, a wait
    the helper might add on its result waits for nothing either. Reported at the argument: the helper is sound for
    the other values it is handed (NumPy's, PyTorch's, a jitted function's). A jitted function that returns nothing
    is LB107's (XLA drops its work), not this; a region that waits for anything is not read."""
    work = list(walk_code(ctx.program, list(region.work)))
    if any(isinstance(n, ast.Call) and is_wait(ctx, n) for n in work):
        return []
    found: list[ast.expr] = []
    for call in ctx.timed_calls(region):
        for value in ctx.facts.parameter_values(call.func) or ():
            if isinstance(value, ast.Lambda) or value in found:
                continue
            function = ctx.facts.function_of(value)
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function in ctx.facts.jitted_defs:
                continue
            if ctx.kinds.returned(function) is not None or any(
                isinstance(n, ast.Return) and n.value is not None for n in local_walk(ctx.program, function)
            ):
                continue  # it returns something: whether the helper waits for it is `unawaited_jax`'s question
            if unawaited_jax(ctx, tuple(function.body)) is not None:
                found.append(value)
    return found


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def only_logs_its_interval(ctx: Context, region: TimedRegion) -> bool:
    """The code that reads the region's clocks (its ``with`` manager, or the function around a clock pair) only writes
    the interval to a log (``logging.info("%s finished after %.2fs", name, dt)``, clu's ``log_activity``): a progress
    line about an activity, not a measurement the library keeps or hands back (netket's ``Timer.total``). Found
    once per region (`Context.per_region`): LB102, LB103 and LB104 each ask."""
    return ctx.per_region("effects: only logs its interval", region, _only_logs_its_interval)


def _only_logs_its_interval(ctx: Context, region: TimedRegion) -> bool:
    anchor = region.anchor
    callee = anchor.func if isinstance(anchor, ast.Call) else anchor
    holder = ctx.facts.def_named(callee.id, anchor) if isinstance(callee, ast.Name) else None
    if holder is None:
        holder = region.scope
    if holder is None:
        return False
    nodes = list(local_walk(ctx.program, holder))
    clocks = {id(n) for n in nodes if isinstance(n, ast.Call) and ctx.names.qualname(n.func) in CLOCKS}
    read = {
        t.id for n in nodes if isinstance(n, ast.Assign) and id(n.value) in clocks
        for t in n.targets if isinstance(t, ast.Name)
    }
    intervals = [
        n for n in nodes if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
        and any(id(side) in clocks or (isinstance(side, ast.Name) and side.id in read) for side in (n.left, n.right))
    ]
    if not intervals:
        return False
    for interval in intervals:
        parent = ctx.program.parent(interval)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            name = parent.targets[0].id
            uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        else:
            uses = [interval]
        if not uses or not all(_logged(ctx, use) for use in uses):
            return False
    return True


def _logged(ctx: Context, node: ast.AST) -> bool:
    """``node`` is an argument of a logging call: ``logging.info(...)``, ``absl.logging``, ``logger.warning(...)``."""
    for outer in ctx.program.ancestors(node):
        if isinstance(outer, ast.Call):
            qualified = ctx.names.qualname(outer.func) or ""
            if qualified.startswith(("logging.", "absl.logging.")):
                return True
            func = outer.func
            return isinstance(func, ast.Attribute) and func.attr in _LOG_METHODS and "log" in (dotted(func.value) or "")
        if isinstance(outer, ast.stmt):
            return False
    return False


def returns_unawaited(ctx: Context, function: ast.AST | None) -> bool:
    """A local function whose result is JAX work it queued after everything it waited for, so a wait inside it
    (a loop reading back an error, a print) does not wait for what it returns: ``return get_greedy(v)``, or
    ``pi = get_greedy(v)`` with nothing touching ``pi`` before ``return v, pi``. Only the function's last
    statement and straight-line assignments at its top level are read, and only calls count as queued work (a field of
    a result already waited for is not); anything else is not known to be pending."""
    if function is None:
        return False
    cache: dict[int, bool] = ctx.index("effects: returns unawaited JAX", dict)
    key = id(function)
    if key not in cache:
        cache[key] = False  # a recursive function asks about itself: not known while it is being decided
        cache[key] = _returns_unawaited(ctx, function)
    return cache[key]


def _returns_unawaited(ctx: Context, function: ast.AST) -> bool:
    body = getattr(function, "body", None)
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return False
    returned = body[-1].value
    if isinstance(pending_jax(ctx, returned), ast.Call):  # new work; `solution.stats["n"]` of finished work is not
        return True
    names = [returned] if isinstance(returned, ast.Name) else list(getattr(returned, "elts", ()))
    for name in names:
        if not isinstance(name, ast.Name):
            continue
        for k in range(len(body) - 2, -1, -1):
            stmt = body[k]
            if not any(isinstance(n, ast.Name) and n.id == name.id for n in walk_code(ctx.program, [stmt])):
                continue
            assigned = isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name.id for t in stmt.targets
            )
            if assigned and isinstance(pending_jax(ctx, stmt.value), ast.Call):  # type: ignore[union-attr]
                return True
            break  # the nearest statement that mentions it decides: a use or a compound assignment is not known
    return False


def function_runs_jax(ctx: Context, function: ast.AST) -> bool:
    """The local def or lambda ``function`` computes in JAX: it returns a JAX value, or queues JAX work and returns
    nothing a caller could wait on (`dispatches_jax`). The JAX-only reading of `Context.function_works`, which
    counts any framework's work."""
    return ctx.kinds.returned(function) == "jax" or dispatches_jax(ctx, function)


def callable_runs_jax(ctx: Context, function: ast.expr) -> bool:
    """Calling the function value ``function`` runs JAX: a JAX library function (``jnp.dot``), a transform applied
    (``jax.grad(f)``), a jitted function, or a local function that computes in JAX (`function_runs_jax`). What a
    ``functools.partial`` of it binds is handed to JAX."""
    qualified = ctx.names.qualname(function)
    if qualified is not None:
        return call_kind(qualified) == "jax" or qualified.startswith("jax.")
    if isinstance(function, ast.Call):
        return ctx.facts.is_jax_transform(function)
    if isinstance(function, ast.Name):
        local = ctx.facts.def_named(function.id, function)
        if local is not None:
            return local in ctx.facts.jitted_defs or function_runs_jax(ctx, local)
        return ctx.facts.jitted_key_of(function) is not None
    return False


def dispatches_jax(ctx: Context, function: ast.AST, _seen: frozenset[ast.AST] = frozenset()) -> bool:
    """A local function that queues JAX work and returns nothing a caller could wait on (or a host value
    it did not wait for): ``def run(): for ...: y = jnp.sin(x)``."""
    if ctx.kinds.returned(function) is not None:
        return False
    for node in local_walk(ctx.program, function):
        if not isinstance(node, ast.Call):
            continue
        if ctx.facts.calls_jax_callable(node) or call_kind(ctx.names.qualname(node.func) or "") == "jax":
            if _handed_on(ctx, function, node):
                continue
            return True
        inner = ctx.facts.local_def(node)
        if inner is not None and inner not in _seen and dispatches_jax(ctx, inner, _seen | {function}):
            return True
    return False


def _handed_on(ctx: Context, function: ast.AST, call: ast.Call) -> bool:
    """``call``'s result is handed to a later call the model cannot read (llama-2-jax's ``key, subkey =
    rand.split(key)`` then ``generate(sentences, tokenizer, params, ..., key=subkey)``, imported from the project):
    that call consumes the JAX value, and whether its own result is pending is its question, not this one's (case
    326, whose ``generate`` returns decoded strings). A later JAX call that reads it is judged itself."""
    names = _assigned_names(ctx, call)
    if not names:
        return False
    readers = [
        n for n in local_walk(ctx.program, function)
        if isinstance(n, ast.Call) and n is not call and position(n) > position(call)
        and any(_reads(a, name) for a in [*n.args, *(k.value for k in n.keywords)] for name in names)
    ]
    return bool(readers) and all(
        not (ctx.facts.calls_jax_callable(r) or call_kind(ctx.names.qualname(r.func) or "") == "jax")
        and not (ctx.names.qualname(r.func) or "jax.").startswith(("jax.", *JAX_LIBRARIES))
        and ctx.kinds.of(r) is None and ctx.facts.local_def(r) is None
        for r in readers
    )


def _runs_jax_as_called(ctx: Context, function: ast.AST, call: ast.Call) -> bool:
    """The module-level ``function`` computes in JAX when module-level code runs it at ``call``, and waits for none
    of it: it calls through a global name the file imports as several modules, and at ``call`` the import in
    effect is JAX's (`Bindings.module_in_effect`). ``def test_func(): np.ones((10, 10)).ravel()`` timed after
    ``import numpy as np`` runs NumPy, after ``import jax.numpy as np`` JAX (jax-ml/jax#193, case 013)."""
    if enclosing_function(ctx.program, function) is not None:
        return False
    walked = list(local_walk(ctx.program, function))
    if any(isinstance(n, ast.Call) and is_wait(ctx, n) for n in walked):
        return False
    own = bound_names(function) | parameter_names(function)
    for node in walked:
        path = dotted(node.func) if isinstance(node, ast.Call) else None
        root, _, rest = (path or "").partition(".")
        if not rest or root in own:
            continue
        module = ctx.facts.bindings.module_in_effect(root, call)
        if module is not None and call_kind(f"{module}.{rest}") == "jax":
            return True
    return False


def timed_values(work: tuple[ast.AST, ...]) -> Iterator[ast.expr]:
    """The expressions whose values a timed region computes, statement by statement, in order."""
    for item in work:
        if isinstance(item, ast.expr):
            yield item
            continue
        if isinstance(item, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
            if item.value is not None:
                yield item.value
        elif isinstance(item, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try)):
            yield from timed_values(tuple(getattr(item, "body", [])))
            yield from timed_values(tuple(getattr(item, "orelse", [])))


def unawaited_jax(ctx: Context, work: tuple[ast.AST, ...], also_waiting: tuple[ast.AST, ...] = (),
                  last_passes: bool = False) -> ast.AST | None:
    """The first JAX computation in ``work`` that nothing after it (in ``work`` or ``also_waiting``) waits for.

    A result that later timed JAX work reads (``x = jnp.asarray(a)`` then ``y = f(x)``) is that work's input: the
    later computation is the one left pending, so the finding goes there.

    A wait inside the computation's own arguments runs before it and waits for nothing it queues:
    ``jnp.array(list(range(n)))`` builds its host list first, then returns a device array nobody waits for.

    ``last_passes``: a wait on some passes only of a loop the work holds whole does not wait for the passes after it
    (`_waits_on_some_passes_of_a_timed_loop`); asked for a measurement, not for a progress line about an activity."""
    waits = [
        n
        for n in walk_code(ctx.program, [*work, *also_waiting])
        if isinstance(n, ast.Call) and is_wait(ctx, n) and _waits_on_something(ctx, n)
    ]
    pending = [(value, found) for value in timed_values(work) if (found := pending_jax(ctx, value)) is not None]
    stored = {n.id for node in work for n in walk_code(ctx.program, [node])
              if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    # run order: the work's statements as listed (a pass carried over a loop's end runs its tail first, case 401),
    # then position within one statement; the waits `also_waiting` holds run after all of the work
    item_of = {id(n): k for k, item in enumerate(work) for n in walk_code(ctx.program, [item])}

    def run_order(node: ast.AST) -> tuple[int, tuple[int, int]]:
        return item_of.get(id(node), len(work)), position(node)

    for k, (value, found) in enumerate(pending):
        if any(run_order(w) > run_order(found) and not _evaluated_before(ctx, w, found)
               and not _waits_on_its_input(ctx, w, found, stored)
               and not _waits_on_an_earlier_pass(ctx, w, found)
               and not (last_passes and _waits_on_some_passes_of_a_timed_loop(ctx, w, found, work)) for w in waits):
            continue
        if stored_to_host(ctx, value):
            continue
        names = _assigned_names(ctx, value)
        if any(_reads(later, name) and not _on_some_passes(ctx, later, found)
               for later, _ in pending[k + 1 :] for name in names):
            continue
        return found
    return None


def _waits_on_an_earlier_pass(ctx: Context, wait: ast.Call, computation: ast.AST) -> bool:
    """``computation`` runs on every pass of a loop, and ``wait``, after the loop, reads only values the loop binds under
    a condition (``if step % 1000 == 0: state, logs = test_step(state, data)``, then ``print(logs['loss'])`` once the
    loop is done): the value waited for comes from some pass, not necessarily the last, and the work the passes after
    it queue is carried from one pass to the next with nothing waiting for it (case 359: the 999 train steps after the
    last test step, outside the figure). A value the loop binds on every pass is its last pass's, and waits for it."""
    loop = enclosing_loop(ctx.program, computation)
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or wait.lineno <= (loop.end_lineno or loop.lineno):
        return False
    if _under_a_condition(ctx, computation, loop):
        return False
    read = {n.id for a in [*wait.args, *(k.value for k in wait.keywords)] for n in ast.walk(a)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if isinstance(wait.func, ast.Attribute) and ctx.names.qualname(wait.func) is None:  # `logs.block_until_ready()`
        read |= {n.id for n in ast.walk(wait.func.value) if isinstance(n, ast.Name)}
    if not read:
        return False
    for name in read:
        bound = [n for n in walk_code(ctx.program, loop.body)
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name]
        if not bound or not all(_under_a_condition(ctx, n, loop) for n in bound):
            return False
    return True


def _waits_on_some_passes_of_a_timed_loop(ctx: Context, wait: ast.Call, computation: ast.AST,
                                          work: tuple[ast.AST, ...]) -> bool:
    """``wait`` runs on some passes only (``if step < 10 or step % 10 == 0: print(f'{loss:.4f}')``) of a loop that the
    timing holds whole, and ``computation`` on every pass: the passes after the last one that reads back queue work
    nothing waits for before the end read (texmo's GRU benchmark, the last nine steps, case 519 (was 493); 162's reading of
    results still queued after a loop's last read-back). A wait on every pass, or after the loop, still waits."""
    loop = enclosing_loop(ctx.program, computation)
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    if not any(item is loop or any(a is item for a in ctx.program.ancestors(loop)) for item in work):
        return False
    if not (any(a is loop for a in ctx.program.ancestors(wait)) and _under_a_condition(ctx, wait, loop)
            and not _under_a_condition(ctx, computation, loop)):
        return False
    branch = next(a for a in ctx.program.ancestors(wait) if isinstance(a, (ast.If, ast.ExceptHandler, ast.IfExp)))
    # a figure read on the same passes as the wait (``if i % 100 == 0: print(loss); print(time.time() - start)``,
    # case 258) holds only what that wait waits for
    starts = {t.id for r in ctx.regions if isinstance(parent := ctx.program.parent(r.anchor), ast.Assign)
              for t in parent.targets if isinstance(t, ast.Name)}
    return not any(
        (isinstance(n, ast.Call) and ctx.names.qualname(n.func) in CLOCKS)
        or (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and isinstance(n.right, ast.Name)
            and n.right.id in starts)
        for n in ast.walk(branch)
    )


def _on_some_passes(ctx: Context, later: ast.AST, computation: ast.AST) -> bool:
    """``later`` runs only on some passes of the loop that runs ``computation`` on every pass (``if step % 1000 == 0:
    test_step(state, ...)`` beside ``state = train_step(state, batch)``): it reads the passes it runs on, not the
    last one's result."""
    loop = enclosing_loop(ctx.program, computation)
    return (loop is not None and any(a is loop for a in ctx.program.ancestors(later))
            and _under_a_condition(ctx, later, loop) and not _under_a_condition(ctx, computation, loop))


def _under_a_condition(ctx: Context, node: ast.AST, loop: ast.AST) -> bool:
    """``node`` sits in an ``if`` (or a ``try``'s handler) inside ``loop``: it does not run on every pass."""
    for ancestor in ctx.program.ancestors(node):
        if ancestor is loop:
            return False
        if isinstance(ancestor, (ast.If, ast.ExceptHandler, ast.IfExp)):
            return True
    return False


def _waits_on_its_input(ctx: Context, wait: ast.Call, computation: ast.AST, stored: set[str]) -> bool:
    """``jit_step(None, rng)`` then ``jax.block_until_ready(rng)`` (case 327): the wait blocks on a value the
    computation is handed and the timed work never rebinds, which was ready before the clock started; the
    computation's result is dropped and nothing waits for it. Only ``block_until_ready`` of plain names: a host copy
    (``print(x)``) or a value the timed work rebinds (``state = step(state)``) may be the result itself."""
    if ctx.names.qualname(wait.func) == "jax.block_until_ready":
        waited = list(wait.args)
    elif isinstance(wait.func, ast.Attribute) and wait.func.attr == "block_until_ready" and not wait.args:
        waited = [wait.func.value]
    else:
        return False
    if not waited or not all(isinstance(v, ast.Name) for v in waited):
        return False
    if not isinstance(computation, ast.Call):
        return False
    given = {n.id for a in [*computation.args, *(k.value for k in computation.keywords)]
             for n in ast.walk(a) if isinstance(n, ast.Name)}
    return all(v.id in given and v.id not in stored for v in waited)


def stored_to_host(ctx: Context, value: ast.AST) -> bool:
    """``value`` is stored into an element of a NumPy array (``z_loops[i, j] = f(x[i], y[j])``): NumPy copies it to the
    host on the spot, which waits for the computation, as ``float(...)`` does (QuantEcon's jax_intro double loop,
    cases 311 and 322)."""
    parent = ctx.program.parent(value)
    if not isinstance(parent, ast.Assign) or parent.value is not value:
        return False
    return all(isinstance(t, ast.Subscript) and ctx.kinds.of(t.value) == "numpy" for t in parent.targets)


def _evaluated_before(ctx: Context, wait: ast.Call, computation: ast.AST) -> bool:
    """``wait`` is part of ``computation``'s own arguments (not in a function value it is handed), so Python
    evaluates it before ``computation`` starts."""
    for ancestor in ctx.program.ancestors(wait):
        if isinstance(ancestor, FUNCTIONS):
            return False
        if ancestor is computation:
            return True
    return False


def _assigned_names(ctx: Context, value: ast.AST) -> list[str]:
    """``x`` for the value of ``x = ...``; every name an unpacking binds for ``key, step_key = jax.random.split(key)``
    (a key split feeds the step that reads ``step_key``: the step is the work left pending, case 309); none for any
    other target or statement."""
    parent = ctx.program.parent(value)
    if not isinstance(parent, ast.Assign) or len(parent.targets) != 1:
        return []
    target = parent.targets[0]
    if isinstance(target, ast.Name):
        return [target.id]
    if not isinstance(target, (ast.Tuple, ast.List)):
        return []
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _reads(expr: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(expr))


def wraps_a_function(ctx: Context, call: ast.Call) -> bool:
    """``jax.block_until_ready(f)`` of a function: it blocks on the array leaves of a pytree, a function has none,
    so it returns ``f`` unchanged and nothing waits (``benchmark(jax.block_until_ready(jax.vmap(f)), x)``,
    ``g = jax.block_until_ready(f_jit)``). Its argument is a function value, or the call is itself called."""
    if ctx.names.qualname(call.func) != "jax.block_until_ready" or len(call.args) != 1:
        return False
    parent = ctx.program.parent(call)
    if isinstance(parent, ast.Call) and parent.func is call:
        return True
    argument, facts = call.args[0], ctx.facts
    if isinstance(argument, ast.Call) and ctx.names.qualname(argument.func) in FUNCTION_TRANSFORMS:
        return True
    return facts.jitted_key_of(argument) is not None or facts.function_of(argument) is not None


def _waits_on_something(ctx: Context, call: ast.Call) -> bool:
    """``print("done")`` waits for nothing; ``print(y)`` or ``y.block_until_ready()`` does; so does
    ``jax.block_until_ready(f)`` of a function (`wraps_a_function`)."""
    if wraps_a_function(ctx, call):
        return False
    if isinstance(call.func, ast.Attribute):
        return True
    return any(not isinstance(a, ast.Constant) for a in [*call.args, *(k.value for k in call.keywords)])


# PyTorch operations that wait for the device themselves when their input is on CUDA, as their documentation says:
# torch.linalg's functions that check their results on the host ("When inputs are on a CUDA device, this function
# synchronizes that device with the CPU"; the `_ex` variants only with `check_errors=True`), and `torch.nonzero` /
# `torch.argwhere` ("causes host-device synchronization": the size of the result is read back).
TORCH_SYNCHRONIZING = frozenset(
    f"torch.linalg.{name}"
    for name in ("cholesky", "inv", "solve", "lu_factor", "ldl_factor", "eig", "eigvals", "eigh", "eigvalsh",
                 "matrix_rank", "svdvals", "pinv")
) | {"torch.nonzero", "torch.argwhere"}
_TORCH_SYNCHRONIZING_IF_CHECKED = frozenset(
    f"torch.linalg.{name}_ex" for name in ("cholesky", "inv", "solve", "lu_factor", "ldl_factor")
)
# Methods of a tensor that read its values (or the size of a result) back to the host.
_TORCH_SYNCHRONIZING_METHODS = frozenset({"nonzero", "argwhere", "item", "tolist", "cpu", "numpy"})


def synchronizes_cuda(ctx: Context, call: ast.Call) -> bool:
    """``call`` makes the host wait for the CUDA work queued before it, as ``torch.cuda.synchronize()`` does: a
    synchronize or an event's ``elapsed_time``, an operation PyTorch documents as synchronizing
    (``torch.linalg.eigh`` on a CUDA tensor, `TORCH_SYNCHRONIZING`), or a copy of a tensor's values to the host
    (``.item()``, ``.tolist()``, ``.cpu()``, ``.numpy()``, ``float(t)``, ``print(t)``)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("synchronize", "elapsed_time"):
        return True
    qualified = ctx.names.qualname(func)
    if _named_a_synchronize(ctx, call, qualified):
        return True
    if qualified in TORCH_SYNCHRONIZING:
        return True
    if qualified in _TORCH_SYNCHRONIZING_IF_CHECKED:
        return any(k.arg == "check_errors" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                   for k in call.keywords)
    if isinstance(func, ast.Attribute) and func.attr in _TORCH_SYNCHRONIZING_METHODS:
        return ctx.kinds.of(func.value) == "torch"
    if qualified == "builtins.print":
        return any(ctx.kinds.of(part) == "torch" for part in printed_values(call))
    copied = is_host_copy(ctx, call)
    return copied is not None and ctx.kinds.of(copied) == "torch"


def _named_a_synchronize(ctx: Context, call: ast.Call, qualified: str | None) -> bool:
    """``synchronize_torch(device)``, ``cuda_sync()``, imported from the project's own modules: a function the file
    does not show, whose name (its own, not an alias's) says it synchronizes. The file cannot show its body, so its
    name is the best account of it; a local def is read through its body instead (``sync_mps_if_needed`` may not
    wait for CUDA), and a known library's function is judged by what it is."""
    if qualified is None or ctx.facts.local_def(call) is not None:
        return False
    if qualified.split(".")[0] in NOT_PROJECT_MODULES:
        return False
    words = qualified.rsplit(".", 1)[-1].lower().split("_")
    return any(w in ("synchronize", "sync", "synchronise") for w in words)


def printed_values(call: ast.Call) -> Iterator[ast.AST]:
    """The values a ``print`` formats: its arguments, and the fields of the f-strings among them."""
    for argument in call.args:
        if isinstance(argument, ast.JoinedStr):
            yield from (v.value for v in argument.values if isinstance(v, ast.FormattedValue))
        else:
            yield argument


def is_host_copy(ctx: Context, call: ast.Call) -> ast.AST | None:
    """The device value ``call`` copies to the host (``np.asarray(y)``, ``y.item()``, ``float(y)``), if any."""
    qualified = ctx.names.qualname(call.func)
    if qualified in HOST_FUNCTIONS - {"builtins.print", "builtins.str", "builtins.repr", "builtins.format"} | {
        "jax.device_get"
    }:
        if call.args and ctx.kinds.of(call.args[0]) in ("jax", "torch"):
            return call.args[0]
        return None
    if qualified == "builtins.print":  # print(y), print(f"{y}"): formatting a device array copies it
        return next((part for part in printed_values(call) if ctx.kinds.of(part) == "jax"), None)
    if qualified is not None and qualified.startswith("numpy.") and not qualified.startswith("numpy.random."):
        for argument in call.args:  # np.linalg.solve(A, b) on device arrays: NumPy copies them first
            if ctx.kinds.of(argument) == "jax":
                return argument
        return None
    if isinstance(call.func, ast.Attribute) and call.func.attr in (HOST_METHODS | {"numpy", "cpu"}):
        receiver = call.func.value
        kind = ctx.kinds.of(receiver)
        if kind == "jax" and call.func.attr in HOST_METHODS:
            return receiver
        if kind == "torch":
            return receiver
    return None


def feeds_a_host_step(ctx: Context, copy: ast.Call) -> bool:
    """``copy`` reads a JAX result back for host code in a loop whose result the loop's JAX work reads again: a host
    step of the pipeline the loop runs (gymnax-blines' NumPy baseline, case 388: ``action = apply_fn(params, obs, k)``
    then ``obs, reward, done, _ = envs.step(action.tolist())``, a gym environment on the host fed by a jitted policy).
    The host needs the value to take its step, and its result is the next pass's JAX input: the copy is part of what
    the loop measures, not a read the timing could move out. ``copy`` may be the step's argument itself, or bound to a
    name the step is handed (``a = np.asarray(action)``, then ``env.step(a)``)."""
    loop = enclosing_loop(ctx.program, copy)
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    parent = ctx.program.parent(copy)
    if isinstance(parent, ast.keyword):  # `envs.step(actions=action.tolist())`
        parent = ctx.program.parent(parent)
    handed: list[ast.Call] = []
    if isinstance(parent, ast.Call) and copy in (*parent.args, *(k.value for k in parent.keywords)):
        handed.append(parent)
    elif isinstance(parent, ast.Assign) and parent.value is copy:
        names = {n.id for t in parent.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        handed += [
            c for c in walk_code(ctx.program, loop.body)
            if isinstance(c, ast.Call) and position(c) > position(copy) and any(
                isinstance(n, ast.Name) and n.id in names for a in [*c.args, *(k.value for k in c.keywords)]
                for n in ast.walk(a))
        ]
    return any(_host_step_feeds_jax(ctx, step, loop) for step in handed)


def _host_step_feeds_jax(ctx: Context, step: ast.Call, loop: ast.AST) -> bool:
    """``step`` runs on the host (neither JAX work nor a conversion) and binds names that JAX work in ``loop`` reads."""
    if ctx.kinds.of(step) == "jax" or pending_jax(ctx, step) is not None or is_host_copy(ctx, step) is not None \
            or is_wait(ctx, step):
        return False
    statement = ctx.program.parent(step)
    if not (isinstance(statement, ast.Assign) and statement.value is step):
        return False
    bound = {n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return any(
        isinstance(c, ast.Call) and c is not step and pending_jax(ctx, c) is not None
        and any(isinstance(n, ast.Name) and n.id in bound for a in [*c.args, *(k.value for k in c.keywords)]
                for n in ast.walk(a))
        for c in walk_code(ctx.program, loop.body)  # type: ignore[attr-defined]
    )


def calls_run_inside(ctx: Context, call: ast.Call, depth: int = 3) -> Iterator[ast.Call]:
    """The calls the local functions ``call`` runs make, as it runs them, down ``depth`` levels: its callee's own
    body, or, when ``call`` calls a parameter (``def _run(): func()`` inside ``_run_benchmarks(benchmark, kind,
    func)``), the bodies of the local functions and lambdas every call site the file shows hands that parameter
    (JAX-GalSim's ``_run_benchmarks(benchmark, kind, _run)``, case 404). A jitted function's body is traced, not
    run call by call, so it is not entered: what it calls is no timed call of its own."""
    functions = _functions_called(ctx, call)
    seen: set[int] = {id(call)}
    while functions and depth > 0:
        depth -= 1
        found: list[ast.AST] = []
        for function in functions:
            if function in ctx.facts.jitted_defs or id(function) in seen:
                continue
            seen.add(id(function))
            body = [function.body] if isinstance(function, ast.Lambda) else function.body  # type: ignore[attr-defined]
            for node in walk_code(ctx.program, body):
                if isinstance(node, ast.Call) and id(node) not in seen:
                    seen.add(id(node))
                    yield node
                    found.extend(_functions_called(ctx, node))
        functions = found


def _functions_called(ctx: Context, call: ast.Call) -> list[ast.AST]:
    """The local def ``call`` runs, or the local functions and lambdas handed to the parameter it calls."""
    function = ctx.facts.local_def(call)
    if function is not None:
        return [function]
    if not isinstance(call.func, ast.Name):
        return []
    handed = (ctx.facts.function_of(v) for v in ctx.facts.parameter_values(call.func) or ())
    return [f for f in handed if isinstance(f, FUNCTIONS)]
