"""Does a name exist in an installed package? Answered from the package's source files, without importing it.

Importing jax costs about a second and torch three, and the doctor must stay fast (and must not
import them at all when it can avoid it). So the package's ``__init__.py`` is parsed for the names it
binds at top level, and its directory listed for submodules. Only a module that builds names
dynamically (``from x import *``, a ``__getattr__`` we cannot read, writes to ``globals()``) and
lacks the name is imported to settle the question. Everything is cached per process.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import importlib.util
import warnings
from pathlib import Path

CHECKED_ROOTS = frozenset({"jax", "numpy", "torch"})
_SOURCE_SUFFIXES = (".py", ".pyi")


@dataclasses.dataclass(frozen=True)
class ModuleNames:
    """The names a module binds at top level, as far as its source shows."""

    names: frozenset[str]
    dynamic: bool  # it may bind names its source does not show


def is_installed(root: str) -> bool:
    """Whether ``root`` is one of the checked packages and is installed (found without importing it)."""
    return root in CHECKED_ROOTS and _root_dirs(root) is not None


@functools.cache
def installed_version(root: str) -> str:
    """The installed distribution's version of ``root``, for messages."""
    import importlib.metadata  # lazy: it pulls in the email package, ~0.1 s, and is only needed for messages

    try:
        return importlib.metadata.version(root)
    except importlib.metadata.PackageNotFoundError:
        return "(unknown version)"


@functools.cache
def _root_dirs(root: str) -> tuple[Path, ...] | None:
    try:
        spec = importlib.util.find_spec(root)  # a top-level spec: nothing is imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return tuple(Path(p) for p in spec.submodule_search_locations)


@functools.cache
def _locate(module: str) -> tuple[Path | None, bool] | None:
    """(source file or None for an extension module, is a package) for ``module``; None when not on disk."""
    parts = module.split(".")
    dirs = _root_dirs(parts[0])
    if dirs is None:
        return None
    is_package = True
    source: Path | None = next((d / "__init__.py" for d in dirs if (d / "__init__.py").is_file()), None)
    for part in parts[1:]:
        found = None
        for directory in dirs:
            package = directory / part
            if (package / "__init__.py").is_file():
                found = ((package / "__init__.py"), True, (package,))
                break
            if package.is_dir():  # a namespace package
                found = (None, True, (package,))
                break
            for suffix in _SOURCE_SUFFIXES:
                if (directory / f"{part}{suffix}").is_file():
                    found = (directory / f"{part}{suffix}", False, ())
                    break
            if found is None and (any(directory.glob(f"{part}.*.so")) or any(directory.glob(f"{part}.*.pyd"))):
                found = (None, False, ())
            if found:
                break
        if found is None:
            return None
        source, is_package, dirs = found[0], found[1], found[2]
    return source, is_package


def module_exists(module: str) -> bool | None:
    """Whether ``module`` can be imported; None when its package is not installed or is not checked."""
    if not is_installed(module.split(".")[0]):
        return None
    if _locate(module) is not None:
        return True
    return _imports(module) is not None


def name_exists(module: str, name: str) -> bool | None:
    """Whether ``from module import name`` works; None when that cannot be told cheaply and safely."""
    if not is_installed(module.split(".")[0]):
        return None
    found = _module_names(module)
    if found is None:
        return None
    if name in found.names:
        return True
    if not found.dynamic:
        return False
    imported = _imports(module)
    if imported is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return hasattr(imported, name) or module_exists(f"{module}.{name}") is True
        except Exception:  # a module __getattr__ may raise anything
            return None


def similar_names(module: str) -> frozenset[str]:
    """Public names of ``module``, for "did you mean" suggestions."""
    found = _module_names(module)
    return frozenset(n for n in (found.names if found else ()) if not n.startswith("_"))


