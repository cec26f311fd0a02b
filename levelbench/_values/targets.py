"""Names of things in the user's code: ``FILE.py:NAME``, ``FILE.py::NAME`` or ``package.module:NAME``.

One loader for every place that takes such a name (a workload, a candidate builder), so they all
accept the same spellings and fail with the same messages.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

EXAMPLES = "FILE.py:NAME, FILE.py::NAME or package.module:NAME"


class TargetError(LookupError):
    """A target could not be found or imported; the message says which and how to fix it."""


def split_target(spec: str) -> tuple[str, str]:
    """``"bench.py::build"`` -> ``("bench.py", "build")``; ``"pkg.mod:fn"`` -> ``("pkg.mod", "fn")``."""
    where, sep, name = spec.rpartition("::") if "::" in spec else spec.rpartition(":")
    if not sep or not where or not name:
        raise TargetError(f"expected {EXAMPLES}, got {spec!r}")
    return where, name


def is_file_target(spec: str) -> bool:
    where = spec.rpartition("::")[0] if "::" in spec else spec.rpartition(":")[0]
    return where.endswith((".py", ".ipy")) or os.sep in where or "/" in where


def absolute(spec: str) -> str:
    """The same target with a file path made absolute, so it names the same file from any directory."""
    if not is_file_target(spec):
        return spec
    where, name = split_target(spec)
    return f"{os.path.abspath(where)}:{name}"


def check_target(spec: str) -> None:
    """Fail now, with the fix, if ``spec`` names a file or module that does not exist (nothing is imported)."""
    where, _ = split_target(spec)
    if is_file_target(spec):
        if not os.path.isfile(where):
            raise TargetError(f"{where!r} does not exist (expected {EXAMPLES})")
    elif importlib.util.find_spec(where.split(".")[0]) is None:
        raise TargetError(f"no module named {where.split('.')[0]!r} (expected {EXAMPLES}; a file needs its .py)")


def load_target(spec: str) -> Any:
    """The object ``spec`` names, importing its file or module."""
    where, name = split_target(spec)
    module = _import_file(where) if is_file_target(spec) else _import_module(where)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            public = sorted(k for k in vars(module) if not k.startswith("_"))
            raise TargetError(f"{where!r} has no {name!r}; it defines {', '.join(public[:20]) or 'nothing public'}")
        obj = getattr(obj, part)
    return obj


def _import_file(path: str) -> ModuleType:
    if not os.path.isfile(path):
        raise TargetError(f"{path!r} does not exist (expected {EXAMPLES})")
    module_name = f"_levelbench_user_{abs(hash(os.path.abspath(path)))}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path!r} as Python (expected {EXAMPLES})")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[module_name]
        raise TargetError(f"importing {path!r} failed: {type(e).__name__}: {e}") from None
    return module


def _import_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise TargetError(f"cannot import module {name!r}: {e} (expected {EXAMPLES}; a file needs its .py)") from None
    except Exception as e:
        raise TargetError(f"importing {name!r} failed: {type(e).__name__}: {e}") from None
