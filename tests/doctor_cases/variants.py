"""Variants of the real doctor cases: the same mistake (or the same correct code), written another way.

A rule that finds a mistake only as one report spelled it is a pattern, not a rule. For every case in
``tests/doctor_cases/real/`` (and every file in ``tests/doctor_cases/good/``) this module rewrites the code
the ways people write it -- the timed callable aliased, kept in a dict, wrapped (``jax.vmap``,
``functools.partial``, a conditional ``jax.jit``), defined in a factory or a class, imports under other names, the timing in a
helper, in a loop, on another clock, under ``%time``/``%timeit``, ``timeit.timeit(lambda: ...)`` or
pytest-benchmark's fixture or google_benchmark's ``while state:`` loop or a ``with Benchmark():`` block,
the script as a notebook of one cell per statement -- and says which
findings a correct doctor reports on the variant, at which lines.

Each variant knows where the case's labelled lines moved. A rewrite that changes what a correct doctor
must say changes the expected set, and says so in ``Variant.dropped`` (another clock than ``time.time``
is no LB105; ``%timeit``, the benchmark fixture and google_benchmark warm up, so no LB103 or LB104; a timing repeated in a
loop is no single sample, LB104). A kind that does not apply to a case is not produced.

Uses nothing of levelbench: it reads the code with ``ast`` and rewrites lines, so the doctor is judged
by code that does not share its model.

    from variants import case_variants
    for v in case_variants(text, codes={"LB102"}, lines={"LB102": {19}}):
        ...  # v.kind, v.text, v.expected (code -> lines), v.notebook
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterable, Iterator

KINDS = (
    "alias", "container", "partial", "vmap", "cond-jit", "factory", "method", "import-alias", "helper", "loop",
    "clock-perf_counter", "clock-monotonic", "clock-default_timer", "clock-helper", "clock-pair", "magic-time", "magic-timeit",
    "timeit-lambda", "benchmark-fixture", "google-benchmark", "with-benchmark", "notebook",
)
"""Every kind of variant, in the order they are produced."""

# Findings a harness removes on purpose where it replaces a clock pair: the rewritten code no longer has
# that mistake (no clock left: no LB105; %timeit and the fixture warm up and repeat: no LB103, LB104).
_DROPS = {
    # %time is the one run it announces: LB103 at a cold first call, never LB104 (its catalogue entry)
    "magic-time": frozenset({"LB104", "LB105"}),
    "magic-timeit": frozenset({"LB103", "LB104", "LB105"}),
    "timeit-lambda": frozenset({"LB105"}),
    "benchmark-fixture": frozenset({"LB103", "LB104", "LB105"}),
    "google-benchmark": frozenset({"LB103", "LB104", "LB105"}),
    # a `with Benchmark():` block (d2l's) reads its clock out of sight: no LB105; around one run it is still one
    # sample (LB104), as a clock pair is
    "with-benchmark": frozenset({"LB105"}),
}
_CLOCK_NAMES = frozenset({"time", "perf_counter", "monotonic", "default_timer", "process_time", "time_ns",
                          "perf_counter_ns", "now"})
_NOT_CALLEES = frozenset({"print", "range", "len", "float", "int", "str", "list", "tuple", "dict", "sum", "min",
                          "max", "abs", "enumerate", "zip", "map", "format", "repr", "round", "isinstance", "type"})


@dataclasses.dataclass(frozen=True)
class Variant:
    """One rewrite of a case.

    Attributes:
        kind: one of `KINDS`.
        text: the rewritten file (IPython syntax kept where the case has it).
        expected: code -> the lines its finding may point at in ``text`` (None: anywhere); empty for
            correct code.
        notebook: score it as a notebook (one cell per ``# %%`` part), not as a ``.py``.
        dropped: codes of the case that the rewrite removed on purpose, and why.
    """

    kind: str
    text: str
    expected: dict[str, frozenset[int] | None]
    notebook: bool = False
    dropped: tuple[str, ...] = ()
    allowed: dict[str, frozenset[int]] = dataclasses.field(default_factory=dict)
    """Findings the rewrite may add, rightly, at these lines: neither required nor false (a Python loop
    repeating un-jitted JAX work is LB114's pattern, "the loop is what a benchmark times")."""


# ---- reading the case ---------------------------------------------------------------------------

_LINE_MAGIC = re.compile(r"^(?P<indent>\s*)(?:(?P<target>[\w.]+)\s*=\s*)?%(?P<name>time|timeit)\b(?P<rest>.*)$")
_OTHER_IPYTHON = re.compile(r"^\s*(?:%|!)")
_OPTION = re.compile(r"^\s*(?:-[nr]\s*\d+|-[a-zA-Z]+)")


def _magic_statement(rest: str) -> str:
    """The statement of ``%timeit -n 10 -r 3 f(x)``: its options removed."""
    while (m := _OPTION.match(rest)) is not None:
        rest = rest[m.end():]
    return rest.strip()


class Source:
    """A case's lines and a Python view of them: magics read as the statements they time, line for line."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.magic_lines: dict[int, str] = {}  # line -> "time" / "timeit" (line magics)
        self.cell_magics: list[int] = []  # lines of %%time / %%timeit / other cell magics
        view = []
        for number, line in enumerate(self.lines, 1):
            stripped = line.strip()
            m = _LINE_MAGIC.match(line)
            if stripped.startswith("%%"):
                self.cell_magics.append(number)
                view.append("pass")
            elif m and not stripped.startswith("%%"):
                self.magic_lines[number] = m["name"]
                statement = _magic_statement(m["rest"]) or "pass"
                view.append(f"{m['indent']}{statement}")
            elif _OTHER_IPYTHON.match(line):
                view.append(re.match(r"\s*", line).group(0) + "pass")
            else:
                view.append(line)
        try:
            self.tree: ast.Module | None = ast.parse("\n".join(view))
        except SyntaxError:
            self.tree = None
        self.parents: dict[ast.AST, ast.AST] = {}
        if self.tree is not None:
            for node in ast.walk(self.tree):
                for child in ast.iter_child_nodes(node):
                    self.parents[child] = node

    def indent(self, line: int) -> str:
        return re.match(r"\s*", self.lines[line - 1]).group(0)

    def module_statement(self, node: ast.AST) -> ast.stmt:
        """The module-level statement holding ``node``."""
        while self.parents.get(node) is not self.tree:
            node = self.parents[node]
        return node  # type: ignore[return-value]

    def scope_of(self, node: ast.AST) -> ast.AST:
        """The function (or the module) whose body holds ``node``."""
        node = self.parents.get(node)
        while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            node = self.parents.get(node)
        return node if node is not None else self.tree  # type: ignore[return-value]

    def body_statement(self, node: ast.AST) -> ast.stmt:
        """The statement holding ``node`` that sits directly in its scope's body."""
        scope = self.scope_of(node)
        while self.parents.get(node) is not scope:
            node = self.parents[node]
        return node  # type: ignore[return-value]

    def in_cell_magic(self, line: int) -> int | None:
        """The ``%%`` line whose cell holds ``line`` (the cell ends at a ``# %%`` marker or the next ``%%``)."""
        for start in reversed(self.cell_magics):
            if start <= line:
                between = self.lines[start:line - 1]
                if not any(s.strip().startswith("# %%") for s in between):
                    return start
                return None
        return None


# ---- timed regions, as this module sees them ----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Region:
    """A clock pair: ``block[start]`` reads the clock, ``block[end]`` subtracts it; or a line magic."""

    block: list
    start: int
    end: int
    magic: str = ""

    @property
    def first_line(self) -> int:
        return self.block[self.start].lineno

    @property
    def last_line(self) -> int:
        return self.block[self.end].end_lineno

    @property
    def timed(self) -> list[ast.stmt]:
        return self.block[self.start + 1:self.end] if not self.magic else [self.block[self.start]]


def _is_clock(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and not node.args):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _CLOCK_NAMES


def regions(source: Source) -> list[Region]:
    found: list[Region] = []
    if source.tree is None:
        return found
    for node in ast.walk(source.tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if stmt.lineno in source.magic_lines:
                    found.append(Region(block, i, i, source.magic_lines[stmt.lineno]))
                    continue
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and _is_clock(stmt.value)):
                    continue
                var = stmt.targets[0].id
                for j in range(i + 1, len(block)):
                    if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and isinstance(n.right, ast.Name)
                           and n.right.id == var for n in ast.walk(block[j])):
                        if not (_shares_a_line(block, i) or _shares_a_line(block, j)):
                            found.append(Region(block, i, j))  # rewritten line by line: a `;`-joined one cannot be
                        break
                    if (isinstance(block[j], ast.Assign) and any(isinstance(t, ast.Name) and t.id == var for t in block[j].targets)):
                        break
    return sorted(found, key=lambda r: r.first_line)


def _shares_a_line(block: list, k: int) -> bool:
    """``block[k]`` is joined to a neighbour by ``;`` (``begin=time.perf_counter(); value=model.predict(Q)``, case
    500): the rewrites edit whole lines, so they cannot move it apart from the statements beside it."""
    return (k > 0 and block[k - 1].end_lineno == block[k].lineno) or (
        k + 1 < len(block) and block[k + 1].lineno == block[k].end_lineno)


# ---- rewriting lines ---------------------------------------------------------------------------------


class Rewrite:
    """Line edits on a source, and where each old line ends up."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.before: dict[int, list[str]] = {}
        self.after: dict[int, list[str]] = {}
        self.replaced: dict[int, str] = {}
        self.prefix: dict[int, str] = {}

    def insert_before(self, line: int, *new: str) -> None:
        self.before.setdefault(line, []).extend(new)

    def insert_after(self, line: int, *new: str) -> None:
        self.after.setdefault(line, []).extend(new)

    def replace(self, line: int, text: str) -> None:
        self.replaced[line] = text

    def indent(self, first: int, last: int, prefix: str = "    ") -> None:
        for line in range(first, last + 1):
            self.prefix[line] = prefix + self.prefix.get(line, "")

    def text(self, line: int) -> str:
        return self.replaced.get(line, self.lines[line - 1])

    def apply(self) -> tuple[str, dict[int, int]]:
        out: list[str] = []
        moved: dict[int, int] = {}
        for number, line in enumerate(self.lines, 1):
            out.extend(self.before.get(number, []))
            text = self.replaced.get(number, line)
            prefix = self.prefix.get(number, "")
            out.append(prefix + text if text.strip() else text)
            moved[number] = len(out)
            out.extend(self.after.get(number, []))
        return "\n".join(out), moved


@dataclasses.dataclass(frozen=True)
class Made:
    """A rewrite and what it does to the case's findings.

    Attributes:
        drops: codes the rewrite removes where it rewrote (``span``, old lines; everywhere when None).
        moves: old line -> old line whose new place a finding at the first now belongs to (a clock line
            turned into a comment: its findings belong to the timed line).
        allowed: code -> (old line, offset): a finding the rewrite may rightly add at ``new(old line) + offset``.
        wall: the rewrite removed every wall clock (LB105 goes).
    """

    rewrite: Rewrite
    drops: frozenset[str] = frozenset()
    span: range | None = None
    moves: dict[int, int] = dataclasses.field(default_factory=dict)
    allowed: dict[str, tuple[tuple[int, int], ...]] = dataclasses.field(default_factory=dict)
    wall: bool = False


# ---- the kinds -----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Target:
    """The callable a case times: its name as called, the calls to rewrite, how it is bound."""

    name: str  # "f" or "random.normal"
    calls: tuple[ast.Call, ...]
    local: bool  # a plain name bound in the file (def or assignment)
    definition: ast.stmt | None  # its module-level def, if it has one
    jitted: bool  # decorated with or assigned from a jit transform
    module_level: bool  # bound at module level (else inside a function)


def _bindings(tree: ast.Module) -> tuple[dict[str, list[ast.AST]], set[str]]:
    bound: dict[str, list[ast.AST]] = {}
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        bound.setdefault(n.id, []).append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound, imported


def _is_jit_expr(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
        return False  # `jax.jit(f).lower(x).compile()`: an executable, which neither vmap nor jit takes (case 145)
    text = ast.unparse(node)
    return bool(re.search(r"\b(jit|pmap|filter_jit)\b", text))


def _is_parameter(source: Source, node: ast.AST, name: str) -> bool:
    """``name`` is a parameter of a function around ``node``: renaming it there would call another value."""
    scope = source.scope_of(node)
    while scope is not source.tree:
        arguments = scope.args  # type: ignore[attr-defined]
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        if any(a is not None and a.arg == name for a in every):
            return True
        scope = source.scope_of(scope)
    return False


def find_target(source: Source, expected_lines: set[int]) -> Target | None:
    """The callable the case times: called on a timed line, on a line with an expected finding if any."""
    tree = source.tree
    if tree is None:
        return None
    bound, imported = _bindings(tree)
    timed_lines: set[int] = set()
    for region in regions(source):
        for stmt in region.timed:
            timed_lines.update(range(stmt.lineno, stmt.end_lineno + 1))
    candidates: dict[str, list[ast.Call]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.lineno not in timed_lines or _is_clock(node):
            continue
        func = node.func
        if isinstance(func, ast.Name) and _is_parameter(source, node, func.id):
            continue  # `def timer(f): f()`: the callers' value, not the module's `f` of the same name (case 166)
        if isinstance(func, ast.Name):
            if func.id in _NOT_CALLEES or func.id not in bound or func.id in imported:
                if func.id not in imported:
                    continue
            name = func.id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in imported:
            name = f"{func.value.id}.{func.attr}"
        else:
            continue
        if name.split(".")[-1] in ("block_until_ready", "synchronize", "item", "append"):
            continue
        candidates.setdefault(name, []).append(node)
    if not candidates:
        return None

    def rank(item: tuple[str, list[ast.Call]]) -> tuple[int, int, int]:
        name, calls = item
        on_expected = sum(c.lineno in expected_lines for c in calls)
        return (-on_expected, 0 if "." not in name else 1, min(c.lineno for c in calls))

    name, calls = min(candidates.items(), key=rank)
    if expected_lines and any(c.lineno in expected_lines for c in calls):
        calls = [c for c in calls if c.lineno in expected_lines] + [c for c in calls if c.lineno not in expected_lines]
    local = "." not in name and name not in imported
    definition = None
    jitted = False
    module_level = True
    if local:
        binds = bound.get(name, [])
        module_binds = [b for b in binds if source.parents.get(b) is tree]
        module_level = bool(module_binds)
        # module-level code runs the binding in effect: a loop version timed before a jitted def of the same name
        # (case 140) is not jitted there, and jitting or vmapping it would change what a correct doctor says
        first = min([c.lineno for c in calls if c.lineno in expected_lines] or [c.lineno for c in calls])
        in_effect = [b for b in module_binds if b.lineno < first]
        timed_at_module_level = all(source.scope_of(c) is tree for c in calls)
        for b in binds:
            if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if source.parents.get(b) is tree:
                    definition = b
        for b in ([in_effect[-1]] if in_effect and timed_at_module_level else binds):
            if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)):
                jitted = jitted or any(_is_jit_expr(d) for d in b.decorator_list)
            elif isinstance(b, ast.Assign):
                jitted = jitted or _is_jit_expr(b.value)
    return Target(name, tuple(calls), local, definition, jitted, module_level)


def _insertion_line(source: Source, target: Target) -> tuple[int, str]:
    """Where a new binding of the target goes (before this line, with this indentation)."""
    first = min(target.calls, key=lambda c: (c.lineno, c.col_offset))
    if target.module_level:
        stmt = source.module_statement(first)
    else:
        stmt = source.body_statement(first)
    line = stmt.lineno
    # before the clock that starts the region, when the call sits between the clock and its reading
    for region in regions(source):
        if not region.magic and region.first_line < line <= region.last_line and stmt in region.block:
            line = min(line, region.first_line)
    # before the decorators of a statement
    decorators = getattr(stmt, "decorator_list", [])
    if decorators:
        line = min(line, min(d.lineno for d in decorators) )
    cell = source.in_cell_magic(line)
    if cell is not None:
        line = cell
    # above the comment that heads the statement (`# --- First execution ---` over the clock): the comment says
    # what the timing means and stays right above it
    while line > 1 and (above := source.lines[line - 2].strip()).startswith("#") and not above.startswith("# %%") \
            and source.indent(line - 1) == source.indent(line) and line - 1 > _header_end(source):
        line -= 1
    return line, source.indent(line) if source.lines[line - 1].strip() else ""


def _header_end(source: Source) -> int:
    """The last line of the case's header comment block (0 when none)."""
    end = 0
    while end < len(source.lines) and source.lines[end].startswith("#") and not source.lines[end].startswith("# %%"):
        end += 1
    return end


def _rename_calls(rewrite: Rewrite, calls: Iterable[ast.Call], new: str, lines: list[str], source: Source) -> bool:
    """Replace each call's callee by ``new`` on its line; False when a callee is not where the AST says."""
    by_line: dict[int, list[ast.Call]] = {}
    for call in calls:
        if call.func.lineno != call.func.end_lineno:
            return False
        by_line.setdefault(call.func.lineno, []).append(call)
    for line, found in by_line.items():
        text = rewrite.text(line)
        view_offset = _view_offset(source, line)
        for call in sorted(found, key=lambda c: -c.func.col_offset):
            start, end = call.func.col_offset + view_offset, call.func.end_col_offset + view_offset
            original = ast.unparse(call.func)
            if text[start:end] != original and text[start:end].replace(" ", "") != original.replace(" ", ""):
                return False
            text = text[:start] + new + text[end:]
        rewrite.replace(line, text)
    return True


def _view_offset(source: Source, line: int) -> int:
    """How many characters a magic's prefix takes on ``line`` (the view drops it)."""
    if line not in source.magic_lines:
        return 0
    m = _LINE_MAGIC.match(source.lines[line - 1])
    statement = _magic_statement(m["rest"])
    return source.lines[line - 1].rfind(statement) - len(m["indent"])


def _callee_variant(source: Source, target: Target, kind: str) -> Made | None:
    """alias / partial / vmap / cond-jit: bind a new name to (a wrapper of) the target and time that."""
    rewrite = Rewrite(source.lines)
    base = target.name.replace(".", "_")
    if kind == "alias":
        new, binding = f"{base}_alias", f"{base}_alias = {target.name}"
    elif kind == "container":  # the callable kept in a dict and called from it
        new, binding = f'{base}_fns["{base}"]', f'{base}_fns = {{"{base}": {target.name}}}'

    elif kind == "partial":
        new, binding = f"{base}_partial", f"import functools; {base}_partial = functools.partial({target.name})"
    elif kind == "vmap":
        if not target.local or not target.jitted:
            return None
        new, binding = f"{base}_batched", f"import jax; {base}_batched = jax.vmap({target.name})"
    elif kind == "cond-jit":
        if not target.local or not target.jitted:
            return None  # jitting an un-jitted function changes what a correct doctor says
        new = f"{base}_maybe_jit"
        binding = f"import jax; use_jit = bool(1); {new} = jax.jit({target.name}) if use_jit else {target.name}"
    else:
        raise ValueError(kind)
    line, indent = _insertion_line(source, target)
    first = min(target.calls, key=lambda c: (c.lineno, c.col_offset))
    if target.local and not _bound_before(source, target.name, line):
        line, indent = _beside_call(source, first)
    calls = _reached_by(source, target.name, target.calls, _binding_in_effect(source, target.name, first))
    if kind in ("vmap", "cond-jit"):
        line, indent = _after_binding(source, target, line, indent)
        # a vmap or another jit of f compiles a program of its own: the warm-ups must go through it too
        calls = [c for c in _all_calls(source, target.name) if c.lineno >= line and c.lineno not in source.cell_magics]
        calls += [c for c in target.calls if c not in calls]
    if not _rename_calls(rewrite, calls, new, source.lines, source):
        return None
    rewrite.insert_before(line, indent + binding)
    return Made(rewrite)


def _bound_before(source: Source, name: str, line: int) -> bool:
    """Some statement above ``line`` binds ``name`` (an assignment, a def, a class, a loop, an import)."""
    for node in ast.walk(source.tree):  # type: ignore[arg-type]
        if getattr(node, "lineno", line) >= line:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name).split(".")[0] == name for a in node.names):
            return True
    return False