@functools.cache
def _module_names(module: str) -> ModuleNames | None:
    located = _locate(module)
    if located is None:
        return None
    source, is_package = located
    names: set[str] = set()
    dynamic = source is None
    if is_package and source is not None:
        for child in source.parent.iterdir():
            stem = child.name.split(".")[0]
            if child.is_dir() and not child.name.startswith((".", "__")):
                names.add(child.name)
            elif child.suffix in (".py", ".so", ".pyd", ".pyi") and stem != "__init__":
                names.add(stem)
    if source is not None:
        try:
            tree = ast.parse(source.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            return ModuleNames(frozenset(names), True)
        bound, dynamic_source = _bound_names(tree.body)
        names |= bound
        dynamic = dynamic or dynamic_source
    return ModuleNames(frozenset(names), dynamic)


def _bound_names(body: list[ast.stmt]) -> tuple[set[str], bool]:
    """Names a module body binds at top level, in order (``del`` removes them), and whether it is dynamic."""
    names: set[str] = set()
    dynamic = False
    for stmt in body:
        if isinstance(stmt, ast.Import):
            names.update(a.asname or a.name.split(".")[0] for a in stmt.names)
        elif isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name == "*":
                    dynamic = True
                else:
                    names.add(alias.asname or alias.name)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            dynamic = dynamic or stmt.name == "__getattr__"
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            value = stmt.value
            if any(isinstance(n, ast.Name) and n.id == "__getattr__" for t in targets for n in ast.walk(t)):
                lazy = _lazily_attached(value)
                names.update(lazy or ())
                dynamic = dynamic or (lazy is None and not _is_deprecation_getattr(value))
            names_bound = {t.id for t in targets if isinstance(t, ast.Name)}
            if isinstance(value, ast.Dict) and "_deprecations" in names_bound:
                names.update(_deprecated_but_present(value))
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                names.difference_update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(stmt, ast.If):
            branches = [stmt.orelse] if _is_type_checking(stmt.test) else [stmt.body, stmt.orelse]
            for branch in branches:
                inner, inner_dynamic = _bound_names(branch)
                names |= inner
                dynamic = dynamic or inner_dynamic
        elif isinstance(stmt, (ast.Try, ast.With)):
            blocks = [stmt.body]
            if isinstance(stmt, ast.Try):
                blocks += [h.body for h in stmt.handlers] + [stmt.orelse, stmt.finalbody]
            for block in blocks:
                inner, inner_dynamic = _bound_names(block)
                names |= inner
                dynamic = dynamic or inner_dynamic
        elif isinstance(stmt, (ast.For, ast.Expr)):
            dynamic = dynamic or any(isinstance(n, ast.Name) and n.id == "globals" for n in ast.walk(stmt))
    return names, dynamic


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_deprecation_getattr(value: ast.AST | None) -> bool:
    """JAX's ``__getattr__ = _deprecation_getattr(__name__, _deprecations)`` serves only ``_deprecations``."""
    return isinstance(value, ast.Call) and "deprecation_getattr" in ast.unparse(value.func)


def _lazily_attached(value: ast.AST | None) -> list[str] | None:
    """The submodules of ``__getattr__, __dir__, __all__ = lazy_loader.attach(__name__, ["func", ...])``
    (JAX's ``jax._src.lib.mlir.dialects``, scikit-image's lazy_loader): each name imports on first access."""
    if not (isinstance(value, ast.Call) and len(value.args) >= 2 and isinstance(value.args[1], (ast.List, ast.Tuple))):
        return None
    func = value.func
    if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) != "attach":
        return None
    names = [e.value for e in value.args[1].elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return names if len(names) == len(value.args[1].elts) else None


def _deprecated_but_present(value: ast.Dict) -> set[str]:
    """Keys of a JAX ``_deprecations`` dict that still resolve (the removed ones map to ``(message, None)``)."""
    present = set()
    for key, entry in zip(value.keys, value.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        replacement = entry.elts[1] if isinstance(entry, ast.Tuple) and len(entry.elts) == 2 else None
        if not (isinstance(replacement, ast.Constant) and replacement.value is None):
            present.add(key.value)
    return present


@functools.cache
def _imports(module: str) -> object | None:
    """Import ``module`` (last resort, cached); None when that fails for any reason."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(module)
        except (Exception, SystemExit):  # a broken install must not stop the doctor
            return None
