"""The fix of each auto-fixable rule, as edits of the user's text (see `_edits`).

Each function returns a `Fix`, or None when the fix cannot be made safely here (a position that
cannot be trusted, a name that is taken, a string that indenting would change, a cell magic that
nothing can be inserted before); the finding then keeps its fix as text only. Whether a fix is
applied by ``--fix`` or only by ``--unsafe-fixes`` is the rule's ``fix_safety`` in the catalogue.

    %timeit lambda: f(x)            LB101 ->  %timeit f(x)
    %timeit f(x)                    LB102 ->  %timeit jax.block_until_ready(f(x))
    %time f(x)                      LB103 ->  jax.block_until_ready(f(x))  # warm-up ...
                                              %time f(x)
    t0 = time.time(); y = f(x)      LB104 ->  y = f(x)
    print(time.time() - t0)                   elapsed = min(timeit.repeat(lambda: f(x), number=1, repeat=5))
                                              print(elapsed)
    t0 = time.time()                LB105 ->  t0 = time.perf_counter()   (and the clock that ends the pair)
    np.random.normal((n, n))        LB109 ->  np.random.normal(size=(n, n))
    %timeit model(x)                LB112 ->  with torch.inference_mode():
                                                  %timeit model(x)
    from jax import jix             LB113 ->  from jax import jit
    def f(x): y = g(x)              LB107 ->  ... return y              (unsafe)
    jnp.float64 without x64         LB108 ->  jax.config.update("jax_enable_x64", True) at the top  (unsafe)
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from ._context import Context
from ._edits import Edit, Fix, with_imports
from ._program import MAGIC_MARKER
from ._regions import CLOCKS, TimedRegion
from ._syntax import COMPREHENSIONS, FUNCTIONS, LOOPS, short

_WARM_UP_COMMENT = "# warm-up: compiles and fills caches outside the timing"
# NumPy samplers whose first parameter has a default, so the shape can move to `size=` alone.
_DEFAULTED_FIRST = frozenset(
    {"normal", "uniform", "laplace", "logistic", "lognormal", "gumbel", "exponential", "poisson", "rayleigh"}
)
_CELL_MAGIC_LINE = re.compile(r"^\s*(#\s?)?%%")


_Builder = TypeVar("_Builder", bound=Callable[..., "Fix | None"])


def _never_hides_the_finding(build: _Builder) -> _Builder:
    """A fix builder that fails gives no fix: the finding is still reported (with its fix as text)."""

    @functools.wraps(build)
    def guarded(*args: object, **kwargs: object) -> Fix | None:
        try:
            return build(*args, **kwargs)
        except (RecursionError, ValueError, LookupError, AttributeError, TypeError):
            return None

    return guarded  # type: ignore[return-value]


def _fix(edits: Iterable[Edit | None] | None, description: str) -> Fix | None:
    if edits is None:
        return None
    found = tuple(edits)
    if not found or any(e is None for e in found):
        return None
    return Fix(tuple(e for e in found if e is not None), description)


# --- LB101 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def call_the_lambda(ctx: Context, lam: ast.Lambda) -> Fix | None:
    """``%timeit lambda: f(x)`` -> ``%timeit f(x)``: the harness runs the statement itself."""
    a = lam.args
    if a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg:
        return None
    edit = ctx.editor.delete_between(lam, lam.body, r"lambda\s*:\s*")
    return _fix([edit], f"time `{short(lam.body)}` itself, not the making of a lambda")


# --- LB102 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def wait_for(ctx: Context, culprit: ast.AST) -> Fix | None:
    """Wrap the timed JAX expression in ``jax.block_until_ready(...)``, which works on any pytree."""
    if not isinstance(culprit, ast.expr):
        return None
    if isinstance(culprit, ast.Call):
        function = ctx.facts.local_def(culprit)
        if function is not None and not _returns_a_value(ctx, function):
            return None  # it returns nothing to wait on: blocking on None would hide the problem, not fix it
    editor = ctx.editor
    imported = editor.import_for("jax", culprit)
    if imported is None:
        return None
    name, line = imported
    wrapped = editor.wrap(culprit, f"{name}.block_until_ready(", ")")
    if wrapped is None:
        return None
    return _fix(with_imports(editor, [line], *wrapped), f"wait for `{short(culprit)}` inside the timing")


def _returns_a_value(ctx: Context, function: ast.AST) -> bool:
    if isinstance(function, ast.Lambda):
        return True
    return any(
        isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None)
        for n in ast.walk(function)
    )


# --- LB103 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def warm_up(ctx: Context, region: TimedRegion, call: ast.Call) -> Fix | None:
    """A blocked warm-up call on a line of its own before the timed region (out of any loop it can leave)."""
    editor = ctx.editor
    text = editor.source(call)
    if text is None or "\n" in text or _bound_in_region(ctx, region, call):
        return None
    line = _line_before(ctx, region, call)
    if line is None:
        return None
    imported = editor.import_for("jax", call)
    if imported is None:
        return None
    name, import_line = imported
    insert = editor.insert_lines_before(line, f"{name}.block_until_ready({text})  {_WARM_UP_COMMENT}")
    return _fix(with_imports(editor, [import_line], insert), f"warm up `{short(call)}` before timing it")


def _bound_in_region(ctx: Context, region: TimedRegion, call: ast.Call) -> bool:
    """The call reads a name the timed code binds (an assignment before it, a lambda or comprehension variable)."""
    for ancestor in ctx.program.ancestors(call):
        if isinstance(ancestor, COMPREHENSIONS) or (isinstance(ancestor, ast.Lambda) and _has_parameters(ancestor)):
            return True
    used = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    stored = {
        n.id for item in region.work for n in ast.walk(item)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    return bool(used & stored)


def _has_parameters(lam: ast.Lambda) -> bool:
    a = lam.args
    return bool(a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg)


def _line_before(ctx: Context, region: TimedRegion, call: ast.Call) -> int | None:
    """The virtual line a warm-up goes before: the magic's line, or the statement that starts the timing,
    moved out of loops that do not bind the call's names."""
    program = ctx.program
    stmt = _statement_of(ctx, region.anchor)
    if stmt is None:
        return None
    if _is_marker(stmt):
        line = stmt.lineno
        return None if _CELL_MAGIC_LINE.match(program.line_text(line)) else line
    used = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    target: ast.AST = stmt
    for ancestor in program.ancestors(stmt):
        if isinstance(ancestor, FUNCTIONS) or not isinstance(ancestor, (*LOOPS, ast.If, ast.With, ast.Try)):
            break
        if isinstance(ancestor, LOOPS):
            if used & _stored(ancestor):
                break
            target = ancestor
    if not ctx.editor.starts_line(target):
        return None
    return target.lineno