def _beside_call(source: Source, call: ast.Call) -> tuple[int, str]:
    """Where a new binding of a name goes when the name is first bound inside the block that calls it (223: ``net =
    RetinaFace(...)`` under ``if __name__ == '__main__':``, above the timed ``net(img)`` in a loop there): right above
    the statement that holds the call, in its own block, or above the clock that opens its timing. Above that
    block the name is not bound yet."""
    node: ast.AST = call
    while True:
        parent = source.parents.get(node)
        if parent is None or any(node in getattr(parent, f, ()) for f in ("body", "orelse", "finalbody")):
            break
        node = parent
    line = node.lineno  # type: ignore[attr-defined]
    for region in regions(source):
        if not region.magic and node in region.block and region.first_line < line <= region.last_line:
            line = region.first_line
    return line, source.indent(line)


def _module_bindings(source: Source, name: str) -> list[ast.stmt]:
    """The module-level statements that bind ``name`` (a def, a class, an assignment), in order."""
    return [s for s in source.tree.body if (  # type: ignore[union-attr]
        (isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and s.name == name)
        or (isinstance(s, ast.Assign) and any(isinstance(n, ast.Name) and n.id == name
                                              for t in s.targets for n in ast.walk(t))))]


def _binding_in_effect(source: Source, name: str, call: ast.Call) -> ast.stmt | None:
    """The module-level binding of ``name`` that a module-level ``call`` runs: the last one above it."""
    if source.scope_of(call) is not source.tree:
        return None
    before = [s for s in _module_bindings(source, name) if s.lineno < call.lineno]
    return before[-1] if before else None


