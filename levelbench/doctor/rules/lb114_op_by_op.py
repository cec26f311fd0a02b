"""LB114, op-by-op-dispatch: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._effects import is_wait
from .._fixes import vmap_fix
from .._iteration import (
    eager_dispatch_is_small, per_element_calls, runs_compiled_loop, runs_many_operations, unstacks_a_jax_array,
    yields_batches,
)
from .._intent import compiled_by_its_warm_up
from .._kinds import ASSEMBLERS
from .._names import JAX_LIBRARIES, NOT_PROJECT_MODULES, dotted, names_a_class
from .._regions import TimedRegion
from .._rewrite import loop_rewrite
from .._syntax import (
    COMPREHENSIONS, LOOPS, SCOPES, enclosing_function, local_walk, loop_iterable, parameter_names, short, walk_code,
)
from .._vocabulary import JAX_OPS, STRUCTURAL, holds_timing, is_sweep, runs_a_timing, site_text
from .._regions import decorated_bodies
from .._syntax import enclosing_loop

CODE = "LB114"


# A function handed to these may run under jit or another transformation.
_MAY_JIT = ("jax.", "flax.", "equinox.", "optax.", "functools.partial")


# optax functions that compute on the parameters (the others build transformations)
_OPTAX_OPS = frozenset({"apply_updates", "incremental_update", "periodic_update", "global_norm"})


# Building arrays in a loop (inputs of a sweep) is not the op-by-op pattern LB114 is about.
_CONSTRUCTORS = frozenset(
    {"array", "asarray", "zeros", "ones", "full", "empty", "eye", "arange", "linspace", "zeros_like", "ones_like",
     "full_like", "empty_like", "identity"}
)


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB114: JAX operations dispatched one by one in a Python loop that no jit covers.

    A loop counts the JAX operations of its body and of the un-jitted local functions it calls. Two or
    more per iteration are reported; one is reported when the loop is what a benchmark times (then the
    numbers are dispatch overhead). Only in files that run code (`Context.runs_here`). In a file that times code,
    a loop of the script or notebook cell itself (no function around it) that no timing reaches is the example's
    set-up or demonstration, run once beside the figures: its dispatch is in none of them (PennyLane's and Flax's
    training loops beside their timing cells, cases 382 and 387; the readings of 246, 260 and 369). A loop in a
    function is a routine its callers run, whose every call pays the dispatch (QuantEcon's ``simulate``, 162).
    """
    facts = ctx.facts
    if not facts.jax_code:  # JAX itself, or a library written in JAX (`from waymax import datatypes`)
        return
    reported_calls: set[int] = set()
    for call, diagnostic in _unjitted_timed_calls(ctx):  # timed regions are kept only where code runs (`Context.build`)
        reported_calls.add(id(call))
        yield diagnostic
    if not ctx.runs_here:
        return
    traced = set(facts.traced_defs)
    eager_family: set[int] = set()  # the timed eager functions reported at their calls, and what they call
    for call, family, diagnostic in _decorated_eager_runs(ctx, traced):
        reported_calls.add(id(call))
        eager_family |= family
        yield diagnostic
    # the loop a harness runs (google_benchmark's `while state:`), not a loop a `%%time` cell starts with
    harness_loops = {id(r.anchor) for r in ctx.regions if r.harness and not any(s is r.anchor for s in r.statements)}
    for loop in ctx.program.of_type(*LOOPS, *COMPREHENSIONS):
        if id(loop) in harness_loops:
            continue  # google_benchmark's `while state:`: the harness repeats the timed work, as %timeit does
        nodes = list(local_walk(ctx.program, loop))
        own = _own_nodes(ctx, loop)
        ops, applies = _eager_ops(ctx, own)
        unstacked = id(loop) in ctx.timed_ids and unstacks_a_jax_array(ctx.kinds, loop)
        if unstacked:
            ops += 1  # a timed pass over a JAX array's elements: each is indexed out eagerly (case 367)
        if not ops and not applies:
            continue
        timed = id(loop) in ctx.timed_ids or holds_timing(ctx, loop, nodes)
        if ops < 2 and not applies and not (holds_timing(ctx, loop, nodes) or _dispatch_is_what_is_timed(ctx, loop)):
            continue
        own_calls = [n for n in own if isinstance(n, ast.Call)]
        if ops < 2 and not applies and any(_unread_work_on_jax_values(ctx, c) for c in own_calls):
            continue  # one key split beside the step the file imports (gpt-jax's `train_step`): the step is timed
        family = [c for c in own_calls if id(facts.local_def(c)) in eager_family]
        if family and _eager_ops(ctx, [n for n in own if not _inside(ctx, n, family) and not _key_glue(ctx, n)])[0] < 2:
            continue  # the eager function a decorator times, reported at its kept figure's call: here its warm-ups,
            # its discarded runs and the loop of its figures, with the key splits between them (case 463)
        reported = [c for c in own_calls if id(c) in reported_calls]
        if reported and _eager_ops(ctx, [n for n in own if not _inside(ctx, n, reported)])[0] < 2:
            continue  # the loop's work is a timed call already reported where it is made (case 258): one fault, once
        if not timed and eager_dispatch_is_small(facts, ctx.kinds, loop, ops + applies, own_calls):
            continue  # a loop the code bounds (`range(10)`, four listed values): a few ms of dispatch, once
        if yields_batches(ctx.program, loop):
            continue  # a data loader's epoch loop: its shuffle runs once per batch of items, not per item drawn
        if not timed and ctx.regions and enclosing_function(ctx.program, loop) is None:
            continue  # a script's or cell's own untimed loop beside its timings: the example's set-up (cases 382, 387)
        times_code = bool(ctx.regions or ctx.instrumentation)
        if (not timed and times_code and _fills_an_array(loop, own)
                and _set_up_once(ctx, enclosing_function(ctx.program, loop))):
            continue  # the same loop in a helper the script calls once, outside its timings (case 418, whose timing
            # is a helper's returned `run`: kept in `instrumentation`, its callers deciding what it times)
        if not timed and ctx.regions and _assembles_an_array(ctx, loop, own):
            continue  # a benchmark's input built once, outside every timing: its dispatch is in no figure (case 324)
        iterable = loop_iterable(loop)
        if iterable is not None and STRUCTURAL.search(short(iterable, 80)):
            continue  # layers of a model: a handful of dispatches, not a loop over data
        if not _runs_eagerly(ctx, loop, traced):
            continue
        if is_sweep(ctx, loop, nodes):
            continue  # a benchmark sweep over sizes or inputs: the loop holds the timing
        step, maker = next(((c, m) for c in own_calls if (m := ctx.kinds.library_step(c))), (None, None))
        compiled_beside = any(
            isinstance(n, ast.Call) and (facts.calls_jax_callable(n) or _is_measure(ctx, n) or runs_compiled_loop(facts, n)
                                         or _runs_compiled_helper(ctx, n) or _a_handed_objects_step(ctx, n)
                                         or _a_library_objects_call(ctx, n) or compiled_by_its_warm_up(ctx, n))
            for n in walk_code(ctx.program, [loop])  # a lambda's too: `timeit.timeit(lambda: step(x), number=1)`
        )
        optimiser = next((c for c in own_calls if facts.updates_an_optimiser(c)), None)
        if compiled_beside and step is None and optimiser is None:
            continue  # the loop's work is compiled programs; its own operations are the glue around them
        handed = next((c for c in own_calls if _handed_eager_and_jitted(ctx, c)), None)
        if (timed and handed is not None
                and _eager_ops(ctx, [n for n in own if not _inside(ctx, n, [handed])])[0] < 2):
            continue  # `test(fn, ...)` and `test(jit(fn), ...)`: the helper times both halves of a comparison (461)
        plain = next(((c, s) for c in own_calls if (s := facts.plain_call_of_jitted(c)) is not None), None)
        # the operations of the loop itself, not those of the un-jitted twin it calls (counted inside it)
        beside = _eager_ops(ctx, [n for n in own if n is not plain[0]])[0] if plain else ops
        if plain is not None and beside < 2:  # the loop's work is that function: point at the call
            call, site = plain
            if timed and _a_pass_of_a_comparison(ctx, loop, call):
                continue  # the eager half of a comparison with jit, repeated or mapped pass by pass (case 248)
            yield ctx.report(
                "LB114",
                call,
                f"`{short(call)}` runs a function the file jits elsewhere without its jit, once per iteration: "
                "its operations are dispatched one by one",
                evidence=f"the file jits it ({site_text(ctx, site)}) but this loop calls it by its own name",
                fix=f"# call the jitted version in the loop, e.g. the name bound by `{site.label}`",
            )
            continue
        if plain is not None:
            step, maker = None, None
        if step is not None and (compiled_beside or _eager_ops(ctx, [n for n in own if n is not step])[0] < 2):
            # the loop's work is a method of an object a JAX library built (brax's `env.step`): point at the call.
            # Beside a compiled step it is still the library's whole function run op by op, not glue (a jaxopt
            # stochastic solver's `solver.update`, jaxopt#101)
            method = short(step.func, 40)
            if maker == ctx.names.qualname(step.func):  # a module's function (Waymax's `update_state_by_log`)
                evidence = f"`{maker}` is a JAX library's function that runs as it is called; neither the loop nor " \
                    "the function is jitted"
            else:
                evidence = f"`{step.func.value.id}` is built by `{maker}`, whose methods run as " \
                    "they are called; neither the loop nor the method is jitted"  # type: ignore[attr-defined]
            name = step.func.attr if isinstance(step.func, ast.Attribute) else short(step.func, 40)
            yield ctx.report(
                "LB114",
                step,
                f"`{short(step)}` runs `{method}` without jit, once per iteration: the JAX library's function is "
                "dispatched one operation at a time",
                evidence=evidence + ("; the loop is timed" if timed else ""),
                fix=f"{name}_jit = jax.jit({method})  # once, before the loop; call it in the loop",
            )
            continue
        if timed and _an_eager_copy_beside_its_timed_twin(ctx, enclosing_function(ctx.program, loop)):
            continue  # the loop of an eager copy timed beside its jitted twin: the comparison's baseline (case 279)
        copy_call = next((c for c in own_calls if _an_eager_copy_beside_its_timed_twin(ctx, facts.local_def(c))), None)
        if (timed and copy_call is not None and _independent_passes(ctx, loop, copy_call)
                and _eager_ops(ctx, [n for n in own if not _inside(ctx, n, [copy_call])])[0] < 2):
            continue  # the eager copy run pass by pass, as its twin is: the measurement repeated (cases 248, 279)
        if timed and not applies and _selects_for_a_baseline(ctx, loop, own):
            continue  # `point = trajectories[i * j]` handed to the eager baseline's inner loop: its elements (526)
        what = f"{ops} JAX operation{'s' if ops > 1 else ''}"
        if plain is not None:
            what += f" and `{short(plain[0], 40)}`, a function the file jits elsewhere,"
        elif optimiser is not None and compiled_beside:
            # optax#319: the loss and its gradient are jitted, the optimiser's update runs op by op beside them
            what = f"the optimiser's update (`{short(optimiser, 40)}`), {ops} JAX call{'s' if ops > 1 else ''},"
        elif unstacked and ops == 1 and not applies:
            what = f"`{short(loop_iterable(loop), 30)}`, a JAX array, indexed once per element (each element a JAX array),"
        elif applies:
            what = "a whole model or function (a Flax apply, or a function jitted elsewhere called without its jit)"
        keyword = "comprehension" if isinstance(loop, COMPREHENSIONS) else "loop"
        yield ctx.report(
            "LB114",
            loop,
            f"{what} per iteration dispatched one by one in a Python {keyword} with no jit around it",
            end=loop.test if isinstance(loop, ast.While) else iterable,
            evidence=f"{ops + applies} JAX calls per iteration (in the body or the local functions it calls), "
            "none of them inside a jitted function"
            + ("; the step's other calls are jitted, the optimiser is not"
               if optimiser is not None and compiled_beside else "")
            + ("; the loop is timed" if timed else ""),
            fix=_jitted_loop_fix(loop, ctx, flax=bool(applies)) if isinstance(loop, LOOPS) else vmap_fix(loop),
        )
    yield from _per_leaf_dispatch(ctx, traced)