def _statement_of(ctx: Context, node: ast.AST) -> ast.stmt | None:
    """The statement holding ``node``; for a timing magic, the marker block standing for its line."""
    found: ast.stmt | None = node if isinstance(node, ast.stmt) else None
    for ancestor in ctx.program.ancestors(node):
        if _is_marker(ancestor):
            return ancestor  # type: ignore[return-value]
        if found is None and isinstance(ancestor, ast.stmt):
            found = ancestor
    return found


def _is_marker(node: ast.AST) -> bool:
    if not isinstance(node, ast.With) or not node.items:
        return False
    expr = node.items[0].context_expr
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == MAGIC_MARKER


def _stored(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


# --- clock pairs (LB104, LB105, LB112) ------------------------------------------------------------
class _Pair:
    """A clock pair as statements: ``var = clock()`` ... the statement with ``clock() - var`` (or
    ``end = clock()`` ... ``end - var``)."""

    def __init__(self, block: list[ast.stmt], start: int, end: int, subtraction: ast.BinOp | None,
                 end_clock: ast.Call | None, end_assignment: ast.Assign | None) -> None:
        self.block = block
        self.start = start
        self.end = end
        self.subtraction = subtraction
        self.end_clock = end_clock
        self.end_assignment = end_assignment


def _pair(ctx: Context, region: TimedRegion) -> _Pair | None:
    clock = region.clock_node
    start_stmt = ctx.program.parent(clock) if clock is not None else None
    if not isinstance(start_stmt, ast.Assign) or not isinstance(start_stmt.targets[0], ast.Name):
        return None
    block = _block_of(ctx, start_stmt)
    if block is None:
        return None
    i = next(k for k, s in enumerate(block) if s is start_stmt)
    var = start_stmt.targets[0].id
    end_assignment: ast.Assign | None = None
    for j in range(i + 1, len(block)):
        stmt = block[j]
        for node in ctx.program.walk(stmt):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Name) \
                    and node.right.id == var:
                left = node.left
                if _is_clock(ctx, left):
                    return _Pair(block, i, j, node, left, None)  # type: ignore[arg-type]
                if isinstance(left, ast.Name) and end_assignment is not None and _assigned(end_assignment) == left.id:
                    return _Pair(block, i, j, node, end_assignment.value, end_assignment)  # type: ignore[arg-type]
                return None
        if isinstance(stmt, ast.Assign) and _is_clock(ctx, stmt.value):
            if _assigned(stmt) == var:
                return None
            if end_assignment is None:
                end_assignment = stmt
    if end_assignment is not None:  # the difference is left out of the snippet
        j = next(k for k, s in enumerate(block) if s is end_assignment)
        return _Pair(block, i, j, None, end_assignment.value, end_assignment)  # type: ignore[arg-type]
    return None


