"""Names of things in the user's code: ``FILE.py:NAME``, ``FILE.py::NAME`` or ``package.module:NAME``.

One loader for every place that takes such a name (a workload, a candidate builder, the function
``levelbench explain`` diagnoses), so they all accept the same spellings and fail with the same
one-line messages. A file is imported with its directory on ``sys.path``, so that its own
sibling imports work; its ``if __name__ == "__main__":`` block does not run.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from types import ModuleType
from typing import Any

EXAMPLES = "FILE.py:NAME, FILE.py::NAME or package.module:NAME"


class TargetError(LookupError):
    """A target could not be found or imported; the message says which and how to fix it.

    ``usage`` is True when the name itself is wrong (no such file, module or attribute) and False
    when the user's code failed while importing: a command exits 2 for the first, 1 for the second.
    """

    def __init__(self, message: str, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


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
        if os.path.isdir(where):
            raise TargetError(f"{where!r} is a directory, not a Python file (expected {EXAMPLES})")
        if not os.path.isfile(where):
            raise TargetError(f"{where!r} does not exist (expected {EXAMPLES})")
    elif importlib.util.find_spec(where.split(".")[0]) is None:
        raise TargetError(f"no module named {where.split('.')[0]!r} (expected {EXAMPLES}; a file needs its .py)")


def load_target(spec: str) -> Any:
    """The object ``spec`` names, importing its file or module."""
    return load_with_module(spec)[1]


def load_with_module(spec: str) -> tuple[ModuleType, Any]:
    """The module ``spec`` lives in, and the object it names (``NAME`` may be dotted: ``Class.method``)."""
    where, name = split_target(spec)
    module = import_file(where) if is_file_target(spec) else _import_module(where)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise TargetError(f"{where} has no {name!r}; {_defined(module, where, spec)}")
        obj = getattr(obj, part)
    return module, obj


def _defined(module: ModuleType, where: str, spec: str) -> str:
    """The functions ``module`` defines, for a name that is not there; private ones when there are no others."""
    own = sorted(n for n, v in vars(module).items()
                 if callable(v) and getattr(v, "__module__", None) == module.__name__ and not n.startswith("__"))
    public = [n for n in own if not n.startswith("_")]
    if public or not own:
        return f"functions defined there: {', '.join(public[:8]) or 'none'}"
    sep = "::" if "::" in spec else ":"
    return (f"functions defined there: none public, only private ones: {', '.join(own[:8])} "
            f"(name one with its underscore, e.g. {where}{sep}{own[0]})")


def import_file(path: str) -> ModuleType:
    """Import ``path`` as a module (once per process), its directory first on ``sys.path``."""
    if not os.path.isfile(path):
        raise TargetError(f"no such file {path!r} (expected {EXAMPLES})")
    if not path.endswith((".py", ".ipy")):
        raise TargetError(f"{path!r} is not a .py file: for notebooks use levelbench doctor, or move the code "
                          "into a module")
    full = os.path.abspath(path)
    module_name = f"_levelbench_user_{abs(hash(full))}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, full)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path!r} as Python (expected {EXAMPLES})")
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(full)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so that the file's own sibling imports work
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as e:
        del sys.modules[module_name]
        raise TargetError(f"importing {path} called sys.exit({e.code!r}): move script code under "
                          "`if __name__ == \"__main__\":`", usage=False) from None
    except BaseException as e:  # the user's code failed: one line, at its line
        del sys.modules[module_name]
        if isinstance(e, KeyboardInterrupt):
            raise
        raise TargetError(f"importing {path} failed{_line_in(e, full)}: {type(e).__name__}: {first_line(e)}",
                          usage=False) from None
    return module


def _import_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise TargetError(f"cannot import module {name!r}: {e} (expected {EXAMPLES}; a file needs its .py)") from None
    except Exception as e:
        raise TargetError(f"importing {name!r} failed: {type(e).__name__}: {first_line(e)}", usage=False) from None


def _line_in(e: BaseException, path: str) -> str:
    frames = [f for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == path]
    return f" at line {frames[-1].lineno}" if frames else ""


def first_line(e: BaseException) -> str:
    """The first line of an exception's message."""
    lines = str(e).strip().splitlines()
    return lines[0] if lines else ""