def _reached_by(source: Source, name: str, calls: Iterable[ast.Call], binding: ast.stmt | None) -> list[ast.Call]:
    """The calls that run ``binding`` of ``name``. A name bound twice at module level (case 217: a PyTorch
    ``matmul_chain``, then a jitted one of the same name in the next cell) calls one function before the second
    binding and another after it: renaming the calls after it too would time the first function there, another
    mistake. Calls inside functions (which run whatever is bound when they are called) are kept."""
    calls = list(calls)
    if binding is None or len(_module_bindings(source, name)) < 2:
        return calls
    return [c for c in calls if source.scope_of(c) is not source.tree or _binding_in_effect(source, name, c) is binding]


def _after_binding(source: Source, target: Target, line: int, indent: str) -> tuple[int, str]:
    """The line after the target's last binding before ``line`` in the body of the scope that times it (where
    warm-ups can follow: a vmap or a jit bound after them would time a new program cold, as in case 145)."""
    scope = source.tree if target.module_level else source.scope_of(target.calls[0])
    body = getattr(scope, "body", None)
    if not isinstance(body, list):
        return line, indent
    binds = [s for s in _statements_around(source, scope, target.calls[0]) if s.lineno < line and (
        (isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == target.name)
        or (isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == target.name for t in s.targets)))]
    if not binds or binds[-1].end_lineno + 1 > len(source.lines) or source.in_cell_magic(binds[-1].end_lineno + 1):
        return line, indent
    # the binding's own indentation: at module scope it may sit in a block (`if __name__ == "__main__":`, case 302)
    return binds[-1].end_lineno + 1, source.indent(binds[-1].lineno)