def _block_of(ctx: Context, stmt: ast.stmt) -> list[ast.stmt] | None:
    parent = ctx.program.parent(stmt)
    for field in ("body", "orelse", "finalbody"):
        value = getattr(parent, field, None)
        if isinstance(value, list) and any(s is stmt for s in value):
            return value
    return None


def _is_clock(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and not node.args and ctx.names.qualname(node.func) in CLOCKS


def _assigned(stmt: ast.Assign) -> str | None:
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    return target.id if isinstance(target, ast.Name) else None


# --- LB104 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def repeat_timing(ctx: Context, region: TimedRegion) -> Fix | None:
    """One clock pair around one statement -> the statement stays as the warm-up, and the timing is the
    best of 5 runs by ``timeit.repeat`` (or ``levelbench.measure``'s median when levelbench is imported)."""
    pair = _pair(ctx, region)
    if pair is None or pair.subtraction is None or region.before_clock or len(region.statements) != 1:
        return None
    block, editor = pair.block, ctx.editor
    work = region.statements[0]
    if work is not block[pair.start + 1]:
        return None
    if isinstance(work, ast.Assign) and len(work.targets) == 1:
        expr: ast.expr = work.value
    elif isinstance(work, ast.Expr):
        expr = work.value
    else:
        return None
    start_stmt = block[pair.start]
    if pair.end_assignment is None and pair.end != pair.start + 2:
        return None
    if pair.end_assignment is not None and pair.end_assignment is not block[pair.start + 2]:
        return None
    var = _assigned(start_stmt)  # type: ignore[arg-type]
    uses = [pair.subtraction.right] + ([pair.subtraction.left] if pair.end_assignment is not None else [])
    if _read_elsewhere(ctx, start_stmt, var, uses) or (
        pair.end_assignment is not None and _read_elsewhere(ctx, pair.end_assignment, _assigned(pair.end_assignment), uses)
    ):
        return None
    text = editor.source(expr)
    if text is None or not all(editor.starts_line(s) for s in (start_stmt, work)):
        return None
    elapsed = _fresh_name(ctx, "elapsed")
    levelbench = editor.module_name("levelbench", (start_stmt.lineno, 0))
    imports: list[str] = []
    if levelbench is not None:
        timing = f"{elapsed} = {levelbench}.measure(lambda: {text}).median  # warm-up, repeats, median"
    else:
        imported = editor.import_for("timeit", start_stmt)
        if imported is None:
            return None
        name, line = imported
        imports.append(line)
        timing = f"{elapsed} = min({name}.repeat(lambda: {text}, number=1, repeat=5))  # best of 5, warmed up above"
    delete_start = _delete_lines(ctx, start_stmt)
    if delete_start is None:
        return None
    indent = editor.indentation(work.lineno)
    if pair.end_assignment is not None:
        timed = editor.replace(pair.end_assignment, timing)
    else:
        timed = editor.insert_lines_after(work.end_lineno or work.lineno, timing, indent)
    difference = editor.replace(pair.subtraction, elapsed)
    return _fix(
        with_imports(editor, imports, delete_start, timed, difference),
        f"time `{short(expr)}` over repeated runs after a warm-up",
    )


def _read_elsewhere(ctx: Context, assignment: ast.stmt, var: str | None, allowed: list[ast.AST]) -> bool:
    """``var`` (bound by ``assignment``) is read somewhere other than ``allowed`` before it is bound again."""
    if var is None:
        return True
    scope = _scope_of(ctx, assignment)
    start = (assignment.lineno, assignment.col_offset)
    rebinds = sorted(
        (n.lineno, n.col_offset) for n in ast.walk(scope)
        if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Store) and (n.lineno, n.col_offset) > start
    )
    until = rebinds[0] if rebinds else (10**9, 0)
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id == var and isinstance(node.ctx, ast.Load):
            if start < (node.lineno, node.col_offset) < until and all(node is not a for a in allowed):
                return True
    return False


