"""LB115, host-transfer-timed: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._intent import host_input_timed_apart
from .._effects import (
    callable_runs_jax, calls_run_inside, feeds_a_host_step, function_runs_jax, is_host_copy,
)
from .._kinds import call_kind
from .._regions import TimedRegion
from .._scalars import reads_back_scalars
from .._syntax import short

CODE = "LB115"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB115: device-to-host copies, or NumPy inputs to jitted functions, inside a timed region."""
    seen: set[int] = set()
    for region in ctx.regions:
        for call in ctx.timed_calls(region):
            if id(call) in seen:
                continue
            copied = is_host_copy(ctx, call)
            if copied is not None and _periodic(ctx, call):
                continue  # `if step % LOG_EVERY == 0: log(float(loss))`: one read per logging interval, not per step
            if copied is not None and reads_back_scalars(ctx, region, call, copied):
                continue  # `print(f"--Price: {price}")` before the end read: the wait, a few bytes (case 531)
            if copied is not None and feeds_a_host_step(ctx, call):
                continue  # `obs, r, done, _ = envs.step(action.tolist())`: the host step of the pipeline timed
            if copied is not None and (ctx.kinds.of(copied) == "jax" or ctx.facts.cuda):
                seen.add(id(call))
                yield ctx.report(
                    "LB115",
                    call,
                    f"`{short(call)}` copies `{short(copied, 30)}` to the host inside the timed region",
                    evidence=f"the region timed by {region.by} includes a device-to-host transfer",
                    fix=f"jax.block_until_ready({short(copied)})  # wait inside the timing; convert after it",
                )
                continue
            listed = _python_container(ctx, call)
            if listed is not None:
                seen.add(id(call))
                yield ctx.report(
                    "LB115",
                    call,
                    f"`{short(call, 40)}` converts the Python container `{short(listed, 30)}` to a device array inside "
                    "the timed region: JAX walks it element by element on the host, then copies it",
                    evidence=f"`{short(listed, 30)}` is a Python list, built where it is timed",
                    fix=f"x_dev = jax.device_put(np.asarray({short(listed, 30)}))  # one array, before timing",
                )
                continue
            moved = _transfer_beside_work(ctx, region, call)
            if moved is not None:
                seen.add(id(call))
                numpy = ctx.kinds.of(moved) == "numpy"
                what = "NumPy array" if numpy else "Python " + type(moved).__name__.lower()
                copy = f"jax.device_put({short(moved, 30)})" if numpy else short(call, 50)  # a list: one array
                yield ctx.report(
                    "LB115",
                    call,
                    f"`{short(call, 40)}` copies the {what} `{short(moved, 30)}` to the device inside the timed "
                    "region, which also times the JAX work it feeds",
                    evidence=f"the region timed by {region.by} includes a host-to-device transfer",
                    fix=f"x_dev = {copy}.block_until_ready()  # before timing",
                )
                continue
            handed_numpy = _numpy_input(ctx, call)
            if handed_numpy is not None:
                seen.add(id(call))
                yield handed_numpy
                continue
            inside = _copy_in_a_timed_lambda(ctx, call)
            if inside is not None:
                inner, copied = inside
                seen.add(id(call))
                yield ctx.report(
                    "LB115",
                    call,
                    f"`{short(call.func)}` runs `{short(inner, 40)}`, which copies `{short(copied, 30)}` to the host inside "
                    "the timed region",
                    evidence=f"the region timed by {region.by} calls a lambda ({ctx.where(inner)}) that converts a "
                    "JAX result to NumPy",
                    fix=f"jax.block_until_ready({short(copied)})  # wait inside the timing; convert after it",
                )
                continue
            handed = _handed_through_a_transform(ctx, call)
            if handed is not None:
                value, how = handed
                seen.add(id(call))
                yield ctx.report(
                    "LB115",
                    call,
                    f"NumPy array `{short(value, 30)}` reaches the JAX code `{short(call.func, 30)}` runs inside the "
                    f"timed region ({how}): it is copied to the device on every call",
                    evidence=f"`{short(value, 30)}` comes from NumPy; an un-jitted transform or a partial converts "
                    "its inputs each time it runs",
                    fix=f"{short(value, 30)}_dev = jax.device_put({short(value, 30)})  # before timing; hand over "
                    f"`{short(value, 30)}_dev`",
                )
        for call in ctx.timed_calls(region):
            if id(call) in seen:
                continue  # `g(x, y)` handed NumPy, reported there: the `jnp.concatenate` inside `g` is the same copy
            for inner in calls_run_inside(ctx, call):
                if id(inner) in seen:
                    continue
                handed_numpy = _numpy_input(ctx, inner, through=call)
                if handed_numpy is not None:
                    seen.add(id(inner))
                    yield handed_numpy
    for call, site, array in _numpy_handed_with_a_jitted_function(ctx):
        if id(call) in seen or id(site) in seen:
            continue
        seen.add(id(site))
        yield ctx.report(
            "LB115",
            array,
            f"NumPy array `{short(array, 30)}` is handed with the jitted `{short(site.args[0], 30)}` to "
            f"`{short(site.func, 30)}`, whose timed `{short(call, 30)}` ({ctx.where(call)}) passes it to JAX: it is "
            "copied to the device on every timed call",
            evidence=f"`{short(array, 30)}` comes from NumPy; `{short(site.func, 30)}` calls the function it is handed "
            "on the arguments it is handed, between its clock reads",
            fix=f"{short(array, 30)}_dev = jax.device_put({short(array, 30)})  # before timing; hand over "
            f"`{short(array, 30)}_dev`",
        )