def _statements_around(source: Source, scope: ast.AST, call: ast.Call) -> list[ast.stmt]:
    """The statements of ``scope``'s body and of every block between it and ``call`` (a `with`, a loop, an `if`
    that holds the call), in line order: the bindings the call can see there. 261 binds its jitted function inside
    `with te.autocast(...)`, then warms it up and times it in that block."""
    blocks: list[list[ast.stmt]] = []
    node: ast.AST | None = call
    while node is not None and node is not scope:
        parent = source.parents.get(node)
        if parent is None:
            break
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                blocks.append(block)
        node = parent
    return sorted((s for block in blocks for s in block), key=lambda s: s.lineno)


def _all_calls(source: Source, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(source.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == name]


def _definition_variant(source: Source, target: Target, kind: str) -> Made | None:
    """factory / method: the timed function defined inside another function or a class."""
    node = target.definition
    if node is None or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.col_offset:
        return None
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    last = node.end_lineno
    if any(source.in_cell_magic(n) for n in (first, last)) or any(n in source.magic_lines for n in range(first, last + 1)):
        return None
    rewrite = Rewrite(source.lines)
    name = node.name
    rewrite.indent(first, last)
    if kind == "factory":
        rewrite.insert_before(first, f"def make_{name}():")
        rewrite.insert_after(last, f"    return {name}", f"{name} = make_{name}()")
        return Made(rewrite)
    holder = f"{name.title().replace('_', '')}Holder"
    rewrite.insert_before(first, f"class {holder}:", "    @staticmethod")
    rewrite.insert_after(last, f"{name} = {holder}.{name}")
    renamed = [c for c in _reached_by(source, name, target.calls, node) if not source.in_cell_magic(c.lineno)]
    if not _rename_calls(rewrite, renamed, f"{holder}.{name}", source.lines, source):
        return None
    return Made(rewrite)


_IMPORT = re.compile(r"^(?P<indent>\s*)import (?P<module>[\w.]+)(?: as (?P<alias>\w+))?\s*(?:#.*)?$")
_FROM = re.compile(r"^(?P<indent>\s*)from (?P<module>[\w.]+) import (?P<names>[\w, ]+?)\s*(?:#.*)?$")
_RENAMED_MODULES = ("jax", "numpy", "torch", "time", "timeit", "functools", "optax", "flax", "equinox")


def _import_alias(source: Source) -> Made | None:
    """Every import of jax, numpy, torch, time ... under another name, and every use renamed."""
    rewrite = Rewrite(source.lines)
    renames: dict[str, str] = {}
    import_lines: set[int] = set()
    bound_twice: set[str] = set()
    modules: dict[str, set[str]] = {}  # local name -> the modules imported under it
    for number, line in enumerate(source.lines, 1):
        m = _IMPORT.match(line)
        f = _FROM.match(line)
        if m and m["module"].split(".")[0] in _RENAMED_MODULES:
            import_lines.add(number)
            module, alias = m["module"], m["alias"]
            local = alias or module
            if "." in local:
                bound_twice.add(module.split(".")[0])  # `import jax.numpy` binds jax: leave jax as it is
                continue
            modules.setdefault(local, set()).add(module)
            if local in renames:
                continue
            new = f"{local}_{len(renames) + 1}"
            if module == "jax.numpy":  # import jax.numpy as jnp -> from jax import numpy as jnp_1
                rewrite.replace(number, f"{m['indent']}from jax import numpy as {new}")
            else:  # `from jax import config` is not `import jax.config` (LB113 tells them apart)
                rewrite.replace(number, f"{m['indent']}import {module} as {new}")
            renames[local] = new
        elif f and f["module"].split(".")[0] in _RENAMED_MODULES:
            import_lines.add(number)
            parts = []
            for entry in f["names"].split(","):
                words = entry.split()
                if not words:
                    continue
                local = words[-1]
                modules.setdefault(local, set()).add(f"{f['module']}.{words[0]}")
                new = f"{local}_{len(renames) + 1}" if local not in renames else renames[local]
                renames[local] = new
                parts.append(f"{words[0]} as {new}")
            rewrite.replace(number, f"{f['indent']}from {f['module']} import {', '.join(parts)}")
    if any(len(found) > 1 for found in modules.values()):
        return None  # `import jax.numpy as np` ... `import numpy as np`: which uses mean which is the case's point
    for name in bound_twice:
        renames.pop(name, None)
        for number in import_lines:  # keep `import jax` as it is when `import jax.numpy` binds it too
            m = _IMPORT.match(source.lines[number - 1])
            if m and m["module"] == name and not m["alias"]:
                rewrite.replace(number, source.lines[number - 1])
    if not renames:
        return None
    in_header = True
    inside_strings = {
        n for node in ast.walk(source.tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
        for n in range(node.lineno + 1, node.end_lineno)
    } if source.tree is not None else set()  # the lines of a docstring between its quotes are text
    for number, line in enumerate(source.lines, 1):
        if in_header and line.startswith("#"):
            continue
        in_header = False
        if number in import_lines or number in inside_strings or line.lstrip().startswith("!"):
            continue  # a shell line (`!pip install jax`) names packages, not the module's names
        code, comment = _split_comment(line)
        new = code
        for old, replacement in renames.items():
            text = _literal_spans(new)  # the words a string prints are not the module's name (`"jit time"`)
            # not a module path after `from`/`import` that the import pattern above could not take (a `;` after it)
            new = re.sub(rf"(?<![\w.%])(?<!from )(?<!import ){re.escape(old)}\b(?!\s*=[^=])",
                         lambda m: m[0] if any(a <= m.start() < b for a, b in text) else replacement, new)
        if new != code:
            rewrite.replace(number, new + comment)
    return Made(rewrite)


def _literal_spans(code: str) -> list[tuple[int, int]]:
    """(start, end) of the text inside the string literals of one line of code, the ``{...}`` of an f-string
    (code) left out."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(code):
        ch = code[i]
        if ch not in "'\"":
            i += 1
            continue
        prefix = re.search(r"[A-Za-z]*$", code[:i])[0].lower()
        formatted = "f" in prefix
        quote = ch * 3 if code.startswith(ch * 3, i) else ch
        i += len(quote)
        start, depth = i, 0
        while i < len(code) and not (depth == 0 and code.startswith(quote, i)):
            if code[i] == "\\" and "r" not in prefix:
                i += 2
                continue
            if formatted and code[i] == "{":
                if depth == 0 and code.startswith("{{", i):
                    i += 2
                    continue
                if depth == 0:
                    spans.append((start, i))
                depth += 1
            elif formatted and code[i] == "}" and depth:
                depth -= 1
                if depth == 0:
                    start = i + 1
            i += 1
        spans.append((start, min(i, len(code))))
        i += len(quote)
    return spans


def _split_comment(line: str) -> tuple[str, str]:
    """(code, comment) of a line, a ``#`` inside a string left alone."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i], line[i:]
    return line, ""


def _start_read_later(source: Source, region: Region) -> bool:
    """The clock reading that opens ``region`` is read again after it (``t = time.time() - start`` in a later cell,
    a second timing that reuses the first one's start): moving or removing it would change that later timing."""
    if region.magic:
        return False
    return bool(_read_later(source, region, [region.block[region.start]]))


def _read_later(source: Source, region: Region, statements: list[ast.stmt]) -> list[str]:
    """The names the ``statements`` bind that are read after ``region`` before they are bound again (136:
    ``img = ...cuda()`` timed, then ``model(img)``), sorted."""
    if source.tree is None:
        return []
    opened = {n.id for s in statements for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    later = sorted(
        (n.lineno, n.col_offset, isinstance(n.ctx, ast.Load), n.id) for n in ast.walk(source.tree)
        if isinstance(n, ast.Name) and n.id in opened and n.lineno > region.last_line
    )
    first_use = {}
    for _, _, load, name in later:
        first_use.setdefault(name, load)  # read before it is bound again
    return sorted(name for name, load in first_use.items() if load)


def _module_region(source: Source) -> Region | None:
    """The first timed region whose statements sit at module level."""
    for region in regions(source):
        if region.block is source.tree.body:  # type: ignore[union-attr]
            return region
    return None


def _wrap_region(source: Source, kind: str) -> Made | None:
    """helper / loop: a module-level timed region moved into a function, or repeated in a loop."""
    region = _module_region(source)
    if region is None:
        return None
    first, last = region.first_line, region.last_line
    if region.magic and source.in_cell_magic(first) or kind == "loop" and _start_read_later(source, region):
        return None
    rewrite = Rewrite(source.lines)
    rewrite.indent(first, last)
    if kind == "helper":
        # what later code reads of the timing's bindings (a result, the start a later timing subtracts) stays a
        # module-level name, as it was
        shared = _read_later(source, region, region.block[region.start:region.end + 1])
        rewrite.insert_before(first, "def run_benchmark():", *([f"    global {', '.join(shared)}"] if shared else []))
        rewrite.insert_after(last, "run_benchmark()")
        return Made(rewrite)
    rewrite.insert_before(first, "for _repeat in range(5):")
    # timed over and over: many samples; a loop repeating un-jitted JAX work is LB114's pattern, reported at the
    # loop or, when the loop's work is one call of a function the file jits elsewhere, at that call
    repeated = ((first, -1), *((line, 0) for line in range(first, last + 1)))
    return Made(rewrite, drops=frozenset({"LB104"}), span=range(first, last + 1), allowed={"LB114": repeated})


def _clock_variant(source: Source, kind: str) -> Made | None:
    """Another clock: ``time.time()`` or ``time.perf_counter()`` swapped for another one."""
    new = {"clock-perf_counter": "perf_counter", "clock-monotonic": "monotonic", "clock-default_timer": "default_timer"}[kind]
    rewrite = Rewrite(source.lines)
    changed = False
    wall = False
    import_time = None
    for number, line in enumerate(source.lines, 1):
        if _IMPORT.match(line) and _IMPORT.match(line)["module"] == "time" and import_time is None:
            import_time = number
        if re.match(r"^\s*from time import", line):
            return None  # `from time import time` reads the clock without `time.`
        code, comment = _split_comment(line)
        replaced = code
        for old in ("time.time()", "time.perf_counter()"):
            if old in replaced:
                wall = wall or old == "time.time()"
                target = "timeit.default_timer()" if new == "default_timer" else f"time.{new}()"
                replaced = replaced.replace(old, target)
        if replaced != code:
            rewrite.replace(number, replaced + comment)
            changed = True
    if not changed or (import_time is None and new == "default_timer"):
        return None
    if new == "default_timer":
        rewrite.replace(import_time, rewrite.text(import_time) + "; import timeit")
    return Made(rewrite, drops=frozenset({"LB105"}) if wall else frozenset(), wall=wall)


def _clock_helper(source: Source) -> Made | None:
    """The clock read through a helper of the file's own: ``def now(): return time.perf_counter()``."""
    import_line = next((n for n, line in enumerate(source.lines, 1) if re.match(r"^import time\s*(#.*)?$", line)), None)
    if import_line is None or source.in_cell_magic(import_line) or any(
        re.match(r"^\s*from time import", line) for line in source.lines
    ):
        return None
    rewrite = Rewrite(source.lines)
    wall = changed = False
    for number, line in enumerate(source.lines, 1):
        code, comment = _split_comment(line)
        if number <= import_line or ("time.time()" not in code and "time.perf_counter()" not in code):
            continue
        wall = wall or "time.time()" in code
        rewrite.replace(number, code.replace("time.time()", "now()").replace("time.perf_counter()", "now()") + comment)
        changed = True
    if not changed:
        return None
    rewrite.insert_after(import_line, "def now():", "    return time.perf_counter()")
    return Made(rewrite, drops=frozenset({"LB105"}) if wall else frozenset(), wall=wall)


def _single_statement(source: Source, region: Region) -> ast.stmt | None:
    timed = region.timed
    if len(timed) != 1 or region.magic:
        return None
    stmt = timed[0]
    if stmt.lineno != stmt.end_lineno or not isinstance(stmt, (ast.Expr, ast.Assign)):
        return None
    end = region.block[region.end]
    if end.lineno != end.end_lineno:
        return None
    return stmt


def _harness_variant(source: Source, kind: str) -> Made | None:
    """magic-time / magic-timeit / timeit-lambda / benchmark-fixture / clock-pair: the first timing of one
    statement -- a clock pair around it or a line magic -- rewritten with another harness, in place (a clock
    pair's clock lines become comments; a clock pair written for a magic adds a line before and after)."""
    for region in regions(source):
        if region.magic:
            made = _from_magic(source, region, kind)
        else:
            made = _from_clock_pair(source, region, kind)
        if made is not None:
            return made
    return None


# Harnesses that define a function for the timed statement: only at module level, where its names are globals.
_MODULE_LEVEL_HARNESSES = frozenset({"benchmark-fixture", "google-benchmark"})


def _write_harness(rewrite: Rewrite, kind: str, line: int, indent: str, code: str, value: ast.expr,
                   comment: str = "", kept: str | None = None) -> None:
    """The timed statement at ``line`` rewritten with the harness ``kind``: one line, or for google_benchmark a
    registered function (three lines before it) whose ``while state:`` loop runs the statement. ``kept``: the
    name the interval is bound to, which later code reads (timeit-lambda only)."""
    if kind == "google-benchmark":
        # the import goes above the comment heading the statement (`# Now time it without compilation`), which
        # stays over the registered function it describes
        top = line
        while top > 1 and (above := rewrite.lines[top - 2].strip()).startswith("#") and not above.startswith("# %%"):
            top -= 1
        rewrite.insert_before(top, f"{indent}import google_benchmark")
        rewrite.insert_before(line, f"{indent}@google_benchmark.register", f"{indent}def bench_speed(state):")
        rewrite.replace(line, f"{indent}    while state: {code}  {comment}".rstrip())
        return
    rewrite.replace(line, f"{_harness_line(kind, indent, code, value, kept)}  {comment}".rstrip())


def _harness_line(kind: str, indent: str, code: str, value: ast.expr, kept: str | None = None) -> str:
    if kind in ("magic-time", "magic-timeit"):
        return f"{indent}%{kind.split('-')[1]} {code}"
    if kind == "timeit-lambda":
        timed = f"timeit.timeit(lambda: {ast.unparse(value)}, number=1)"
        return f"{indent}import timeit; " + (f"{kept} = {timed}" if kept else f"print({timed})")
    if isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)) and not value.keywords \
            and not any(isinstance(a, ast.Starred) for a in value.args):
        args = "".join(f", {ast.unparse(a)}" for a in value.args)
        call = f"benchmark({ast.unparse(value.func)}{args})"
    else:
        call = f"benchmark(lambda: {ast.unparse(value)})"
    return f"{indent}def test_speed(benchmark): {call}"


def _from_clock_pair(source: Source, region: Region, kind: str) -> Made | None:
    stmt = _single_statement(source, region)
    if stmt is None or kind == "clock-pair":
        return None
    if kind in _MODULE_LEVEL_HARNESSES and (region.block is not source.tree.body  # type: ignore[union-attr]
                                            or _timed_again_later(source, region)):
        return None
    start, end = region.first_line, region.block[region.end].lineno
    code = source.lines[stmt.lineno - 1].strip()
    if kind != "magic-time" and re.search(r"\bjit\(", code):
        return None  # repeating a statement that jits adds LB111: another mistake than the case's
    if not _only_reads_clock(region.block[region.end]) or _start_read_later(source, region):
        return None
    if isinstance(region.block[region.end], ast.Return) and kind != "timeit-lambda":
        # a helper that returns its reading (`return time.perf_counter() - start`) hands the figure to its callers,
        # who repeat it and keep a statistic; a harness that reports by itself would leave them None: not the same
        # program (293's `_timed`)
        return None
    # the interval kept under a name that later code reads (200: `first_t`, reported as the jit time): a harness
    # that returns its figure (timeit.timeit) keeps the name bound to it
    kept = _read_later(source, region, [region.block[region.end]])
    kept_name = kept[0] if kind == "timeit-lambda" and len(kept) == 1 else None
    rewrite = Rewrite(source.lines)
    # the words of the clock lines (`print(f"jit time: {time.time() - s}")`, `first_call = ...`) say what the
    # timing means; the rewrite keeps them beside the timed statement, where the words of a harness are read; so
    # are the words of the lines that report a kept interval, where the harness leaves its name unbound
    label = _clock_words(region.block[region.start], region.block[region.end])
    if kept and kept_name is None:
        label = _with_reporting_words(label, source, region, kept)
    if kind == "with-benchmark":  # the clock lines become a context manager that times the block
        indent = source.indent(stmt.lineno)
        rewrite.replace(start, f"{source.indent(start)}# (clock read here before)")
        rewrite.insert_before(stmt.lineno, f"{indent}with Benchmark('timed'):")
        rewrite.replace(stmt.lineno, f"{indent}    {code}  {label}".rstrip())
        rewrite.replace(end, f"{source.indent(end)}# (clock read here after)")
        return Made(rewrite, drops=_DROPS[kind], span=range(start, end + 1), moves={start: stmt.lineno, end: stmt.lineno})
    rewrite.replace(start, f"{source.indent(start)}# (clock read here before)")
    _write_harness(rewrite, kind, stmt.lineno, source.indent(stmt.lineno), code, stmt.value, label, kept_name)
    rewrite.replace(end, f"{source.indent(end)}# (clock read here after)")
    drops = _DROPS.get(kind, frozenset())
    return Made(rewrite, drops=drops, span=range(start, end + 1), moves={start: stmt.lineno, end: stmt.lineno})


# What a correct doctor may add when a line magic becomes another harness: a harness that does not warm
# up (a clock pair, timeit with number=1, %time) may time the first call (LB103) and take one sample (LB104).
_FROM_MAGIC = {
    # kind: {source magic: (codes dropped, codes allowed)}
    "magic-time": {"timeit": (frozenset(), frozenset({"LB103"}))},
    "magic-timeit": {"time": (frozenset({"LB103", "LB104"}), frozenset())},
    "timeit-lambda": {"time": (frozenset(), frozenset({"LB104"})), "timeit": (frozenset(), frozenset({"LB103", "LB104"}))},
    "benchmark-fixture": {"time": (frozenset({"LB103", "LB104"}), frozenset()), "timeit": (frozenset(), frozenset())},
    "google-benchmark": {"time": (frozenset({"LB103", "LB104"}), frozenset()), "timeit": (frozenset(), frozenset())},
    "clock-pair": {"time": (frozenset(), frozenset({"LB104"})), "timeit": (frozenset(), frozenset({"LB103", "LB104"}))},
}


def _from_magic(source: Source, region: Region, kind: str) -> Made | None:
    rules = _FROM_MAGIC.get(kind, {}).get(region.magic)
    stmt = region.block[region.start]
    line = stmt.lineno
    m = _LINE_MAGIC.match(source.lines[line - 1])
    if rules is None or m is None or m["target"] or source.in_cell_magic(line) or stmt.end_lineno != line:
        return None
    if not isinstance(stmt, (ast.Expr, ast.Assign)) or isinstance(stmt.value, ast.Lambda):
        return None
    if kind in _MODULE_LEVEL_HARNESSES and (region.block is not source.tree.body  # type: ignore[union-attr]
                                            or _timed_again_later(source, region)):
        return None
    code, comment = _split_comment(_magic_statement(m["rest"]))
    code = code.strip()
    if kind != "magic-time" and re.search(r"\bjit\(", code):
        return None
    drops, allowed = rules
    rewrite = Rewrite(source.lines)
    indent = m["indent"]
    if kind == "clock-pair":
        rewrite.insert_before(line, f"{indent}import time; _t0 = time.perf_counter()")
        rewrite.replace(line, f"{indent}{code}  {comment}".rstrip())
        rewrite.insert_after(line, f"{indent}print(time.perf_counter() - _t0)")
    else:
        _write_harness(rewrite, kind, line, indent, code, stmt.value, comment)
    return Made(rewrite, drops=drops, span=range(line, line + 1), allowed={c: ((line, 0),) for c in allowed})


def _clock_words(*statements: ast.stmt) -> str:
    """A comment holding the words of the clock lines a rewrite drops: the names they bind and the text they print
    (``t_first_call = ...``, ``print(f"jit time: {time.time() - s}")``), or "" when they hold none."""
    words: list[str] = []
    for stmt in statements:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                words.append(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                words.append(node.value.strip())
    text = " ".join(w for w in words if re.search(r"[A-Za-z]", w)).replace("\n", " ")
    return f"# (the clock lines said: {text})" if text else ""


def _with_reporting_words(label: str, source: Source, region: Region, names: list[str]) -> str:
    """``label`` with the words of the later statements that read ``names`` (``state.counters['jit_time'] =
    first_t - op_time``: "jit_time"), which say what the kept interval is reported as."""
    words: list[str] = []
    for stmt in ast.walk(source.tree):  # type: ignore[arg-type]
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)) and stmt.lineno > region.last_line \
                and any(isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load) for n in ast.walk(stmt)):
            said = _clock_words(stmt)
            if said:
                words.append(said.removeprefix("# (the clock lines said: ").removesuffix(")"))
    if not words:
        return label
    reported = f"reported as: {' '.join(words)}"
    return f"{label[:-1]}; {reported})" if label else f"# ({reported})"