def _decorated_eager_runs(ctx: Context, traced: set[ast.AST]) -> Iterator[tuple[ast.Call, set[int], Diagnostic]]:
    """A function a timing decorator wraps (`decorated_bodies`: ``@timer def price(...)``, whose wrapper reads the
    clock around each call), neither jitted nor traced, that dispatches two or more JAX operations (in its body or
    the local functions it calls), called in a loop with its figure kept (``(p, e), t = price(...)``): each pass
    times the whole function run op by op. Reported at that call, with the ids of the function and of the local
    functions it calls, whose warm-ups and discarded runs elsewhere are the same fault's set-up
    (risk-neutral-monte-carlo's ``@timer`` pricer, called 'JIT-compiled' and never jitted, case 463)."""
    facts = ctx.facts
    seen: set[int] = set()
    for region in ctx.regions:
        for function in decorated_bodies(ctx.program, facts, region):
            if id(function) in seen or function in facts.jitted_defs or function in traced:
                continue
            seen.add(id(function))
            ops, applies = _eager_ops(ctx, list(walk_code(ctx.program, function.body)))
            if ops + applies < 2:
                continue
            family = _called_family(ctx, function)
            for use in facts.call_sites(function):
                call = ctx.program.parent(use)
                if not (isinstance(call, ast.Call) and call.func is use):
                    continue
                loop = enclosing_loop(ctx.program, call)
                if loop is None or not _figure_kept(ctx, call) or not _runs_eagerly(ctx, loop, traced):
                    continue
                yield call, family, ctx.report(
                    "LB114",
                    call,
                    f"`{short(call)}` times `{function.name}` (`@{short(_decorator_of(function, region), 30)}`) "
                    f"once per iteration without jit: its {ops + applies} JAX operations are dispatched one by one",
                    evidence=f"`{function.name}` is timed by its decorator's clock pair ({ctx.where(region.anchor)}) "
                    "and neither it nor the functions it calls are jitted",
                    fix=f"{function.name}_jit = jax.jit({function.name})  # jit the function the decorator times "
                    "(decorate with @jax.jit under the timer), warm it up, then time it",
                )


def _decorator_of(function: ast.AST, region: TimedRegion) -> ast.expr:
    """The decorator of ``function`` whose wrapper holds ``region``'s clock pair (its first, when none is named)."""
    decorators = list(getattr(function, "decorator_list", []))
    scope = getattr(region.scope, "name", None)
    return next((d for d in decorators if dotted(d) == scope), decorators[0] if decorators else ast.Name(id="timer"))


def _figure_kept(ctx: Context, call: ast.Call) -> bool:
    """``call``'s value is bound to a name other than ``_`` (``(price, err), t = timed(...)``): a figure kept."""
    parent = ctx.program.parent(call)
    return isinstance(parent, ast.Assign) and any(
        isinstance(n, ast.Name) and n.id != "_" for t in parent.targets for n in ast.walk(t)
    )


