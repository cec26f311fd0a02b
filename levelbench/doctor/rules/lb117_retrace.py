"""LB117, retrace-per-call: the check; the rule's words are its catalogue entry.

What counts as evidence of a new shape each iteration is in `_shapes`; this module adds the two
causes that are not about an array's size: a list that grows, and a static argument that takes the
loop's values.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._iteration import spelled_out
from .._shapes import ShapeEvidence, changing_names, index_parts, length_varies, loop_variables
from .._syntax import enclosing_function, enclosing_loop, local_walk, short
from .._vocabulary import is_sweep
from .._warmth import static_arguments

CODE = "LB117"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB117: a jitted function called in a loop with an argument whose shape or static value changes."""
    facts = ctx.facts
    shapes: ShapeEvidence | None = None
    for call in ctx.program.of_type(ast.Call):
        key = facts.jitted_key(call)
        if key is None or not call.args:
            continue
        loop = enclosing_loop(ctx.program, call)
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            continue
        if id(call) not in ctx.timed_ids and isinstance(loop, (ast.For, ast.AsyncFor)) and spelled_out(
            facts, ctx.kinds, loop
        ) is not None:
            continue  # untimed, a loop over values the code names asks for one program per value, on purpose
        function = enclosing_function(ctx.program, call)
        if function is not None and function in facts.traced_defs:
            continue  # traced once with the function around it, not once per call
        nodes = list(local_walk(ctx.program, loop))
        if isinstance(loop, (ast.For, ast.AsyncFor)) and is_sweep(ctx, loop, nodes):
            continue  # timing per size: compiling per size is what it measures
        varying = loop_variables(loop)
        computed: set[str] | None = None  # what the loop body computes from its variables, when needed
        grown = _grown_lists(loop)
        positions, names = static_arguments(ctx.facts, key, call)
        for index, argument in enumerate(call.args):
            static = index in positions
            why = _changes_each_iteration(argument, varying, grown, static=static)
            evidence = f"`{short(argument, 30)}` depends on the loop ({', '.join(sorted(varying | grown)) or 'its state'})"
            if why is None and not static:
                shapes = shapes or ShapeEvidence(ctx)
                computed = changing_names(loop, nodes) if computed is None else computed
                found = shapes.new_each_iteration(argument, loop, computed)
                if found is not None:
                    why, evidence = found
            if why is None:
                continue
            yield ctx.report(
                "LB117",
                argument,
                f"`{short(call.func, 30)}` is called in a loop with `{short(argument, 30)}`, {why}: jit traces and "
                "compiles again for every new one",
                evidence=evidence,
                fix=_retrace_fix(why),
            )
            break
        for keyword in call.keywords:
            if keyword.arg in names and _changes_each_iteration(keyword.value, varying, grown, static=True):
                yield ctx.report(
                    "LB117",
                    keyword.value,
                    f"static argument `{keyword.arg}` of `{short(call.func, 30)}` takes a new Python value every "
                    "iteration: jit traces and compiles again for each",
                    evidence=f"`{keyword.arg}` is in static_argnames and depends on the loop",
                    fix=_retrace_fix("a static argument"),
                )
                break


_SCALAR_OF = frozenset({"len", "sum", "min", "max", "any", "all"})
"""Builtins that reduce a container to one value: passing their result passes no growing list."""


def _grown_lists(loop: ast.AST) -> set[str]:
    """Lists appended to in the loop body: a new length every iteration."""
    return {
        n.func.value.id for n in ast.walk(loop)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend")
        and isinstance(n.func.value, ast.Name)
    }


def _changes_each_iteration(argument: ast.AST, varying: set[str], grown: set[str], *, static: bool) -> str | None:
    if static and any(isinstance(n, ast.Name) and n.id in varying | grown for n in ast.walk(argument)):
        return "a static argument with a new value each time"  # `n=len(times)` static: a new value, a new trace
    for node in ast.walk(argument):
        if isinstance(node, ast.Subscript) and any(length_varies(part, varying) for part in index_parts(node)):
            return "a slice whose length changes every iteration"
    if any(node.id in grown for node in _whole_values(argument)):
        return "a list that grows every iteration"
    return None


def _whole_values(argument: ast.AST) -> list[ast.Name]:
    """The names ``argument`` passes whole: not those it only indexes one element of (``states[-1]`` passes
    the last state, whose shape does not change as ``states`` grows; ``states[:i]`` passes part of the list)."""
    out: list[ast.Name] = []
    work = [argument]
    while work:
        node = work.pop()
        if isinstance(node, ast.Name):
            out.append(node)
            continue
        if isinstance(node, ast.Subscript) and not any(isinstance(n, ast.Slice) for n in ast.walk(node.slice)):
            work.append(node.slice)  # an element: its index is read, the container is not passed
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SCALAR_OF:
            continue  # `len(times)`: a number whose value changes, not a container whose shape does
        work.extend(ast.iter_child_nodes(node))
    return out


def _retrace_fix(why: str) -> str:
    if "slice" in why:
        return "mask = jnp.arange(n) < i  # one shape for every i\ny = f(jnp.where(mask[:, None], x, 0.0))"
    if "grows" in why:
        return "buffer = jnp.zeros((n_max, ...))  # preallocated, fixed shape\nbuffer = buffer.at[i].set(value)"
    if "element" in why or "size" in why:
        return (
            "# pad every array to one length (or a few bucket lengths) and pass a mask\n"
            "padded = jnp.zeros(n_max).at[: len(x)].set(x)\nmask = jnp.arange(n_max) < len(x)\ny = f(padded, mask)"
        )
    return "# pass the changing number as a traced argument (drop it from static_argnums),\n# or loop inside jit: jax.lax.fori_loop"