def _timed_again_later(source: Source, region: Region) -> bool:
    """A later timing runs the same callee (087's second `%time lorenz_curve_jax(...)`, 134's t_2): a harness that
    runs later than the module's code (pytest's test, google_benchmark's registered function) would make that later
    timing the first call."""
    callees = {ast.unparse(n.func) for s in region.timed for n in ast.walk(s) if isinstance(n, ast.Call)}
    for other in regions(source):
        if other.first_line > region.last_line and any(
            isinstance(n, ast.Call) and ast.unparse(n.func) in callees for s in other.timed for n in ast.walk(s)
        ):
            return True
    return False


def _only_reads_clock(stmt: ast.stmt) -> bool:
    """The statement that reads the clock does nothing else worth keeping (prints or stores the time)."""
    calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    for call in calls:
        name = ast.unparse(call.func)
        if not (_is_clock(call) or name in ("print", "append", "float", "round", "str", "format")
                or name.endswith((".append", ".format"))):
            return False
    return True


def _notebook(source: Source) -> Made | None:
    """One notebook cell per module-level statement."""
    if source.tree is None or len(source.tree.body) < 2 or source.cell_magics:
        return None
    rewrite = Rewrite(source.lines)
    for stmt in source.tree.body[1:]:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", []))])
        rewrite.insert_before(first, "# %%")
    return Made(rewrite)


