"""LB112, torch-autograd-timed: the check and its fix; the rule's words are its catalogue entry.

    %timeit model(x)                ->  with torch.inference_mode():
                                            %timeit model(x)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._autograd import grad_off_around, turns_grad_off
from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding, with_imports
from .._fixes import CELL_MAGIC_LINE, is_marker, pair, statement_of
from .._intent import figure_never_read
from .._names import dotted
from .._regions import TimedRegion, decorated_bodies
from .._syntax import enclosing_function, local_walk, on_other_branches, position, short

CODE = "LB112"


def _grad_off_globally(ctx: Context, region: TimedRegion) -> bool:
    """``torch.set_grad_enabled(False)`` before the region, or parameters frozen with ``requires_grad_(False)``."""
    for node in ctx.program.of_type(ast.Call, ast.Assign):
        if isinstance(node, ast.Call):
            if turns_grad_off(ctx, node) and position(node) < region.start:
                if not isinstance(ctx.program.parent(node), ast.withitem):
                    return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "requires_grad_":
                if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False:
                    return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False:
            if any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in node.targets):
                return True
    return False


def _model_calls(ctx: Context, region: TimedRegion) -> Iterator[tuple[ast.Call, ast.Call, ast.AST | None]]:
    """(call in the region, model call it makes, the decorated body it sits in): the model directly, inside a local
    function, or in the body of a function that a timing decorator's clock pair runs (`decorated_bodies`: the
    wrapper's ``fn(*args)`` stands for every function it decorates, so the model call is the place to report)."""
    for call in ctx.timed_calls(region):
        if ctx.facts.is_torch_model_call(call):
            yield call, call, None
            continue
        function = ctx.facts.local_def(call)
        if function is not None:
            for inner in local_walk(ctx.program, function):
                if isinstance(inner, ast.Call) and ctx.facts.is_torch_model_call(inner):
                    yield call, inner, None
    for body in decorated_bodies(ctx.program, ctx.facts, region):
        sites = ctx.facts.call_sites(body)
        if sites and all(grad_off_around(ctx, s) for s in sites):
            continue  # every call of it runs under torch.no_grad()
        for inner in local_walk(ctx.program, body):
            if isinstance(inner, ast.Call) and ctx.facts.is_torch_model_call(inner):
                yield inner, inner, body


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB112: a PyTorch model called in a timed region with autograd recording."""
    if not ctx.facts.torch_models and not ctx.facts.torch_classes and "torch" not in ctx.facts.frameworks:
        return
    for region in ctx.regions:
        if grad_off_around(ctx, region.anchor) or _runs_without_grad(ctx, region) or _in_forward(ctx, region):
            continue
        if figure_never_read(ctx, region):
            continue  # a warm-up run through a harness: no figure for autograd to inflate
        for outer, inner, body in _model_calls(ctx, region):
            if _trains(ctx, region, outer, inner, body):
                continue  # timing a training step: autograd is the point
            if grad_off_around(ctx, outer) or grad_off_around(ctx, inner):
                continue
            if _grad_off_globally(ctx, region):
                return
            func = inner.func
            if isinstance(func, ast.Attribute) and func.attr == "forward":
                func = func.value
            model = dotted(func) or short(func)
            via = "" if outer is inner else f" (inside `{short(outer.func)}`)"
            timed = short(outer)
            fix_line = f"{region.label} {timed}" if region.label.startswith("%") else f"...time `{timed}` here..."
            yield ctx.report(
                "LB112",
                outer,
                f"PyTorch model `{model}` is timed with autograd on{via}: every call records the graph for a "
                "backward pass",
                evidence=f"no torch.no_grad() / torch.inference_mode() around `{short(inner)}`",
                fix=f"{model}.eval()\nwith torch.inference_mode():\n    {fix_line}",
                edits=lambda: inference_mode(ctx, region, inner if body is not None else None),
            )
            break


def _in_forward(ctx: Context, region: TimedRegion) -> bool:
    """The region is in a torch module's ``forward``: the module serves training and inference alike, and whoever
    calls it sets the grad mode, so timing there says nothing of autograd."""
    function = enclosing_function(ctx.program, region.anchor)
    owner = ctx.program.parent(function) if function is not None else None
    return (
        getattr(function, "name", "") == "forward" and isinstance(owner, ast.ClassDef)
        and owner.name in ctx.facts.torch_classes
    )


def _runs_without_grad(ctx: Context, region: TimedRegion) -> bool:
    """``t = Timer("model(x)")`` ... ``with torch.no_grad(): t.blocked_autorange()``: the statement runs at the call."""
    parent = ctx.program.parent(region.anchor)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    timer = parent.targets[0].id
    runs = [
        c for c in ctx.program.of_type(ast.Call)
        if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) and c.func.value.id == timer
    ]
    return bool(runs) and all(grad_off_around(ctx, c) for c in runs)


def _trains(ctx: Context, region: TimedRegion, outer: ast.Call, inner: ast.Call, body: ast.AST | None) -> bool:
    """The run that calls the model ``inner`` (through ``outer``, in the decorated ``body`` if any) runs a backward
    pass (``loss.backward()``, ``torch.autograd.grad``): it times training, and autograd is the point. A backward
    pass on another branch of an ``if`` than the model call is another run's (``if grad: model(y).backward()``,
    ``else: model(y)``: the ``else`` times inference with autograd on), and each decorated body is a run of its
    own."""
    program = ctx.program
    calls = ctx.timed_calls(region)
    # (call, where it stands in the run the model call is in, the local function it is in)
    reached: list[tuple[ast.AST, ast.AST, ast.AST | None]] = [(c, c, None) for c in calls]
    reached += [(m, c, f) for c in calls if (f := ctx.facts.local_def(c)) for m in local_walk(program, f)]
    if body is not None:
        reached += [(n, n, body) for n in local_walk(program, body)]
    model_function = body if body is not None else ctx.facts.local_def(outer) if outer is not inner else None
    for call, site, function in reached:
        if not isinstance(call, ast.Call) or not _is_backward(ctx, call):
            continue
        if function is not None and function is model_function and (body is not None or site is outer):
            apart = on_other_branches(program, call, inner)  # both in one function's run
        else:  # where the region runs each: the decorated body runs inside the wrapper's run
            apart = body is None and on_other_branches(program, site, outer)
        if not apart:
            return True
    return False


def _is_backward(ctx: Context, call: ast.Call) -> bool:
    if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
        return True
    return ctx.names.qualname(call.func) in ("torch.autograd.grad", "torch.autograd.backward")


@never_hides_the_finding
def inference_mode(ctx: Context, region: TimedRegion, model_call: ast.Call | None = None) -> Fix | None:
    """Put the timed lines under ``with torch.inference_mode():``; only the statement of ``model_call`` when it is
    in a decorated body (the wrapper's lines also run the bodies that train)."""
    lines = _region_lines(ctx, region) if model_call is None else _statement_lines(ctx, model_call)
    if lines is None:
        return None
    first, last = lines
    editor = ctx.editor
    imported = editor.import_for("torch", region.anchor if model_call is None else model_call)
    if imported is None:
        return None
    name, import_line = imported
    indent = editor.indentation(first)
    unit = "\t" if "\t" in indent else "    "
    indented = editor.indent_lines(first, last, unit)
    if not indented:
        return None
    opening = editor.edit(first, 0, first, 0, f"{indent}with {name}.inference_mode():\n{unit}")
    edits = (opening, *(e for e in indented if e.line != opening.line or e.cell != opening.cell))
    return as_fix(with_imports(editor, [import_line], *edits), "time the model under torch.inference_mode()")


def _statement_lines(ctx: Context, node: ast.AST) -> tuple[int, int] | None:
    """The virtual lines of the statement that holds ``node``, when it starts its line."""
    stmt = statement_of(ctx, node)
    if stmt is None or not ctx.editor.starts_line(stmt):
        return None
    return stmt.lineno, stmt.end_lineno or stmt.lineno


def _region_lines(ctx: Context, region: TimedRegion) -> tuple[int, int] | None:
    """The virtual lines that hold the whole timed region, when they are whole statements of one block."""
    program = ctx.program
    if region.clock_node is not None:
        found = pair(ctx, region)
        if found is None:
            return None
        start, end = found.block[found.start], found.block[found.end]
        if not ctx.editor.starts_line(start):
            return None
        return start.lineno, end.end_lineno or end.lineno
    stmt = statement_of(ctx, region.anchor)
    if stmt is None or not ctx.editor.starts_line(stmt):
        return None
    if is_marker(stmt):
        text = program.line_text(stmt.lineno)
        if CELL_MAGIC_LINE.match(text) or text.lstrip().startswith("#") or text.rstrip().endswith("\\"):
            return None
        return stmt.lineno, stmt.lineno
    return stmt.lineno, stmt.end_lineno or stmt.lineno