def _called_family(ctx: Context, function: ast.AST, depth: int = 0) -> set[int]:
    """The ids of ``function`` and of the un-jitted local functions it calls, transitively (a few levels)."""
    found = {id(function)}
    if depth > 3:
        return found
    for node in walk_code(ctx.program, list(getattr(function, "body", []))):
        if isinstance(node, ast.Call):
            inner = ctx.facts.local_def(node)
            if inner is not None and inner is not function and inner not in ctx.facts.jitted_defs:
                found |= _called_family(ctx, inner, depth + 1)
    return found


# Making and splitting PRNG keys between the runs of a function: glue, not the work the loop is for.
_KEY_GLUE = frozenset({"jax.random.split", "jax.random.fold_in", "jax.random.PRNGKey", "jax.random.key"})


def _key_glue(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ctx.names.qualname(node.func) in _KEY_GLUE


def _per_leaf_dispatch(ctx: Context, traced: set[ast.AST]) -> Iterator[Diagnostic]:
    """``jax.tree.map(quantize, params)`` run eagerly: the function's operations dispatch once per leaf."""
    for call, function in per_element_calls(ctx.facts):
        if function in ctx.facts.jitted_defs or function in traced:
            continue
        if _over_structure(ctx, call):
            continue  # `map(init_layer, keys, layer_sizes[:-1], layer_sizes[1:])`: a model's layers, as a loop's
        body = [function.body] if isinstance(function, ast.Lambda) else function.body
        if _places_data(ctx, list(walk_code(ctx.program, body))):
            continue
        ops, applies = _eager_ops(ctx, list(walk_code(ctx.program, body)))
        timed = id(call) in ctx.timed_ids
        if ops + applies < 2 and not (ops + applies and _dispatch_is_what_is_timed(ctx, call)):
            continue
        if not _runs_eagerly(ctx, call, traced):
            continue
        mapper = short(call.func, 30)
        yield ctx.report(
            "LB114",
            call,
            f"{ops + applies} JAX operations per leaf dispatched one by one by `{mapper}` with no jit around it",
            end=call.func,
            evidence=f"`{mapper}` calls `{short(call.args[0], 30)}` once per leaf or element, outside any jit: "
            f"{ops + applies} JAX calls each" + ("; the call is timed" if timed else ""),
            fix=f"jax.jit(lambda tree: {ast.unparse(call)})  # one program for the whole tree, compiled once",
        )


def _over_structure(ctx: Context, call: ast.Call) -> bool:
    """``map(f, *iterables)`` over a model's structure (its layers, parameters, keys), named so: builtin ``map`` is a
    loop written as a call, read as the loop ``[f(*a) for a in zip(*iterables)]`` is (a handful of dispatches, one
    per layer, not a loop over data). A tree map runs once per leaf of a tree whatever its names: not this."""
    if ctx.names.qualname(call.func) != "builtins.map":
        return False
    return bool(call.args[1:]) and STRUCTURAL.search(", ".join(short(a, 80) for a in call.args[1:])) is not None


def _dispatch_is_what_is_timed(ctx: Context, node: ast.AST) -> bool:
    """``node`` runs timed, and some timing that reaches it runs no compiled program of its own (no call of a jitted
    function, an AOT executable or a lax loop): then one dispatch per element is what the numbers measure. Beside a
    compiled program, as in a server that concatenates a batch's leaves and then runs the batch's executable, one
    operation per element assembles the program's input; the program is what is timed. A function handed to
    ``levelbench.measure`` is timed alone."""
    if id(node) not in ctx.timed_ids:
        return False
    reaches: list[tuple[frozenset[int], bool]] = ctx.index(
        "timed reach", lambda: [_reach(ctx, r.work) for r in ctx.regions]
    )
    around = [compiled for ids, compiled in reaches if id(node) in ids]
    return not around or not all(around)


def _runs_compiled_helper(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a local function that runs compiled programs (calls of jitted functions, AOT executables, lax
    loops), itself or through the local functions it calls: then the loop's work is those programs, as when it
    calls them directly, and its own operations are the glue around them (QuantEcon's Arellano lecture:
    ``while error > tol: new = update_values_and_prices(...)``, an un-jitted helper calling three jitted
    operators, then ``error = jnp.max(jnp.abs(new - old))``)."""
    function = ctx.facts.local_def(call)
    if function is None:
        return False
    compiled: dict[int, bool] = ctx.index("LB114 helpers that run compiled programs", dict)
    if id(function) not in compiled:
        compiled[id(function)] = False  # a recursive helper reads False while it is being looked at
        body = (function.body,) if isinstance(function, ast.Lambda) else tuple(function.body)
        compiled[id(function)] = _reach(ctx, body)[1]
    return compiled[id(function)]


def _reach(ctx: Context, roots: tuple[ast.AST, ...]) -> tuple[frozenset[int], bool]:
    """The ids of the nodes a timed region runs (its work and the local functions it calls, transitively), and
    whether any of them runs a compiled program."""
    seen: set[int] = set()
    compiled = False
    stack = list(roots)
    while stack:
        for node in walk_code(ctx.program, [stack.pop()]):
            if id(node) in seen:
                continue
            seen.add(id(node))
            if not isinstance(node, ast.Call):
                continue
            compiled = compiled or ctx.facts.calls_jax_callable(node) or runs_compiled_loop(ctx.facts, node)
            function = ctx.facts.local_def(node)
            if function is not None and id(function) not in seen:
                seen.add(id(function))
                stack.extend(function.body)
    return frozenset(seen), compiled


def _places_data(ctx: Context, nodes: list[ast.AST], _seen: frozenset[ast.AST] = frozenset()) -> bool:
    """The function mapped over the leaves places them on devices (``jax.device_put(x, sharding)``, through the host
    on purpose): what jit would not do for it, so its reshapes on the way are the placement's cost, not dispatch to
    remove (mujoco's ``jax.tree.map(lambda x: safe_shard(x, sharded), dx_batch)``)."""
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        if ctx.names.qualname(node.func) == "jax.device_put":
            return True
        function = ctx.facts.local_def(node)
        if function is not None and function not in _seen:
            if _places_data(ctx, list(local_walk(ctx.program, function)), _seen | {function}):
                return True
    return False


def _own_nodes(ctx: Context, loop: ast.AST) -> list[ast.AST]:
    """The loop's nodes outside the loops nested in it: their operations are theirs to report, once."""
    walk = ctx.program.walk(loop, skip=(*SCOPES, *LOOPS, *COMPREHENSIONS))
    next(walk)
    return list(walk)


def _runs_eagerly(ctx: Context, loop: ast.AST, traced: set[ast.AST]) -> bool:
    """The loop is at module level, or in a function that runs here (`Context.callers_decide` is false: a
    library function's callers may jit it) only ever called directly or handed to a known non-JAX caller
    (``absl.app.run(main)``), never jitted. Methods are skipped: who jits them is not visible statically."""
    if ctx.callers_decide(loop):
        return False
    function = enclosing_function(ctx.program, loop)
    while isinstance(function, ast.Lambda) and id(loop) in ctx.timed_ids:
        function = enclosing_function(ctx.program, function)  # `timeit.timeit(lambda: [...])`: runs where timeit runs
    if function is None:
        return True
    if function in traced or any(a in traced for a in ctx.program.ancestors(function)):
        return False
    if isinstance(function, ast.Lambda):
        return False
    if isinstance(ctx.program.parent(function), ast.ClassDef) and not _is_static(ctx, function):
        return False  # a method: a framework may call it traced (a Flax module's `__call__` under `apply`)
    sites: list[ast.AST] = list(ctx.facts.call_sites(function))
    if isinstance(ctx.program.parent(function), ast.ClassDef):  # `Holder.f(x)`, `g = Holder.f`: by attribute
        name = getattr(function, "name", "")
        sites += [n for n in ctx.program.of_type(ast.Attribute) if isinstance(n, ast.Attribute) and n.attr == name]
        if not sites:
            return False  # nothing here uses it: its users are elsewhere
    return all(_stays_eager(ctx, site) for site in sites)


def _is_static(ctx: Context, function: ast.AST) -> bool:
    """``@staticmethod``: a plain function kept in a class's namespace, called as ``Holder.f(x)``; its call sites
    say how it runs, as a module function's do."""
    return any(ctx.names.qualname(d) == "builtins.staticmethod" or dotted(d) == "staticmethod"
               for d in getattr(function, "decorator_list", ()))


def _stays_eager(ctx: Context, use: ast.AST, depth: int = 0, seen: frozenset[int] = frozenset()) -> bool:
    """The function value at ``use`` is only ever called directly: through a call, a name bound to it that is
    never jitted (``g = f``, ``g = f if c else h``, ``g = partial(f)``), or a factory's result so bound; or it
    is handed to a known non-JAX caller."""
    parent = ctx.program.parent(use)
    if id(use) in seen:
        return True  # a cycle (`def make(): ... return f` and `f = make()`): no evidence against
    seen |= {id(use)}
    if depth > 6 or parent is None:
        return False
    if isinstance(use, ast.Name) and isinstance(use.ctx, ast.Store):
        return True  # the name bound again (`f = make_f()`): nothing handed anywhere
    if isinstance(parent, ast.Call) and parent.func is use:
        return True
    facts = ctx.facts
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is use:
        # bound to a name: eager when that name is used, and every use of it stays eager (`g = f; g(x)`); an
        # alias nothing here uses (a library's `jet2 = partial(jet, ...)`) may be jitted by its callers
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if not all(isinstance(t, ast.Name) and t.id not in facts.jitted for t in targets):
            return False
        loads: dict[str, list[ast.Name]] = ctx.index("name loads", lambda: _name_loads(ctx))
        uses = [u for t in targets for u in loads.get(t.id, ())]  # type: ignore[union-attr]
        if not uses:  # nothing here reads the alias: a script's or notebook's is unused, a library's is for callers
            return ctx.runs_here
        return all(_stays_eager(ctx, u, depth + 1, seen) for u in uses)
    if isinstance(parent, ast.IfExp) and use is not parent.test:
        return _stays_eager(ctx, parent, depth + 1, seen)
    if isinstance(parent, (ast.Tuple, ast.List, ast.Set)) or (isinstance(parent, ast.Dict) and use in parent.values):
        return _stays_eager(ctx, parent, depth + 1, seen)  # kept in a container that is bound to a name, never jitted
    if isinstance(parent, ast.Subscript) and parent.value is use:
        return _stays_eager(ctx, parent, depth + 1, seen)  # `fns["s"](x)`: what the container holds, called
    if ctx.names.partial_target(parent) is use:  # `partial(f, k)`: f stays eager when the partial does
        return _stays_eager(ctx, parent, depth + 1, seen)
    if isinstance(parent, ast.Return):
        factory = enclosing_function(ctx.program, parent)
        sites = facts.call_sites(factory) if isinstance(factory, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        return bool(sites) and all(
            isinstance(c := ctx.program.parent(s), ast.Call) and c.func is s and _stays_eager(ctx, c, depth + 1, seen)
            for s in sites
        )
    handed_to = ctx.names.qualname(parent.func) if isinstance(parent, ast.Call) else None
    return not (handed_to is None or handed_to.startswith(_MAY_JIT) or facts.is_jit(parent.func))


def _name_loads(ctx: Context) -> dict[str, list[ast.Name]]:
    """Every read of each plain name, in program order."""
    loads: dict[str, list[ast.Name]] = {}
    for node in ctx.program.of_type(ast.Name):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    return loads


def _jitted_loop_fix(loop: ast.For | ast.AsyncFor | ast.While, ctx: Context, *, flax: bool) -> str:
    # The rewrite depends only on the loop's text (and the file's names, the same for all its loops), and a
    # long generated file repeats one loop at thousands of places: it is written once per distinct text.
    lines = range(loop.lineno, (loop.end_lineno or loop.lineno) + 1)
    key = (loop.col_offset, "\n".join(ctx.program.line_text(n) for n in lines), flax)
    written: dict[tuple[int, str, bool], str] = ctx.index("jitted loop fixes", dict)
    if key not in written:
        inner = loop_rewrite(loop, ctx.names, flax=flax)
        body = "\n".join("    " + line for line in inner.splitlines())
        header = "@jax.jit  # jit the function that holds the loop, with the loop as a scan\ndef run(...):"
        written[key] = f"{header}\n{body}\n    return ..."
    return written[key]


def _eager_ops(ctx: Context, nodes: list[ast.AST], _seen: frozenset[ast.AST] = frozenset()) -> tuple[int, int]:
    """(JAX operations, whole programs: Flax applies and functions jitted elsewhere called without their jit) that
    ``nodes`` dispatch, counting into the un-jitted local functions they call."""
    ops = applies = 0
    for node in nodes:
        if isinstance(node, ast.Call):
            qualified = ctx.names.qualname(node.func) or ""
            if qualified.startswith(JAX_OPS):
                last = qualified.rsplit(".", 1)[-1]
                ops += last not in _CONSTRUCTORS and not last[:1].isupper()  # `lax.ConvDimensionNumbers`: a class
            elif qualified.startswith("optax."):
                ops += qualified.rsplit(".", 1)[-1] in _OPTAX_OPS
            elif ctx.kinds.library_step(node) is not None:
                # a library's whole JAX function, run eagerly: `e.step(s, a)` of `e = envs.create(...)`, Waymax's
                # `state = datatypes.update_state_by_log(state, num_steps=1)`
                applies += 1
            elif qualified and ctx.facts.plain_call_of_jitted(node) is None:
                continue  # a library's function, unless the file jits it and calls it by its own name (case 348)
            elif ctx.facts.is_flax_call(node):
                applies += 1
            elif ctx.facts.updates_an_optimiser(node):
                ops += 1
            elif ctx.facts.local_def(node) is None and ctx.facts.plain_call_of_jitted(node) is not None:
                # `nuts.step(k, s)` where the file jits `nuts.step`, cuthbert's `filter(...)` beside `jax.jit(filter)`:
                # a whole JAX function, run eagerly
                applies += 1
            elif isinstance(node.func, ast.Attribute) and ctx.kinds.of(node.func.value) == "jax":
                ops += not is_wait(ctx, node)
            elif any(
                ctx.facts.is_jax_transform(v) and not ctx.facts.jitted_key_of(v) for v in ctx.facts.passed_functions(node)
            ):
                ops += 1  # bench(jax.grad(f)) ... df(x): an un-jitted transform, run op by op
            elif runs_a_timing(ctx, node):
                continue  # a benchmark helper's call (case 370): its operations are its own, judged where they run
            elif (function := ctx.facts.local_def(node)) is not None and function not in _seen:
                plain = ctx.facts.plain_call_of_jitted(node)
                if function not in ctx.facts.jitted_defs or plain is not None:
                    inner = _eager_ops(ctx, list(local_walk(ctx.program, function)), _seen | {function})
                    if plain is not None and inner == (0, 0) and ctx.facts.parameter_values(node.func) is None:
                        # the file jits it: JAX code, whatever it calls (`node.update()` of a library); a parameter
                        # of the same name (`def bench(fun): fun()`) is its callers' value, not that function
                        inner = (0, 1)
                    ops, applies = ops + inner[0], applies + inner[1]
        elif isinstance(node, ast.BinOp) and ctx.kinds.of(node) == "jax":
            ops += 1
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and ctx.kinds.of(node.value) == "jax":
            ops += 1  # `x[i - 1:i + 2]`: indexing a JAX array dispatches a slice or gather of its own
    return ops, applies


def _runs_transform_eagerly(ctx: Context, call: ast.Call, region: TimedRegion) -> bool:
    """``call``, timed, runs an un-jitted JAX transform (`_iteration.runs_many_operations`; a jitted one is one
    program), optax and Flax steps aside: timing an optimiser step eagerly is another question. Only where the
    timing repeats the call (a loop, a function called repeatedly, a harness that runs it many times: %timeit,
    ``timeit(number=100)``, pytest-benchmark): LB114 is dispatch repeated, and a transform timed once (jaxopt's
    ``t0 = time.time(); J = jax.jacrev(f)(x); time.time() - t0``, cases 289-291) is one cold sample, LB104's."""
    if region.samples == "single" or _once_beside_the_repeats(ctx, call, region):
        return False
    if ctx.facts.is_flax_call(call) or _is_measure(ctx, call):
        return False
    qualified = ctx.names.qualname(call.func) or ""
    if qualified.startswith("optax.") or (isinstance(call.func, ast.Attribute) and call.func.attr == "update"):
        return False
    if region.harness and _a_library_as_its_users_call_it(ctx, call):
        return False
    return runs_many_operations(ctx.facts, call)


def _once_beside_the_repeats(ctx: Context, call: ast.Call, region: TimedRegion) -> bool:
    """The region's figure is a total over a loop it holds, and ``call`` sits beside that loop, not in it: it runs
    once per figure (phylojax's ``y, vjp_fn = vjp(log_prob, x, theta)`` before ``for _ in range(replicates):
    vjp_fn(...)``, case 461). Its cost is one cold run inside the total, not dispatch repeated."""
    if region.samples != "averaged":
        return False
    loops = [n for n in walk_code(ctx.program, list(region.statements)) if isinstance(n, (*LOOPS, *COMPREHENSIONS))]
    if not loops:
        return False
    return not any(any(a is loop for loop in loops) for a in ctx.program.ancestors(call))


def _a_library_as_its_users_call_it(ctx: Context, call: ast.Call) -> bool:
    """A harness repeats a transform of a function the file does not define (``jax.grad(self.objective.step)(...)``,
    GPJax's objective) in a file that jits nothing: a suite timing a library's functions as its users call them,
    eager by design (GPJax's asv ``objectives.py``, case 354; the readings of cases 242 and 300). The repeated eager
    call is the subject timed, not a mistake in it. A file that jits elsewhere (case 052) times its eager calls
    beside compiled ones, where the missing jit is the fault."""
    facts = ctx.facts
    transforms = [v for v in [call.func, *facts.callee_values(call.func)] if facts.is_jax_transform(v)]
    functions = [v.args[0] for v in transforms if isinstance(v, ast.Call)]
    if not transforms or not all(_defined_elsewhere(ctx, f) for f in functions):
        return False
    return not ctx.index("LB114 file jits", lambda: _jits_anything(ctx))


def _defined_elsewhere(ctx: Context, function: ast.expr) -> bool:
    """``function`` is one the file does not define: a method or module function reached by attribute
    (``self.objective.step``, ``gpx.fit``) or an imported name. A plain name may be a parameter its callers hand a
    local def (``jax.vmap(func)`` with ``bench(loss, ...)``): not known to be the library's."""
    if ctx.facts.function_of(function) is not None:
        return False
    return isinstance(function, ast.Attribute) or ctx.names.qualname(function) is not None


def _jits_anything(ctx: Context) -> bool:
    """The file applies a jit somewhere (a call, a decorator, a name bound to one) or compiles ahead of time."""
    facts = ctx.facts
    if facts.jit_targets or facts.jitted_defs or facts.aot or facts.jit_wrappers:
        return True
    return any(facts.is_jit(n.func) for n in ctx.program.of_type(ast.Call))  # type: ignore[attr-defined]


def _eager_half_of_a_comparison(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs without its jit a function the file jits elsewhere, and the file times the jitted version too
    (``%%timeit grad_function(x)`` beside ``%%timeit jitted_grad_function(x)``, ``jitted_grad_function =
    jax.jit(grad_function)``): the eager figure is the baseline of a comparison with jit, not a mistake in it."""
    site = ctx.facts.plain_call_of_jitted(call)
    if site is None:
        return False
    holder = ctx.program.parent(site.node)
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and (name := dotted(holder.targets[0]))):
        return False
    timed = ctx.index("LB114 timed callees", lambda: {dotted(c.func) for r in ctx.regions for c in ctx.timed_calls(r)})
    return name in timed


def _handed_eager_and_jitted(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a parameter of its function, and the file's calls of that function hand it a callable at one
    call and the jit of the same callable at another (phylojax's ``test(fn, grad(fn), ...)`` beside
    ``test(jit(fn), jit(grad(fn)), ...)``, case 461): the helper times both halves of a comparison with jit, and
    the eager figure is its baseline, as the eager call of a jitted function's plain name is
    (`_eager_half_of_a_comparison`)."""
    values = ctx.facts.parameter_values(call.func)
    if not values or len(values) < 2:
        return False
    facts = ctx.facts
    texts = {ast.unparse(v) for v in values}
    for value in values:
        for held in [value, *(facts.callee_values(value) if isinstance(value, ast.Name) else [])]:
            if (isinstance(held, ast.Call) and facts.is_jit(held.func) and len(held.args) == 1
                    and ast.unparse(held.args[0]) in texts):
                return True
    return False


def _an_eager_copy_beside_its_timed_twin(ctx: Context, function: ast.AST | None) -> bool:
    """``function`` is a separately written eager copy of code the file runs jitted and times too: another local
    function has its shape (the same parameters and body, up to the names of local functions, their decorators and
    docstrings), that twin runs compiled programs (it is jitted, or calls jitted functions) where this one runs
    none, and a timing reaches the twin. The Flax speed-test notebook (case 279) writes ``train_model_no_jit`` ->
    ``train_epoch_no_jit`` -> ``apply_model_no_jit`` line for line beside ``train_model`` -> ``train_epoch`` ->
    ``apply_model`` (``@jax.jit``) and times both epochs with ``%timeit -o``: the eager figure is the baseline of
    the comparison, as the eager call of a jitted function's plain name is (`_eager_half_of_a_comparison`), and
    the loops of the copy are the loops of its twin, run without jit on purpose."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    shapes: dict[str, list[ast.AST]] = ctx.index("LB114 function shapes", lambda: _function_shapes(ctx))
    twins = [f for f in shapes.get(_shape(ctx, function), ()) if f is not function]
    if not twins or _runs_compiled(ctx, function):
        return False
    reaches: list[tuple[frozenset[int], bool]] = ctx.index(
        "timed reach", lambda: [_reach(ctx, r.work) for r in ctx.regions]
    )
    return any(_runs_compiled(ctx, t) and any(id(t) in ids for ids, _ in reaches) for t in twins)


def _runs_compiled(ctx: Context, function: ast.AST) -> bool:
    """``function`` is jitted, or runs compiled programs itself or through the local functions it calls."""
    if function in ctx.facts.jitted_defs:
        return True
    compiled: dict[int, bool] = ctx.index("LB114 helpers that run compiled programs", dict)
    if id(function) not in compiled:
        compiled[id(function)] = False  # a recursive helper reads False while it is being looked at
        compiled[id(function)] = _reach(ctx, tuple(function.body))[1]  # type: ignore[attr-defined]
    return compiled[id(function)]


def _function_shapes(ctx: Context) -> dict[str, list[ast.AST]]:
    shapes: dict[str, list[ast.AST]] = {}
    for function in ctx.program.of_type(ast.FunctionDef, ast.AsyncFunctionDef):
        shapes.setdefault(_shape(ctx, function), []).append(function)
    return shapes


def _shape(ctx: Context, function: ast.AST) -> str:
    """The text of ``function`` without its name, decorators and docstring, each local function's name written
    ``_``: two functions of one shape run the same code but for the local functions they call by name."""
    cache: dict[int, str] = ctx.index("LB114 shape texts", dict)
    if id(function) not in cache:
        local = ctx.index(
            "LB114 local function names",
            lambda: frozenset(f.name for f in ctx.program.of_type(ast.FunctionDef, ast.AsyncFunctionDef)),  # type: ignore[attr-defined]
        )
        cache[id(function)] = ast.dump(_Anonymized(local).visit(copy.deepcopy(function)))
    return cache[id(function)]


class _Anonymized(ast.NodeTransformer):
    def __init__(self, local: frozenset[str]) -> None:
        self.local = local

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name, node.decorator_list, node.returns = "_", [], None
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:] or [ast.Pass()]  # the docstring
        node.body = body
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.local:
            node.id = "_"
        return node


def _a_pass_of_a_comparison(ctx: Context, loop: ast.AST, call: ast.Call) -> bool:
    """Each pass of the timed ``loop`` runs ``call``, the eager version of a function whose jitted version the file
    times too, as one independent run: the loop repeats the call or maps it over elements (nothing one pass stores
    is read by the loop, and the pass yields the call's value: waits for it or collects it), and the function has
    no Python loop of its own. Then the figure is the eager function's, run after run, the baseline of the
    comparison (m1-cpu-benchmarks: ``for i in range(100): apply_matrix(m).block_until_ready()`` beside the same
    loop over ``apply_matrix_jit``; the naive batch ``[apply_matrix(v) for v in vs]``), as a ``%timeit`` of it is
    (`_eager_half_of_a_comparison`). Not a rollout, whose passes hand state on (``x = step(x)``) or run for what
    they change (``step(i)`` of a simulation that updates its model), nor a function whose own Python loop runs op
    by op (``slow_function`` with its 1000-step loop): those are LB114's whoever compares them."""
    if not _eager_half_of_a_comparison(ctx, call):
        return False
    function = ctx.facts.local_def(call)
    if function is None and ctx.facts.function_of(call.func) is None and isinstance(call.func, ast.Name):
        # a function the file imports or binds (`transform_ratios` from the project, `vjp_fn` from `vjp`): its
        # loops are not the file's; the same run repeated is the measurement (case 461)
        return _same_run_repeated(ctx, loop, call)
    if function is None or any(isinstance(n, (*LOOPS, *COMPREHENSIONS)) for n in local_walk(ctx.program, function)):
        return False
    return _independent_passes(ctx, loop, call) or _same_run_repeated(ctx, loop, call)


def _twin_drops_its_value(ctx: Context, call: ast.Call) -> bool:
    """A timed call of the jitted twin of ``call``'s function (the name its jit is bound to) is a statement of its own
    too, its value dropped: the eager pass is written as the jitted pass it is compared with (phylojax's
    ``transform_ratios(...)`` beside ``transform_ratios_jit(...)``, case 461)."""
    site = ctx.facts.plain_call_of_jitted(call)
    holder = ctx.program.parent(site.node) if site is not None else None
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and (name := dotted(holder.targets[0]))):
        return False
    return any(
        dotted(c.func) == name and isinstance(ctx.program.parent(c), ast.Expr)
        for r in ctx.regions for c in ctx.timed_calls(r)
    )


def _same_run_repeated(ctx: Context, loop: ast.AST, call: ast.Call) -> bool:
    """Each pass of ``loop`` makes ``call`` on the same inputs, as a statement of its own whose value is bound to a
    name (``log_p = log_prob(h, theta)``, ``_ = vjp_fn(ct)[0]``) or dropped as its jitted twin's is
    (``transform_ratios(r, bounds, idx)``, `_twin_drops_its_value`), and the loop reads nothing a pass stores: the eager half of a comparison with jit run again and again, as its
    twin is (phylojax's 'JIT off' loops, case 461). A call handed the loop's variable (``step(i)``) is not."""
    node: ast.AST = call
    parent = ctx.program.parent(node)
    while isinstance(parent, ast.Subscript) and parent.value is node:
        node, parent = parent, ctx.program.parent(parent)
    if isinstance(parent, ast.Assign):
        if parent.value is not node or not all(isinstance(t, ast.Name) for t in parent.targets):
            return False
    elif not isinstance(parent, ast.Expr) or not _twin_drops_its_value(ctx, call):
        return False  # a value dropped where the jitted twin's is kept runs for what it changes (case 239)
    if ctx.program.parent(parent) is not loop:
        return False  # a statement of the loop's own body, not one under a branch
    if isinstance(loop, COMPREHENSIONS) or not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    targets = [loop.target] if isinstance(loop, (ast.For, ast.AsyncFor)) else []
    names = [n for n in local_walk(ctx.program, loop) if isinstance(n, ast.Name)]
    stored = {n.id for n in names if isinstance(n.ctx, ast.Store)}
    stored |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    read_by_call = {n.id for n in ast.walk(call) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if read_by_call & stored:
        return False
    return not any(isinstance(n.ctx, ast.Load) and n.id in stored for n in names)


def _selects_for_a_baseline(ctx: Context, loop: ast.AST, own: list[ast.AST]) -> bool:
    """The loop's own operations only index elements out of JAX arrays (``point = trajectories[i * j]``), and a
    loop nested in it runs, pass by pass, the eager half of a comparison with jit (`_a_pass_of_a_comparison`):
    the loops around the eager baseline map it over the elements, as the vmapped twin maps it over the arrays
    (mppic's triple loop of ``dist_fn`` beside ``jax.jit(jax.vmap(dist_fn))``, case 526)."""
    subscripts = [n for n in own if isinstance(n, ast.Subscript)]
    others = [n for n in own if not any(n is s or s in ctx.program.ancestors(n) for s in subscripts)]
    if _eager_ops(ctx, others) != (0, 0):
        return False
    for inner in ctx.program.walk(loop, skip=(*SCOPES, *COMPREHENSIONS)):
        if inner is loop or not isinstance(inner, (ast.For, ast.AsyncFor, ast.While)):
            continue
        for call in _own_nodes(ctx, inner):
            if isinstance(call, ast.Call) and ctx.facts.plain_call_of_jitted(call) is not None \
                    and _a_pass_of_a_comparison(ctx, inner, call):
                return True
    return False


def _independent_passes(ctx: Context, loop: ast.AST, call: ast.Call) -> bool:
    """Each pass of ``loop`` runs ``call`` as one independent run: it yields the call's value (`_yields_its_value`)
    and reads nothing an earlier pass stored."""
    if not _yields_its_value(ctx, loop, call):
        return False
    if isinstance(loop, COMPREHENSIONS):
        targets = [g.target for g in loop.generators]  # type: ignore[attr-defined]
    else:
        targets = [loop.target] if isinstance(loop, (ast.For, ast.AsyncFor)) else []
    bound = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    names = [n for n in local_walk(ctx.program, loop) if isinstance(n, ast.Name)]
    stored = {n.id for n in names if isinstance(n.ctx, ast.Store)} - bound - _bound_first_each_pass(loop)
    return not any(isinstance(n.ctx, ast.Load) and n.id in stored for n in names)


def _bound_first_each_pass(loop: ast.AST) -> set[str]:
    """Names a statement of the loop's own body binds by a plain assignment before any statement of the pass reads
    them (``segment = segments[k]`` then ``dist_fn(point, segment)``, case 526): each pass's own, not carried from
    the one before."""
    body = getattr(loop, "body", None)
    if not isinstance(body, list) or isinstance(loop, COMPREHENSIONS):
        return set()
    fresh: set[str] = set()
    read: set[str] = set()
    for statement in body:
        read |= {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if isinstance(statement, ast.Assign) and all(isinstance(t, ast.Name) for t in statement.targets):
            fresh |= {t.id for t in statement.targets if t.id not in read}  # type: ignore[attr-defined]
    return fresh


def _yields_its_value(ctx: Context, loop: ast.AST, call: ast.Call) -> bool:
    """The pass waits for ``call``'s value (``f(x).block_until_ready()``, ``jax.block_until_ready(f(x))``) or
    collects it (the element of a comprehension, ``ys.append(f(x))``); a value dropped runs for what it changes."""
    parent = ctx.program.parent(call)
    if isinstance(loop, COMPREHENSIONS) and getattr(loop, "elt", None) is call:
        return True
    if isinstance(parent, ast.Attribute) and parent.value is call:
        outer = ctx.program.parent(parent)
        return isinstance(outer, ast.Call) and outer.func is parent and is_wait(ctx, outer)
    if isinstance(parent, ast.Call) and call in parent.args:
        collects = isinstance(parent.func, ast.Attribute) and parent.func.attr == "append"
        return collects or is_wait(ctx, parent)
    if isinstance(parent, ast.Expr):  # its value dropped: unwaited (LB102's), and no state when mapped (case 526)
        return _mapped_as_its_vmapped_twin(ctx, loop, call) and _changes_nothing(ctx, ctx.facts.local_def(call))
    return False


def _mapped_as_its_vmapped_twin(ctx: Context, loop: ast.AST, call: ast.Call) -> bool:
    """The file's jit of ``call``'s function is a jit of its ``jax.vmap`` (``jax.jit(jax.vmap(dist_fn))``), and the
    pass hands ``call`` an element that the loop's variable indexes out of an array (``segment = segments[k]``,
    bound in the pass, or written in the call): the loop is the per-element map the vmapped twin vectorizes, each
    pass one element's run (mppic's distance benchmark, case 526). The same input each pass (``affine(v)``) is
    not a map: a value dropped there runs for what it changes."""
    site = ctx.facts.plain_call_of_jitted(call)
    if site is None or not any(isinstance(n, ast.Call) and ctx.names.qualname(n.func) == "jax.vmap"
                               for n in ast.walk(site.node)):
        return False
    variables = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} \
        if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
    if not variables:
        return False
    bound = {s.targets[0].id: s.value for s in getattr(loop, "body", [])  # type: ignore[attr-defined]
             if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)}
    for argument in call.args:
        value = bound.get(argument.id, argument) if isinstance(argument, ast.Name) else argument
        if isinstance(value, ast.Subscript) and any(
                isinstance(n, ast.Name) and n.id in variables for n in ast.walk(value.slice)):
            return True
    return False


_MUTATORS = frozenset({"append", "extend", "insert", "update", "add", "pop", "setdefault", "write", "put", "clear"})


def _changes_nothing(ctx: Context, function: ast.AST | None) -> bool:
    """``function`` is a local def that returns a value and changes nothing outside it: no ``global`` or
    ``nonlocal``, no store to an attribute or an item, no call of a container's or a file's mutating method
    (mppic's ``def dist_fn(point, segment): return jnp.linalg.norm(point - segment)``, case 526). Called for its
    value and the value dropped, it ran for its time, not for what it changes."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    nodes = list(local_walk(ctx.program, function))
    if not any(isinstance(n, ast.Return) and n.value is not None for n in nodes):
        return False
    for node in nodes:
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return False
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS:
            return False
    return True


def _unread_work_on_jax_values(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a function the file imports from its own project (no library the model knows, no local def)
    and hands it JAX values: work the model cannot read, likely the compiled step the loop exists for (gpt-jax's
    ``loss, train_state = train_step(train_state, tokens, keys_dropout)``, pmapped in ``train.py``, case 325). One
    eager operation beside it is not what the loop's time is made of."""
    qualified = ctx.names.qualname(call.func)
    if qualified is None or "." not in qualified or ctx.facts.local_def(call) is not None:
        return False
    if qualified.split(".", 1)[0] in NOT_PROJECT_MODULES or qualified.startswith((*JAX_LIBRARIES, *_MAY_JIT)):
        return False  # the frameworks' and known libraries' functions are read by what they are
    if ctx.kinds.of(call):
        return False
    return any(ctx.kinds.of(a) == "jax" for a in [*call.args, *(k.value for k in call.keywords)])


def _a_handed_objects_step(ctx: Context, call: ast.Call) -> bool:
    """``states, obs, r, a, d = env.v_step(states, actions, key)`` in a function handed ``env``, or of an ``env`` the
    file builds with a class it imports from its own project (``batched_env = RolloutManager(env, batch_size=100)``
    from ``rollout_menager``): a method of an object whose code the file does not show, run on JAX values, whose results
    the loop binds (the project's object: as a state it hands back, `_threads_state`). A step an environment or a
    model object exposes is its compiled program (Gigastep's
    ``GigastepEnv.v_step``, jitted and vmapped in the library, cases 331 and 332; JaxMARL's ``RolloutManager.batch_step``,
    jitted in the test folder's other module, case 426), and the key splits around it are the glue of the loop, as
    beside a step the file jits itself. A known library's object is read as what it is (`Kinds.library_step`)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return False
    if ctx.kinds.library_step(call) or ctx.names.qualname(func) is not None:
        return False
    owner = func.value.id
    if owner in ("self", "cls"):
        return False
    assign = ctx.program.parent(call)
    if not isinstance(assign, ast.Assign):
        return False
    handed = _handed(ctx, call, owner) and not ctx.kinds.of(call)
    # a project object's step is read as returning what it is handed (JAX): still its program, when it is written as
    # JAX steps are, state in and state out (``_, state, ... = env.batch_step(key, state, actions)``); a stateful
    # environment's ``timestep = env.step(action)`` (a Gymnasium wrapper, case 367) is not
    if not (handed or (_built_by_a_project_class(ctx, call, owner) and _threads_state(call, assign))):
        return False
    return any(ctx.kinds.of(a) == "jax" for a in [*call.args, *(k.value for k in call.keywords)])


def _threads_state(call: ast.Call, assign: ast.Assign) -> bool:
    """``call`` is handed a name its own assignment binds again: the loop's state, threaded through the step."""
    bound = {n.id for t in assign.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return any(isinstance(a, ast.Name) and a.id in bound for a in [*call.args, *(k.value for k in call.keywords)])


def _handed(ctx: Context, call: ast.Call, owner: str) -> bool:
    """``owner`` is a parameter of the function around ``call`` that the function never rebinds."""
    function = enclosing_function(ctx.program, call)
    if function is None or owner not in parameter_names(function):
        return False
    return not any(isinstance(n, ast.Name) and n.id == owner and isinstance(n.ctx, ast.Store)
                   for n in local_walk(ctx.program, function))  # rebound: not (only) what the caller handed


def _built_by_a_project_class(ctx: Context, call: ast.Call, owner: str) -> bool:
    """Every value ``owner`` is bound to is an object of a class the file imports from its own project (no library
    the model knows, no local class): ``RolloutManager(env, batch_size=parallel_envs)``."""
    values = ctx.facts.bindings.values_at(owner, call)
    if not values:
        return False
    for value in values:
        qualified = ctx.names.qualname(value.func) if isinstance(value, ast.Call) else None
        if qualified is None or "." not in qualified or not names_a_class(qualified):
            return False
        if qualified.split(".", 1)[0] in NOT_PROJECT_MODULES or qualified.startswith((*JAX_LIBRARIES, *_MAY_JIT)):
            return False
    return True


def _a_library_objects_call(ctx: Context, call: ast.Call) -> bool:
    """``data = sine.sample(sample_key, (n,))`` of ``sine = Sine(...)`` from numpyro: a method of an object a JAX
    library's class built (`Facts.library_call`), whose result the loop uses. The library computes it; the
    key splits around it are the loop's glue, as beside a handed object's step (`_a_handed_objects_step`, case 350).
    A library whose objects' methods run op by op until the user jits them is read as such (`Kinds.library_step`)."""
    library = ctx.facts.library_call(call)
    return library is not None and library.gives_values and ctx.kinds.library_step(call) is None


def _set_up_once(ctx: Context, function: ast.AST | None) -> bool:
    """``function`` is a helper of the script or notebook that only its top level calls, once per call site, outside
    every timing and every loop, and what it returns feeds a timing (``block_mask, ... = sparsify_mask(mask, (bm,
    bn))`` in a cell of the Pallas block-sparse page, then ``benchmark(pallas_impl, n_trials)(block_mask, ...)``, case
    418): its loops build the benchmark's input once, like a loop the cell writes itself, and their dispatch is in none
    of the figures. A helper whose results are the example's own output (QuantEcon's ``simulate``, whose series are
    plotted, case 162), handed on by name, called from another function or in a loop, is a routine whose every call
    pays the dispatch; so is a training loop, which computes rather than fills an input (`_fills_an_array`, the
    reading of cases 382 and 387)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if not isinstance(ctx.program.parent(function), ast.Module):
        return False
    uses = [n for n in ctx.program.of_type(ast.Name) if n.id == function.name and isinstance(n.ctx, ast.Load)]
    if not uses:
        return False
    for use in uses:
        call = ctx.program.parent(use)
        if not (isinstance(call, ast.Call) and call.func is use) or id(call) in ctx.timed_ids:
            return False
        if enclosing_function(ctx.program, call) is not None:
            return False
        if any(isinstance(a, (*LOOPS, *COMPREHENSIONS)) for a in ctx.program.ancestors(call)):
            return False
    return any(_feeds_a_timing(ctx, ctx.program.parent(use)) for use in uses)


def _fills_an_array(loop: ast.AST, own: list[ast.AST]) -> bool:
    """The loop writes an array element by element at its own variables (``block_mask = block_mask.at[i, j].set(...)``
    in ``for j in ...``): it builds an input, as a loop that appends rows and stacks them does (`_assembles_an_array`),
    not a computation run step by step (a training loop's updates)."""
    variables = {n.id for n in ast.walk(getattr(loop, "target", ast.Pass())) if isinstance(n, ast.Name)}
    for node in own:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        at = node.func.value
        if (isinstance(at, ast.Subscript) and isinstance(at.value, ast.Attribute) and at.value.attr == "at"
                and any(isinstance(n, ast.Name) and n.id in variables for n in ast.walk(at.slice))):
            return True
    return False


def _feeds_a_timing(ctx: Context, call: ast.AST | None) -> bool:
    """A name bound from ``call``'s result is read later by timed code, or handed to a call of a local function that
    times what it runs (``benchmark(f, n)(block_mask, ...)``, the timing in the ``run`` it returns)."""
    assign = ctx.program.parent(call) if call is not None else None
    while isinstance(assign, (ast.Tuple, ast.List)):  # `blocks, other = blocks_of(mask, bm), None`
        assign = ctx.program.parent(assign)
    if not isinstance(assign, ast.Assign):
        return False
    bound = {n.id for t in assign.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    timing = {
        id(a) for r in (*ctx.regions, *ctx.instrumentation) for a in ctx.program.ancestors(r.anchor)
        if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    after = getattr(assign, "end_lineno", 0) or 0
    for name in ctx.program.of_type(ast.Name):
        if name.id not in bound or not isinstance(name.ctx, ast.Load) or name.lineno <= after:
            continue
        if id(name) in ctx.timed_ids:
            return True
        for outer in ctx.program.ancestors(name):
            if not isinstance(outer, ast.Call):
                continue
            callees = [outer, *([outer.func] if isinstance(outer.func, ast.Call) else [])]
            if any(id(d) in timing for c in callees if (d := ctx.facts.local_def(c)) is not None):
                return True
    return False


def _assembles_an_array(ctx: Context, loop: ast.AST, own: list[ast.AST]) -> bool:
    """The loop appends to a list that the code right after it turns into one array (jax-triton's blocksparse
    benchmark: ``for i, k in zip(range(num_rows), random.split(k2, num_rows)): ... indices.append(row)``, then
    ``indices = jnp.array(indices)``): the loop builds an input, once. In a file that times other work, the loop
    is set-up, and what it dispatches is in none of the figures."""
    appended = {
        n.func.value.id for n in own
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
        and isinstance(n.func.value, ast.Name)
    }
    if not appended:
        return False
    where = ctx.program.statement_list(loop)
    if where is None:
        return False
    body, index = where
    for statement in body[index + 1:]:
        for node in ast.walk(statement):
            if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)
                    and node.args[0].id in appended
                    and (ctx.names.qualname(node.func) or "").rsplit(".", 1)[-1] in ASSEMBLERS):
                return True
    return False


def _is_measure(ctx: Context, call: ast.Call) -> bool:
    return (ctx.names.qualname(call.func) or "").startswith("levelbench.")


def _inside(ctx: Context, node: ast.AST, calls: list[ast.Call]) -> bool:
    """``node`` is one of ``calls`` or part of one (its arguments, its callee)."""
    return any(node is c or any(a is c for a in ctx.program.ancestors(node)) for c in calls)


def _unjitted_timed_calls(ctx: Context) -> Iterator[tuple[ast.Call, Diagnostic]]:
    """A timed call of the plain version of a function that is jitted elsewhere, whose loop runs op by op; or
    of an un-jitted transform (`jax.vmap(f)`, `jax.vjp`), which runs the whole program op by op. Each comes with the
    call it is reported at: a loop whose work is that call is the same fault, reported there once."""
    facts = ctx.facts
    for region in ctx.regions:
        for call in ctx.timed_calls(region):
            if (_runs_transform_eagerly(ctx, call, region) and not _eager_half_of_a_comparison(ctx, call)
                    and not _an_eager_copy_beside_its_timed_twin(ctx, facts.local_def(call))):
                yield call, ctx.report(
                    "LB114",
                    call,
                    f"`{short(call)}` is timed running a JAX transform without jit: every operation of the "
                    "transformed function is dispatched one by one",
                    evidence=f"the region timed by {region.by} calls an un-jitted `jax.vmap`, `grad`, `vjp` or the like",
                    fix="timed = jax.jit(fn)  # jit the transformed function, warm it up, then time `timed`",
                )
                break
            function = facts.local_def(call)
            if function is None or function not in facts.jitted_defs:
                continue
            loops = [n for n in local_walk(ctx.program, function) if isinstance(n, LOOPS)]
            if not any(sum(_eager_ops(ctx, list(local_walk(ctx.program, loop)))) for loop in loops):
                continue
            site = facts.jitted_defs[function]
            yield call, ctx.report(
                "LB114",
                call,
                f"`{short(call)}` times `{function.name}` without jit: its Python loop dispatches JAX operations "
                "one by one",
                evidence=f"`{function.name}` is jitted elsewhere ({site_text(ctx, site)}) but called directly here",
                fix=f"# time the jitted version, e.g. `{site.label}`, warmed up and blocked",
            )
            break