# ---- putting it together -----------------------------------------------------------------------------


def case_variants(
    text: str,
    codes: Iterable[str] = (),
    lines: dict[str, Iterable[int]] | None = None,
    kinds: Iterable[str] = KINDS,
) -> Iterator[Variant]:
    """The variants of one case: ``codes`` are its labelled static codes, ``lines`` where each belongs."""
    codes = frozenset(codes)
    lines = {c: frozenset(v) for c, v in (lines or {}).items()}
    source = Source(text)
    if source.tree is None:
        return
    expected_lines = {n for v in lines.values() for n in v}
    target = find_target(source, expected_lines)
    for kind in kinds:
        made = _make(source, target, kind)
        if made is None:
            continue
        new_text, moved = made.rewrite.apply()
        expected: dict[str, frozenset[int] | None] = {}
        dropped = []
        for code in sorted(codes):
            where = lines.get(code)
            if code in made.drops:
                if made.span is None or where is None:
                    dropped.append(code)
                    continue
                # dropped only where the rewrite was, and at the calls of the helper it was in (107's LB103 belongs
                # to `eval`'s timing or to the `eval(jax.grad(f_jit))` that runs it: one finding, two places)
                calls = _helper_calls(source, made.span)
                where = frozenset(n for n in where if n not in made.span and n not in calls)
                if not where:
                    dropped.append(code)
                    continue
            expected[code] = None if where is None else frozenset(moved[made.moves.get(n, n)] for n in where)
        allowed = {code: frozenset(moved[old] + offset for old, offset in places) for code, places in made.allowed.items()}
        yield Variant(kind, new_text, expected, notebook=kind == "notebook", dropped=tuple(dropped), allowed=allowed)