def _numpy_input(ctx: Context, call: ast.Call, through: ast.Call | None = None) -> Diagnostic | None:
    """LB115 for a NumPy array handed to JAX by ``call`` (365's reading), or None. ``through``: the timed call that
    runs ``call`` inside a local function (`calls_run_inside`), named in the evidence."""
    if not _runs_jax(ctx, call) or ctx.facts.callee_qualname(call.func) in _EXPLICIT_TRANSFERS:
        return None
    for index, arg in enumerate(call.args):
        if _only_handed_to_library_objects(ctx, call, index):
            continue  # the library converts it once per run it makes: the run's cost, not a copy per call
        if ctx.kinds.numpy_scalar(arg):
            continue  # `f(np.int32(1))`: one scalar of a few bytes, no transfer worth a finding (case 460)
        if host_input_timed_apart(ctx, call, index):
            continue  # `compiled(data, labels)` timed beside `compiled(device_data, device_labels)`: on purpose (533)
        if ctx.kinds.of(arg) == "numpy" or _unpacks_numpy(ctx, arg, call) or _holds_numpy(ctx, arg):
            held = short(arg.value if isinstance(arg, ast.Starred) else arg, 30)
            several = isinstance(arg, (ast.Starred, ast.Tuple, ast.List))
            what = f"NumPy arrays unpacked from `{held}` are" if isinstance(arg, ast.Starred) \
                else f"NumPy arrays in `{held}` are" if several else f"NumPy array `{held}` is"
            evidence = f"`{held}` comes from NumPy"
            if through is not None:
                evidence += f"; the timed `{short(through, 30)}` ({ctx.where(through)}) runs this call"
            return ctx.report(
                "LB115",
                arg if arg.lineno == call.lineno else call,  # a call over lines: where it starts
                f"{what} passed to JAX `{short(call.func, 30)}` inside the timed region: "
                f"{'they are' if several else 'it is'} copied to the device on every "
                "call",
                evidence=evidence,
                fix=f"inputs_dev = jax.device_put({held})  # before timing; hand over `inputs_dev`"
                if isinstance(arg, (ast.Tuple, ast.List)) else
                f"{held}_dev = jax.device_put({held})  # before timing",
            )
    return None


