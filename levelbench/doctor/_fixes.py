"""The fix of each auto-fixable rule, as edits of the user's text (see `_edits`; the clock-pair fixes,
LB104 and LB105, are in `_fix_pairs`).

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
    def f(x): y = g(x)              LB107 ->  ... return y              (unsafe; a commented-out
                                              `# return ...` stays, the return goes under it)
    jnp.float64 without x64         LB108 ->  jax.config.update("jax_enable_x64", True) at the top  (unsafe)
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable

from ._context import Context
from ._diagnostic import Edit, Fix
from ._edits import as_fix, never_hides_the_finding, with_imports
from ._fix_pairs import pair
from ._program import MAGIC_MARKER
from ._regions import TimedRegion
from ._syntax import COMPREHENSIONS, FUNCTIONS, LOOPS, short

_WARM_UP_COMMENT = "# warm-up: compiles and fills caches outside the timing"
# NumPy samplers whose first parameter has a default, so the shape can move to `size=` alone.
_DEFAULTED_FIRST = frozenset(
    {"normal", "uniform", "laplace", "logistic", "lognormal", "gumbel", "exponential", "poisson", "rayleigh"}
)
_CELL_MAGIC_LINE = re.compile(r"^\s*(#\s?)?%%")

# --- LB101 -------------------------------------------------------------------------------------
@never_hides_the_finding
def call_the_lambda(ctx: Context, lam: ast.Lambda) -> Fix | None:
    """``%timeit lambda: f(x)`` -> ``%timeit f(x)``: the harness runs the statement itself."""
    a = lam.args
    if a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg:
        return None
    edit = ctx.editor.delete_between(lam, lam.body, r"lambda\s*:\s*")
    return as_fix([edit], f"time `{short(lam.body)}` itself, not the making of a lambda")


# --- LB102 -------------------------------------------------------------------------------------
@never_hides_the_finding
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
    return as_fix(with_imports(editor, [line], *wrapped), f"wait for `{short(culprit)}` inside the timing")


def _returns_a_value(ctx: Context, function: ast.AST) -> bool:
    if isinstance(function, ast.Lambda):
        return True
    return any(
        isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None)
        for n in ast.walk(function)
    )


# --- LB103 -------------------------------------------------------------------------------------
@never_hides_the_finding
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
    return as_fix(with_imports(editor, [import_line], insert), f"warm up `{short(call)}` before timing it")


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


# --- LB109 -------------------------------------------------------------------------------------
@never_hides_the_finding
def size_keyword(ctx: Context, call: ast.Call, sampler: str) -> Fix | None:
    """``np.random.normal((n, n))`` -> ``np.random.normal(size=(n, n))`` when the shape is the only argument."""
    if len(call.args) != 1 or sampler not in _DEFAULTED_FIRST:
        return None
    wrapped = ctx.editor.wrap(call.args[0], "size=", "")
    return as_fix(wrapped[:1] if wrapped else None, "pass the shape as `size=`")


# --- LB112 -------------------------------------------------------------------------------------
@never_hides_the_finding
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
    return as_fix(with_imports(editor, [import_line], *edits), "time the model under torch.inference_mode()")


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
@never_hides_the_finding
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
    return as_fix(edits, f"import `{guess}`, the closest existing name")


# --- LB107 (unsafe) ----------------------------------------------------------------------------
_COMMENTED_RETURN = re.compile(r"^(?P<indent>\s*)#\s*return\b\s*(?P<value>.*)$")


@never_hides_the_finding
def return_value(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Fix | None:
    """Return the computed value: the commented-out ``return`` (on a new line under the comment, which
    stays) when every name in it exists, else the last name the body assigns."""
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
        value = m["value"].rstrip()
        # The commented-out line stays: --fix never deletes a comment, so the return goes under it.
        return as_fix(
            [editor.insert_lines_after(line, f"return {value}", indent)], f"return `{value}` (the commented-out return)"
        )
    name = _last_assigned(function)
    if name is None:
        return None
    return as_fix([editor.insert_lines_after(last_line, f"return {name}", indent)], f"return `{name}`")


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
@never_hides_the_finding
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
    return as_fix([editor.add_lines_at_top(text)], "enable float64 in JAX before any array is made")
