"""The layers of docs/design/architecture.md, checked on the import graph of the package.

Every ``import`` and ``from ... import`` in every module counts, at the top of a file or inside a
function: an import placed inside a function to dodge a cycle is still a dependency.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "levelbench"

# bottom to top; a module may import its own layer and the layers below it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("levelbench._values",),
    ("levelbench._results",),
    ("levelbench._frameworks",),
    ("levelbench._measuring",),
    (
        "levelbench.workloads", "levelbench.cluster", "levelbench.doctor", "levelbench._probing", "levelbench.nn",
        "levelbench._auditing",
    ),
    ("levelbench.store",),
    ("levelbench._api", "levelbench._recording", "levelbench._runs", "levelbench._rendering", "levelbench.report"),
    ("levelbench._cli", "levelbench.ipython", "levelbench.pytest_plugin"),
    ("levelbench", "levelbench.__main__"),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The levelbench modules ``name`` imports, however and wherever in the file."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    here = here.rpartition(".")[0]
                base = f"{here}.{node.module}" if node.module else here
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    return rank


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_every_module_belongs_to_a_layer():
    orphans = sorted(m for m in modules() if layer_of(m) < 0)
    assert orphans == [], f"add these modules' package to LAYERS (and to docs/design/architecture.md): {orphans}"


def test_the_package_has_no_import_cycle():
    assert cycles(graph()) == []


def test_imports_only_go_down_the_layers():
    upward = sorted(f"{a} (layer {layer_of(a)}) imports {b} (layer {layer_of(b)})"
                    for a, targets in graph().items() for b in targets if layer_of(b) > layer_of(a))
    assert upward == [], "\n".join(upward)


def test_the_checker_sees_function_level_imports_and_cycles():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(g) == [["a", "b", "c"]]
    known = {"levelbench.x": Path("x.py"), "levelbench.y": Path("y.py")}
    src = ROOT / "tests" / "_arch_probe.py"
    src.write_text("def f():\n    from levelbench import y\n")
    try:
        assert imports("levelbench.x", src, known) == {"levelbench.y"}
    finally:
        src.unlink()


def test_reading_history_imports_neither_the_runner_nor_a_framework():
    code = ("import sys\nfrom levelbench._cli.main import main\n"
            "try:\n    main(['history', '--db', sys.argv[1]], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('levelbench.workloads.run', 'levelbench._measuring.sampler', "
            "'levelbench._measuring.workers', 'jax', 'torch', 'flax') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code, str(ROOT / "tests" / "no-such.db")], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout + run.stderr


def test_levelbench_environment_variables_are_read_in_settings_and_listed_in_the_readme():
    from levelbench._values.settings import ENVIRONMENT_VARIABLES

    readers = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")
                     if p.name != "settings.py" and re.search(r"(?:environ(?:\.get)?|getenv)\s*[\[(]\s*['\"]LEVELBENCH_",
                                                             p.read_text()))
    assert readers == [], f"read LEVELBENCH_* variables through levelbench/_values/settings.py, not in {readers}"
    readme = (ROOT / "README.md").read_text()
    assert [v for v in ENVIRONMENT_VARIABLES if f"`{v}`" not in readme] == []


# -- wall-clock claims stay out of the default run ------------------------------------------------
def _marks_wallclock(node: ast.AST) -> bool:
    return any("wallclock" in ast.unparse(d) for d in getattr(node, "decorator_list", []))


def _times_real_work(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Takes ``quiet_machine``, or reads the load average itself (to skip on a busy machine, as it does)."""
    return "quiet_machine" in [a.arg for a in node.args.args] or any(
        isinstance(n, ast.Attribute) and n.attr == "getloadavg" for n in ast.walk(node))


def unmarked_wallclock_tests(folder: Path = ROOT / "tests") -> list[str]:
    """Tests that take ``quiet_machine`` or read the load average (so assert on real elapsed time) without
    ``@pytest.mark.wallclock`` on the function, its class or the module's ``pytestmark``."""
    found = []
    for path in sorted(folder.rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        module_marked = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
                            and "wallclock" in ast.unparse(n.value) for n in tree.body)
        scopes = [(n, False) for n in tree.body]
        while scopes:
            node, in_marked_class = scopes.pop()
            if isinstance(node, ast.ClassDef):
                scopes += [(n, in_marked_class or _marks_wallclock(node)) for n in node.body]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                if _times_real_work(node) and not (module_marked or in_marked_class or _marks_wallclock(node)):
                    found.append(f"{path.relative_to(folder)}::{node.name}")
    return sorted(found)