def _numpy_handed_with_a_jitted_function(ctx: Context) -> Iterator[tuple[ast.Call, ast.Call, ast.expr]]:
    """A timing helper whose timed call runs a function it is handed on arguments it is handed (``def bench(fn,
    *args): ... out = fn(*args)`` between two clock reads), and a call of it that hands a jitted function and a
    NumPy array in those places (``bench(cnn_jit, imgs)`` with ``imgs = np.random.randn(...)``, keras-bench's
    inference-overhead script, case 452): each timed call copies the array to the device. Yields the timed call,
    the helper's call and the array. The function's slot and the arrays' are read by position; a method (whose
    first parameter is the object) is left out."""
    for region in ctx.regions:
        scope = region.scope
        if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or isinstance(ctx.program.parent(scope), ast.ClassDef):
            continue
        positional = [a.arg for a in (*scope.args.posonlyargs, *scope.args.args)]
        star = scope.args.vararg.arg if scope.args.vararg is not None else None
        for call in ctx.timed_calls(region):
            if not isinstance(call.func, ast.Name) or call.func.id not in positional or call.keywords:
                continue
            slots: list[int | None] = []  # a positional parameter's index, or None for the star parameter
            for arg in call.args:
                if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name) and arg.value.id == star:
                    slots.append(None)
                elif isinstance(arg, ast.Name) and arg.id in positional:
                    slots.append(positional.index(arg.id))
                else:
                    slots = []
                    break
            if not slots:
                continue
            at = positional.index(call.func.id)
            for use in ctx.facts.call_sites(scope):
                site = ctx.program.parent(use)
                if not (isinstance(site, ast.Call) and site.func is use and len(site.args) > at) \
                        or any(isinstance(a, ast.Starred) for a in site.args):
                    continue
                if ctx.facts.jitted_key_of(site.args[at]) is None:
                    continue
                handed = [a for k in slots for a in (site.args[len(positional):] if k is None
                                                     else site.args[k:k + 1])]
                array = next((a for a in handed if ctx.kinds.of(a) == "numpy" and not ctx.kinds.numpy_scalar(a)),
                             None)
                if array is not None:
                    yield call, site, array


def _unpacks_numpy(ctx: Context, arg: ast.expr, call: ast.Call) -> bool:
    """``f(*args)`` where ``args = x[:n], y[:n]`` holds NumPy arrays (tinygp's benchmark notebook, case 353): each
    call hands the JAX function the unpacked NumPy arrays, copied to the device every time."""
    if not isinstance(arg, ast.Starred):
        return False
    held = ctx.facts.bindings.elements(arg.value, call)
    return any(ctx.kinds.of(e) == "numpy" for e in held)


def _only_handed_to_library_objects(ctx: Context, call: ast.Call, index: int) -> bool:
    """The local function ``call`` runs hands the parameter at positional ``index`` only to the methods of JAX library
    objects (`Facts.library_call`): ``svi.run(svi_key, n, data, obs)`` and ``mcmc.run(mcmc_key, data, obs)``
    in NumPyro's ``hmcecs.py`` (case 364). The library copies it to the device once, at the start of each whole run
    it makes, which is part of what that run costs its user; it is not a NumPy input copied on every call of a JAX
    function of the file. A use anywhere else in the function (a ``jnp`` operation, a jitted call, a rebinding,
    a nested function) keeps the reading of a JAX function handed NumPy data."""
    function = ctx.facts.local_def(call)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    func = call.func
    named = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if named != function.name and isinstance(func, ast.Name):
        bound = _bound_leading(ctx, func, function)  # `alias = run_hmc`, `part = partial(run_hmc, key)`
        if bound is None:
            return False
        index += bound
    elif named != function.name and not isinstance(func, ast.Subscript):
        return False
    if isinstance(ctx.program.parent(function), ast.ClassDef) and not any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list):
        return False  # a method: its first parameter is the object, not the call's first argument
    positional = [*function.args.posonlyargs, *function.args.args]
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]) or index >= len(positional):
        return False
    name = positional[index].arg
    uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
    if not uses:
        return False
    for use in uses:
        parent = ctx.program.parent(use)
        if isinstance(parent, ast.keyword):
            parent = ctx.program.parent(parent)
        if not (isinstance(use.ctx, ast.Load) and isinstance(parent, ast.Call) and use is not parent.func
                and ctx.facts.library_call(parent) is not None):
            return False
    return True


def _holds_numpy(ctx: Context, arg: ast.expr) -> bool:
    """``f(state, (X, Y))``: a tuple or list written in the call holds a NumPy array, which JAX copies to the device
    with the rest of the pytree on every call (Flax's ``nnx_simple_training.py``, ``test_step_jax(state, (X, Y))``,
    case 359)."""
    return isinstance(arg, (ast.Tuple, ast.List)) and any(ctx.kinds.of(e) == "numpy" for e in arg.elts)