def _scope_of(ctx: Context, node: ast.AST) -> ast.AST:
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return ancestor
    return ctx.program.module


def _fresh_name(ctx: Context, base: str) -> str:
    used = {n.id for n in ctx.program.of_type(ast.Name)} | {
        a.asname or a.name for n in ctx.program.of_type(ast.Import, ast.ImportFrom) for a in n.names  # type: ignore[attr-defined]
    }
    if base not in used:
        return base
    return next(f"{base}_{k}" for k in range(2, 1000) if f"{base}_{k}" not in used)


def _delete_lines(ctx: Context, stmt: ast.stmt) -> Edit | None:
    """Delete the whole lines of ``stmt`` (nothing else may be on them but a comment)."""
    editor = ctx.editor
    end_line = stmt.end_lineno or stmt.lineno
    end_col = editor.point(end_line, stmt.end_col_offset or 0)[2]
    rest = ctx.program.line_text(end_line)[end_col:].strip()
    if rest and not rest.startswith("#"):
        return None
    segment = ctx.program.segment_of(stmt.lineno)
    if end_line < segment.first_line + len(segment.lines) - 1:
        return editor.edit(stmt.lineno, 0, end_line + 1, 0, "")
    return editor.edit(stmt.lineno, 0, end_line, len(ctx.program.line_text(end_line)), "")


# --- LB105 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def steady_clock(ctx: Context, region: TimedRegion) -> Fix | None:
    """``time.time()`` -> ``time.perf_counter()`` at both ends of the pair (``_ns`` kept)."""
    pair = _pair(ctx, region)
    if pair is None or pair.end_clock is None or region.clock_node is None:
        return None
    edits: list[Edit | None] = []
    for clock in (region.clock_node, pair.end_clock):
        func = clock.func  # type: ignore[attr-defined]
        qualified = ctx.names.qualname(func)
        if qualified not in ("time.time", "time.time_ns") or not isinstance(func, ast.Attribute):
            return None
        owner = ctx.editor.source(func.value)
        if owner is None:
            return None
        suffix = "_ns" if qualified.endswith("_ns") else ""
        edits.append(ctx.editor.replace(func, f"{owner}.perf_counter{suffix}"))
    return _fix(edits, "time with the steady, high-resolution clock time.perf_counter()")


# --- LB109 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def size_keyword(ctx: Context, call: ast.Call, sampler: str) -> Fix | None:
    """``np.random.normal((n, n))`` -> ``np.random.normal(size=(n, n))`` when the shape is the only argument."""
    if len(call.args) != 1 or sampler not in _DEFAULTED_FIRST:
        return None
    wrapped = ctx.editor.wrap(call.args[0], "size=", "")
    return _fix(wrapped[:1] if wrapped else None, "pass the shape as `size=`")


# --- LB112 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def inference_mode(ctx: Context, region: TimedRegion) -> Fix | None:
    """Put the timed lines under ``with torch.inference_mode():``."""
    lines = _region_lines(ctx, region)
    if lines is None:
        return None
    first, last = lines
    editor = ctx.editor
    imported = editor.import_for("torch", region.anchor)
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
    return _fix(with_imports(editor, [import_line], *edits), "time the model under torch.inference_mode()")


def _region_lines(ctx: Context, region: TimedRegion) -> tuple[int, int] | None:
    """The virtual lines that hold the whole timed region, when they are whole statements of one block."""
    program = ctx.program
    if region.clock_node is not None:
        pair = _pair(ctx, region)
        if pair is None:
            return None
        start, end = pair.block[pair.start], pair.block[pair.end]
        if not ctx.editor.starts_line(start):
            return None
        return start.lineno, end.end_lineno or end.lineno
    stmt = _statement_of(ctx, region.anchor)
    if stmt is None or not ctx.editor.starts_line(stmt):
        return None
    if _is_marker(stmt):
        text = program.line_text(stmt.lineno)
        if _CELL_MAGIC_LINE.match(text) or text.lstrip().startswith("#") or text.rstrip().endswith("\\"):
            return None
        return stmt.lineno, stmt.lineno
    return stmt.lineno, stmt.end_lineno or stmt.lineno