def test_tests_on_real_elapsed_time_carry_the_wallclock_marker():
    """A test that asks for ``quiet_machine`` times real work; unmarked, it would run (and flake) in ``make test``."""
    assert unmarked_wallclock_tests() == [], "add @pytest.mark.wallclock to these (make test-wallclock runs them)"


def test_the_marker_check_finds_an_unmarked_test(tmp_path):
    (tmp_path / "test_probe.py").write_text(
        "import pytest\n\n@pytest.mark.wallclock\ndef test_marked(quiet_machine):\n    pass\n\n"
        "def test_unmarked(quiet_machine):\n    pass\n\nclass TestC:\n    def test_in_class(self, quiet_machine):\n"
        "        pass\n\ndef test_plain():\n    pass\n\ndef test_load():\n    import os\n    assert os.getloadavg()\n")
    found = unmarked_wallclock_tests(tmp_path)
    assert [f.rpartition("::")[2] for f in found] == ["test_in_class", "test_load", "test_unmarked"]


def _collected(*args: str) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "tests/test_measure.py", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    return [line.rpartition("::")[2] for line in run.stdout.splitlines() if "::" in line]


def test_the_default_run_leaves_wallclock_tests_out_and_dash_m_selects_them():
    default, only = _collected(), _collected("-m", "wallclock")
    assert only == ["test_busy_wait_of_2ms_is_reported_within_2_percent"]
    assert only[0] not in default and len(default) > 10
    assert only[0] in _collected("-m", "wallclock or not wallclock")