def _helper_calls(source: Source, span: range) -> set[int]:
    """The lines that call the function whose body holds ``span`` (none at module level)."""
    helper = None
    for node in ast.walk(source.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno < span.start <= node.end_lineno:
            if helper is None or node.lineno > helper.lineno:
                helper = node  # the innermost
    if helper is None:
        return set()
    return {n.lineno for n in ast.walk(source.tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == helper.name}


def _make(source: Source, target: Target | None, kind: str) -> Made | None:
    if kind in ("alias", "container", "partial", "vmap", "cond-jit"):
        return None if target is None else _callee_variant(source, target, kind)
    if kind in ("factory", "method"):
        return None if target is None else _definition_variant(source, target, kind)
    if kind == "import-alias":
        return _import_alias(source)
    if kind in ("helper", "loop"):
        return _wrap_region(source, kind)
    if kind in ("clock-perf_counter", "clock-monotonic", "clock-default_timer"):
        return _clock_variant(source, kind)
    if kind == "clock-helper":
        return _clock_helper(source)
    if kind in ("magic-time", "magic-timeit", "timeit-lambda", "benchmark-fixture", "google-benchmark", "clock-pair",
                "with-benchmark"):
        return _harness_variant(source, kind)
    if kind == "notebook":
        return _notebook(source)
    raise ValueError(f"unknown variant kind {kind!r}; expected one of {', '.join(KINDS)}")