# --- LB113 -------------------------------------------------------------------------------------
@_never_hides_the_finding
def nearest_name(ctx: Context, alias: ast.alias, candidates: Iterable[str]) -> Fix | None:
    """``from jax import jix`` -> ``from jax import jit``, when one existing name is clearly the closest.

    Uses of the bad name in the file are renamed too (unless it was imported ``as`` another name).
    """
    ranked = sorted(
        ((difflib.SequenceMatcher(None, alias.name, c).ratio(), c) for c in candidates), reverse=True
    )
    if not ranked or ranked[0][0] < 0.6 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    guess = ranked[0][1]
    editor = ctx.editor
    span = editor._span(alias)
    if span is None:
        return None
    line, col = span[0], span[1]
    edits: list[Edit | None] = [editor.edit(line, col, line, col + len(alias.name), guess)]
    if alias.asname is None:
        uses = [n for n in ctx.program.of_type(ast.Name) if isinstance(n, ast.Name) and n.id == alias.name]
        if uses and any(isinstance(n, ast.Name) and n.id == guess for n in ctx.program.of_type(ast.Name)):
            return None  # `jit` already means something here: renaming the uses would change it
        edits.extend(editor.replace(n, guess) for n in uses)
    return _fix(edits, f"import `{guess}`, the closest existing name")


# --- LB107 (unsafe) ----------------------------------------------------------------------------
_COMMENTED_RETURN = re.compile(r"^(?P<indent>\s*)#\s*return\b\s*(?P<value>.*)$")


@_never_hides_the_finding
def return_value(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Fix | None:
    """Return the computed value: the commented-out ``return`` when every name in it exists, else the last
    name the body assigns."""
    editor, program = ctx.editor, ctx.program
    body = function.body
    if not body or not editor.starts_line(body[0]) or body[0].lineno == function.lineno:
        return None
    indent = editor.indentation(body[0].lineno)
    last_line = body[-1].end_lineno or body[-1].lineno
    segment = program.segment_of(function.lineno)
    for line in range(last_line + 1, min(last_line + 4, segment.first_line + len(segment.lines))):
        m = _COMMENTED_RETURN.match(program.line_text(line))
        if m is None or m["indent"] != indent or not _names_exist(ctx, function, m["value"]):
            continue
        start = len(m["indent"])
        value_at = program.line_text(line).index(m["value"], start) if m["value"] else len(program.line_text(line))
        return _fix([editor.edit(line, start, line, value_at, "return ")], f"return `{m['value']}` (uncommented)")
    name = _last_assigned(function)
    if name is None:
        return None
    return _fix([editor.insert_lines_after(last_line, f"return {name}", indent)], f"return `{name}`")


def _names_exist(ctx: Context, function: ast.AST, text: str) -> bool:
    try:
        expr = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    local = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)} | _stored(function)
    known = {n.id for n in ctx.program.of_type(ast.Name) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    known |= {getattr(d, "name", "") for d in ctx.program.of_type(ast.FunctionDef, ast.ClassDef)}
    for node in ctx.program.of_type(ast.Import, ast.ImportFrom):
        known |= {(a.asname or a.name).split(".")[0] for a in node.names}  # type: ignore[attr-defined]
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id not in local | known and ctx.names.qualname(node) is None:
            return False
    return True


def _last_assigned(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for stmt in reversed(function.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            return stmt.targets[0].id
    return None


# --- LB108 (unsafe) ----------------------------------------------------------------------------
@_never_hides_the_finding
def enable_x64(ctx: Context) -> Fix | None:
    """``jax.config.update("jax_enable_x64", True)`` after the file's leading imports."""
    editor = ctx.editor
    point = editor.import_point()
    if point is None:
        return None
    line, after = point
    name = editor.module_name("jax", (line + (1 if after else 0), 0))
    text = 'jax.config.update("jax_enable_x64", True)'
    if name is None:
        if not ctx.names.free_for("jax", "jax"):
            return None
        text = "import jax\n" + text
    else:
        text = text.replace("jax.", f"{name}.", 1)
    return _fix([editor.add_lines_at_top(text)], "enable float64 in JAX before any array is made")