def _bound_leading(ctx: Context, func: ast.Name, function: ast.AST) -> int | None:
    """How many leading positional arguments the name ``func`` binds before it runs ``function``: 0 for an alias
    (``run_alias = run_hmc``), the partial's own positional arguments for ``partial(run_hmc, key)``; None when the
    values it holds disagree or are something else."""
    counts = set()
    for value in ctx.facts.callee_values(func):
        target = ctx.names.partial_target(value)
        if target is not None and ctx.facts.function_of(target) is function:
            counts.add(len(value.args) - 1)  # type: ignore[attr-defined]
        elif ctx.facts.function_of(value) is function:
            counts.add(0)
        else:
            return None
    return counts.pop() if len(counts) == 1 else None


# Timing these is timing the transfer on purpose (`%time x = jax.device_put(x_np)`).
_EXPLICIT_TRANSFERS = frozenset({"jax.device_put", "jax.numpy.asarray", "jax.numpy.array"})


def _transfer_beside_work(ctx: Context, region: TimedRegion, call: ast.Call) -> ast.expr | None:
    """The host data an explicit transfer copies to the device (``jnp.asarray(onp.random.random(n))``, ``np`` being
    ``jax.numpy``; ``jnp.array([1.0, 2.0])``, numbers written in the code) in a region that also times JAX work (a
    jitted call, a ``jnp`` operation): the timing is about that work, and the copy is added to it. A region whose
    only JAX work is the transfer times the copy on purpose."""
    if ctx.facts.callee_qualname(call.func) not in _EXPLICIT_TRANSFERS or not call.args:
        return None
    if ctx.kinds.of(call.args[0]) != "numpy" and not _written_numbers(call.args[0]):
        return None
    inside = {id(n) for n in ast.walk(call)}
    for other in ctx.timed_calls(region):
        if id(other) in inside or ctx.facts.callee_qualname(other.func) in _EXPLICIT_TRANSFERS:
            continue
        if _runs_jax(ctx, other):
            return call.args[0]
    return None


def _written_numbers(value: ast.expr) -> bool:
    """A list or tuple display of numbers written in the code (``[1.0, 2.0]``, ``[[0, 1], [-1, 0]]``): host data. A
    display of names may hold device arrays, which ``jnp.array`` stacks on the device."""
    if not isinstance(value, (ast.List, ast.Tuple)) or not value.elts:
        return False
    for element in value.elts:
        if isinstance(element, ast.UnaryOp) and isinstance(element.op, (ast.USub, ast.UAdd)):
            element = element.operand
        if isinstance(element, (ast.List, ast.Tuple)):
            if not _written_numbers(element):
                return False
        elif not (isinstance(element, ast.Constant) and type(element.value) in (int, float, complex, bool)):
            return False
    return True


def _python_container(ctx: Context, call: ast.Call) -> ast.expr | None:
    """The Python list of data-dependent length an explicit transfer is given (``jax.device_put([... for ...])``,
    ``jnp.array([0] * n)``, ``jnp.asarray(list(...))``): converting it walks its elements in Python, one leaf or scalar at a time, so
    the timing grows with the length of the container, whatever the device. Timing ``jax.device_put(x_np)``
    of one NumPy array is timing the copy on purpose; the container's walk is not what such a timing means."""
    if ctx.facts.callee_qualname(call.func) not in _EXPLICIT_TRANSFERS or not call.args:
        return None
    argument = call.args[0]
    if isinstance(argument, ast.ListComp) and ctx.kinds.of(argument.elt) == "jax":
        return None  # a list of JAX arrays is stacked on the device: no host walk, no copy; its per-element
        # dispatch is the comprehension's, LB114's (`jnp.array([x[i] * jnp.pi for i in ...])`, case 488)
    if isinstance(argument, ast.ListComp) or ctx.names.qualname(getattr(argument, "func", None)) == "builtins.list":
        return argument
    if isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Mult) and isinstance(argument.left, ast.List):
        return argument  # `[0] * n`
    return None  # a display `[a, b]` has a fixed, small number of elements