def test_the_package_faces_two_export_lists_agree():
    """levelbench/__init__.py names each public name twice: in _EXPORTS (loaded lazily at run time) and
    under TYPE_CHECKING (for type checkers and IDEs). A name in one list only is public to one of them."""
    import ast

    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    exports = next(ast.literal_eval(node.value) for node in tree.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_EXPORTS")
    checking = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    typed = {}
    for node in checking.body:
        for alias in node.names:
            typed[alias.asname or alias.name] = "." * node.level + (node.module or "")
    assert set(exports) == set(typed), (set(exports) ^ set(typed))
    moved = {name: (exports[name], typed[name]) for name in exports
             if exports[name] != typed[name] and not typed[name].startswith(exports[name] + ".")}
    assert moved == {}, f"each name must come from the same module in both lists: {moved}"


def _unexplained_function_level_imports(source: str) -> list[int]:
    """Lines of levelbench-internal (relative) imports inside functions with no ``# lazy: <why>`` comment
    on the line or the line above."""
    import ast

    lines = source.splitlines()
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                said = "# lazy:" in lines[node.lineno - 1] or (node.lineno > 1 and "# lazy:" in lines[node.lineno - 2])
                if not said and node.lineno not in found:
                    found.append(node.lineno)
    return found


def test_every_function_level_import_of_levelbench_says_why():
    """An import of levelbench's own modules belongs at the top of the module; one that must wait (it would
    load a heavy framework, or the module loads in every pytest session) says why with ``# lazy: <why>``.
    The CLI's commands are exempt: each imports what it runs, so that ``levelbench --help`` stays fast."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("levelbench/_cli/"):
            continue
        found += [f"{rel}:{line}" for line in _unexplained_function_level_imports(path.read_text())]
    assert found == [], "hoist these to the module's imports, or say why not with '# lazy: <why>':\n" + "\n".join(found)


def test_the_lazy_import_check_finds_an_unexplained_one():
    source = ("def f():\n    from .x import y\n    return y\n\n"
              "def g():\n    # lazy: imports jax\n    from .z import w\n    return w\n")
    assert _unexplained_function_level_imports(source) == [2]


def test_packages_are_imported_through_their_faces():
    """``levelbench.store``, ``.doctor``, ``.report``, ``.workloads``, ``.cluster``, ``.nn``: another part of
    levelbench imports what their ``__init__`` exports, never one of their private modules (``store._diff``),
    so that a package can rearrange its inside without breaking its neighbours."""
    import ast

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.level > 0 and node.module):
                continue
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            parts = base + node.module.split(".")
            public = len(parts) >= 3 and not parts[1].startswith("_") and parts[2].startswith("_")
            if public and not name.startswith(".".join(parts[:2])):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {'.'.join(parts[:3])}")
    assert found == [], "import these through the package's __init__ (add the name to it):\n" + "\n".join(found)


def test_running_the_users_own_workloads_loads_no_framework():
    """`levelbench run -w FILE.py:NAME` plans and records without jax or torch (the built-in workloads import
    them when asked for): a framework loaded by the way costs seconds, and JAX's gc callback swallows a
    Ctrl-C that lands in it (the run then went on to its end)."""
    import subprocess
    import sys

    code = ("import sys, levelbench._runs, levelbench._cli.run, levelbench.workloads.plan; "
            "print(sorted(m for m in ('jax', 'torch', 'flax') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- the static doctor's rules: one module each, on one floor -------------------------------------
RULES_PACKAGE = "levelbench.doctor.rules"


def _is_rule(module: str) -> bool:
    return module == RULES_PACKAGE or module.startswith(RULES_PACKAGE + ".")


def _reaches(g: dict[str, set[str]], start: str, goal: Callable[[str], bool]) -> bool:
    """Whether ``start`` imports, directly or through other modules, a module for which ``goal`` holds."""
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        for target in g.get(module, ()):
            if goal(target):
                return True
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return False


def rule_floor_violations(g: dict[str, set[str]]) -> list[str]:
    """A rule module that imports another rule (or the rules package), or a doctor module that leads back up
    to a rule or to what runs the rules (the engine): a rule builds on the doctor's model and shared fixes only."""
    found = []
    for module in sorted(m for m in g if _is_rule(m) and m != RULES_PACKAGE):
        for target in sorted(g[module]):
            if _is_rule(target):
                found.append(f"{module} imports the rule module {target}")
            elif target.startswith("levelbench.doctor") and _reaches(g, target, _is_rule):
                found.append(f"{module} imports {target}, which is above the rules (it imports a rule module)")
    return found


def test_no_rule_imports_another_and_rules_stand_on_the_model():
    """What two rules share moves down into the doctor's model (`_vocabulary`, `_fixes`, ...), never from one
    rule's module into another's: a rule is read, changed and deleted in its own file."""
    found = rule_floor_violations(graph())
    assert found == [], "move what they share down into a model module of levelbench/doctor:\n" + "\n".join(found)


def test_the_rule_floor_check_finds_a_rule_importing_a_rule_or_the_engine():
    g = {
        "levelbench.doctor.rules": set(),
        "levelbench.doctor.rules.lb101_a": {"levelbench.doctor._context"},
        "levelbench.doctor.rules.lb102_b": {"levelbench.doctor.rules.lb101_a"},
        "levelbench.doctor.rules.lb103_c": {"levelbench.doctor._engine"},
        "levelbench.doctor._engine": {"levelbench.doctor.rules"},
        "levelbench.doctor._context": set(),
    }
    assert rule_floor_violations(g) == [
        "levelbench.doctor.rules.lb102_b imports the rule module levelbench.doctor.rules.lb101_a",
        "levelbench.doctor.rules.lb103_c imports levelbench.doctor._engine, which is above the rules "
        "(it imports a rule module)",
    ]


def test_every_static_rule_has_exactly_one_rule_module_named_by_its_code():
    """Read from the files, not imported: ``CODE = "LB1xx"`` in ``levelbench/doctor/rules/lb1xx_<name>.py``."""
    from levelbench._values.catalogue import RULES

    declared: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / "doctor" / "rules").glob("*.py")):
        if path.name == "__init__.py":
            continue
        codes = [node.value.value for node in ast.parse(path.read_text()).body
                 if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["CODE"]
                 and isinstance(node.value, ast.Constant)]
        assert len(codes) == 1, f"{path.name}: expected one CODE = \"LB1xx\" at module level, got {codes}"
        expected_name = f"{codes[0].lower()}_<what>.py"
        assert path.name.startswith(codes[0].lower() + "_"), f"{path.name} checks {codes[0]}: name it {expected_name}"
        declared.setdefault(codes[0], []).append(path.name)
    expected = sorted(code for code in RULES if code != "LB100")  # LB100, an unreadable input, is the engine's own
    assert sorted(declared) == expected
    assert {code: names for code, names in declared.items() if len(names) != 1} == {}