def _periodic(ctx: Context, node: ast.AST) -> bool:
    """``node`` runs under ``if step % N == 0`` in a loop: once every N iterations, as a training loop logs its metrics.
    The read waits for the steps already queued, which the interval times anyway; the copy of a few scalars is noise."""
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, ast.If) and _counts_off(ancestor.test):
            return True
        if isinstance(ancestor, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
    return False


def _counts_off(test: ast.expr) -> bool:
    """``step % n == 0`` (either side, ``not step % n`` too), or a test that requires one (``step and step % n == 0``),
    or one that adds a few first passes to it (``step < 10 or step % 10 == 0``, texmo's log line, case 519 (was 493))."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_counts_off(v) for v in test.values)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_counts_off(v) for v in test.values) and all(_counts_off(v) or _first_passes(v) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.BinOp) and isinstance(test.operand.op, ast.Mod)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        sides = (test.left, test.comparators[0])
        return any(isinstance(s, ast.BinOp) and isinstance(s.op, ast.Mod) for s in sides)
    return False


def _first_passes(test: ast.expr) -> bool:
    """``step < 10`` (or ``<=``, or ``10 > step``): a counter below a number, true on a few first passes only."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Gt, ast.GtE)):
        left, right = right, left
    elif not isinstance(op, (ast.Lt, ast.LtE)):
        return False
    return isinstance(left, ast.Name) and isinstance(right, ast.Constant) and isinstance(right.value, int)


def _runs_jax(ctx: Context, call: ast.Call) -> bool:
    """``call`` hands its arguments to JAX: a jitted function, a ``jnp`` operation, or a local function that does."""
    if ctx.facts.calls_jax_callable(call) or call_kind(ctx.names.qualname(call.func) or "") == "jax":
        return True
    if ctx.facts.transformed_here(call):
        return True  # `filter(m0, ...)` where the file jits `filter`: JAX code, from whatever library (case 348)
    func = call.func
    if isinstance(func, (ast.Subscript, ast.IfExp)) or (isinstance(func, ast.Name) and ctx.facts.def_named(func.id, call) is None):
        if ctx.kinds.of(call) == "jax":
            return True  # `ops["jax"](x)`, `for op in (jnp.dot, np.dot): op(x)`: a JAX function it may be
    function = ctx.facts.local_def(call)
    if function is not None and function not in ctx.facts.jitted_defs and function_runs_jax(ctx, function):
        return True
    return _result_blocked_on(ctx, call)


def _result_blocked_on(ctx: Context, call: ast.Call) -> bool:
    """The program blocks on ``call``'s result with ``block_until_ready``, JAX's wait, which only a JAX value has
    (``model.predict(Q).block_until_ready()``, or ``value = model.predict(Q); value.block_until_ready()`` on the
    next statement): whatever code not shown runs it, the call is JAX work, handed its arguments as JAX inputs
    (bnn's ``JAXTwoScaleBNN.predict``, case 500)."""
    parent = ctx.program.parent(call)
    if isinstance(parent, ast.Attribute) and parent.attr == "block_until_ready":
        return True
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    block = getattr(ctx.program.parent(parent), "body", None)
    if not isinstance(block, list) or parent not in block:
        return False
    later = block[block.index(parent) + 1 : block.index(parent) + 2]
    return any(
        isinstance(n, ast.Call) and (
            (isinstance(n.func, ast.Attribute) and n.func.attr == "block_until_ready"
             and isinstance(n.func.value, ast.Name) and n.func.value.id == name)
            or (ctx.names.qualname(n.func) == "jax.block_until_ready"
                and any(isinstance(a, ast.Name) and a.id == name for a in n.args)))
        for statement in later for n in ast.walk(statement)
    )


def _handed_through_a_transform(ctx: Context, call: ast.Call) -> tuple[ast.expr, str] | None:
    """A NumPy value that ``call`` hands to JAX code through a function value rather than as an argument of a JAX
    function: an argument of an un-jitted transform applied (jaxopt's ``jax.jacrev(solver, argnums=3)(None, X,
    y, lam)`` with scikit-learn's ``X``, ``y``, or ``grad = jax.grad(f); grad(lam, data)``), an argument a
    ``functools.partial`` of a JAX function binds (``partial(loss, X, y)``), or a name the transformed function
    reads from outside (``jax.vmap(lambda g: root_vjp(..., args=(lam, X, y), cotangent=g))(I)``). Each run of an
    un-jitted transform or of a partial converts them again; a jitted function's closure is copied once, when it
    compiles, and is not this."""
    facts = ctx.facts
    values = [call.func, *facts.callee_values(call.func)]
    for value in values:
        if not isinstance(value, ast.Call):
            continue
        if (facts.is_jax_transform(value) or ctx.kinds.transforms(value)) and not facts.jitted_key_of(value):
            for arg in call.args:
                if ctx.kinds.of(arg) == "numpy":
                    return arg, f"an argument of the un-jitted `{short(value.func, 20)}`"
            function = value.args[0]
            read = _numpy_read_inside(ctx, function)
            if read is not None:
                return read, f"read inside the function `{short(value.func, 20)}` transforms"
        target = ctx.names.partial_target(value)
        if target is not None and callable_runs_jax(ctx, target):
            for arg in [*value.args[1:], *(k.value for k in value.keywords)]:
                if ctx.kinds.of(arg) == "numpy":
                    return arg, f"bound by `{short(value, 30)}`"
    return None


def _numpy_read_inside(ctx: Context, function: ast.expr) -> ast.expr | None:
    """A NumPy value the function ``function`` (a lambda, or a name bound to one or to a local def) reads from
    outside its own parameters and hands to a call: what a transform of it converts on every run."""
    bodies: list[ast.AST] = []
    if isinstance(function, ast.Lambda):
        bodies.append(function)
    elif isinstance(function, ast.Name):
        local = ctx.facts.def_named(function.id, function)
        if local is not None:
            bodies.append(local)
        else:
            bodies.extend(v for v in ctx.facts.callee_values(function) if isinstance(v, ast.Lambda))
    for body in bodies:
        own = {a.arg for a in ast.walk(body.args) if isinstance(a, ast.arg)}  # type: ignore[attr-defined]
        for node in ast.walk(body):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in own:
                if ctx.kinds.of(node) == "numpy" and _handed_to_a_call(ctx, node):
                    return node
    return None


_HOST_ROOTS = ("builtins.", "numpy.")


def _handed_to_a_call(ctx: Context, name: ast.Name) -> bool:
    """``name`` is an argument of a call other than a builtin's or NumPy's, directly or in a tuple or list it is
    given (``args=(lam, X, y)``): the value goes to the function called, not only read for its size."""
    node: ast.AST = name
    for parent in ctx.program.ancestors(name):
        if isinstance(parent, ast.Call):  # `len(X)`, `np.mean(X)`: read on the host, for a size or a statistic
            return node is not parent.func and not (ctx.names.qualname(parent.func) or "").startswith(_HOST_ROOTS)
        if isinstance(parent, (ast.Tuple, ast.List, ast.keyword, ast.Starred)):
            node = parent
            continue
        return False
    return False


def _copy_in_a_timed_lambda(ctx: Context, call: ast.Call) -> tuple[ast.Call, ast.expr] | None:
    """A device-to-host copy of a JAX value in the body of a lambda that the timed ``call`` may run: the lambda bound
    to the name called, or one of the callables a loop hands the timing in turn (PyTensor's benchmark: ``for name,
    fn in [("C", c_fn), ("jax", jax_fn)]: timeit(fn, number=r)`` with ``jax_fn = lambda: np.asarray(jax_fn_())``,
    case 285). The region's own walk does not enter a lambda defined elsewhere."""
    if not isinstance(call.func, (ast.Name, ast.Subscript)):
        return None
    for value in ctx.facts.callee_values(call.func):
        if not isinstance(value, ast.Lambda):
            continue
        for inner in ast.walk(value.body):
            if isinstance(inner, ast.Call):
                copied = is_host_copy(ctx, inner)
                if copied is not None and ctx.kinds.of(copied) == "jax" and not _periodic(ctx, inner):
                    return inner, copied
    return None
