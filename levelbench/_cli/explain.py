"""``levelbench explain FILE.py::function``: import the user's module and diagnose one of its functions.

The module provides the example arguments; the command is `levelbench.explain` plus rendering.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import click

USAGE_EXIT = 2
FAILURE_EXIT = 1


class _Stop(Exception):
    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


@click.command("explain")
@click.argument("target", metavar="FILE.py::FUNCTION")
@click.option("--args", "args_name", metavar="NAME", default=None,
              help="Module attribute holding the example arguments (default: FUNCTION_args, example_args, EXAMPLE_ARGS).")
@click.option("--scale-axis", metavar="ARG[:AXIS]", default=None,
              help="The sequence axis: argument position or name, optionally :axis (e.g. 1, X, X:0); 'off' to skip.")
@click.option("--probe", "probes", multiple=True, metavar="NAME",
              help="Run only this probe (may repeat): config, unrolled, dead, precision, transfers, compile, "
                   "retrace, dispatch, roofline, torch.")
@click.option("--quick", is_flag=True, help="Skip the expensive probes (growth with length, dispatch, roofline).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds explain may spend.")
@click.option("--json", "as_json", is_flag=True, help="Print the diagnosis as JSON instead of the report.")
def explain_command(target: str, args_name: str | None, scale_axis: str | None, probes: tuple[str, ...],
                    quick: bool, budget: float, as_json: bool) -> None:
    """Diagnose FUNCTION in FILE.py by running it: ranked findings, measured evidence, the fix.

    FILE.py is imported (its `if __name__ == "__main__":` block does not run) and FUNCTION is
    called with example arguments the module provides, looked up in this order:

    \b
      --args NAME          the attribute NAME
      FUNCTION_args        e.g. forward_args for forward (dots in FUNCTION become _)
      example_args         a function returning the arguments
      EXAMPLE_ARGS         a value
    Each is a tuple of positional arguments, a function returning one, or a dict
    {"args": (...), "kwargs": {...}}. A call sequence to check for recompilation, if any, is
    FUNCTION_calls / example_calls / EXAMPLE_CALLS: a list of such tuples.

    \b
    Example (model.py):
      def forward(params, x): ...
      def forward_args():
          return params, jnp.ones((1000, 8, 6))
    \b
      levelbench explain model.py::forward
      levelbench explain model.py::forward --scale-axis x:0 --json
    """
    try:
        module = _import(target)
        name = target.rpartition("::")[2]
        fn = _function(module, name, target)
        args, kwargs = _example_args(module, name, args_name, target)
        calls = _example_calls(module, name)
        axis = _scale_axis(scale_axis)
    except _Stop as stop:
        _fail(str(stop), stop.code)

    from .._probing import explain

    try:
        diagnosis = explain(fn, *args, scale_axis=axis, calls=calls, probes=list(probes) or None, quick=quick,
                            budget=budget, label=name, **kwargs)
    except (TypeError, ValueError) as e:
        _fail(f"levelbench explain: {e}", USAGE_EXIT)
    except Exception as e:  # the user's function failed: say so on one line
        _fail(f"levelbench explain: running {name} failed: {type(e).__name__}: {_first_line(e)}", FAILURE_EXIT)
    if as_json:
        click.echo(diagnosis.to_json())
        return
    from .._rendering.terminal import console

    console().print(diagnosis)


def _import(target: str) -> ModuleType:
    path_text, sep, name = target.rpartition("::")
    if not sep or not path_text or not name:
        raise _Stop(f"levelbench explain: expected FILE.py::FUNCTION, got {target!r}: e.g. "
                    "levelbench explain model.py::forward", USAGE_EXIT)
    path = Path(path_text)
    if not path.is_file():
        raise _Stop(f"levelbench explain: no such file {path_text!r}: give the path to a .py file, "
                    f"e.g. levelbench explain model.py::{name}", USAGE_EXIT)
    if path.suffix != ".py":
        raise _Stop(f"levelbench explain: {path_text!r} is not a .py file: for notebooks use levelbench doctor, "
                    "or move the function into a module", USAGE_EXIT)
    module_name = "levelbench_explain_" + "".join(c if c.isalnum() else "_" for c in path.stem)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise _Stop(f"levelbench explain: cannot import {path_text!r} as a Python module", USAGE_EXIT)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))  # so the module's own sibling imports work
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as e:
        raise _Stop(f"levelbench explain: importing {path_text} called sys.exit({e.code!r}): move script code "
                    "under `if __name__ == \"__main__\":`", FAILURE_EXIT) from None
    except BaseException as e:
        line = _user_line(e, path)
        raise _Stop(f"levelbench explain: importing {path_text} failed{line}: {type(e).__name__}: "
                    f"{_first_line(e)}", FAILURE_EXIT) from None
    return module


def _function(module: ModuleType, name: str, target: str) -> Any:
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            defined = sorted(n for n, v in vars(module).items()
                             if callable(v) and not n.startswith("_") and getattr(v, "__module__", None) == module.__name__)
            listing = ", ".join(defined[:8]) or "none"
            raise _Stop(f"levelbench explain: {target.rpartition('::')[0]} has no {name!r}; "
                        f"functions defined there: {listing}", USAGE_EXIT)
        obj = getattr(obj, part)
    if not callable(obj):
        raise _Stop(f"levelbench explain: {name} in {target.rpartition('::')[0]} is not a function "
                    f"(got {type(obj).__name__}): name the function to diagnose", USAGE_EXIT)
    return obj


def _example_args(module: ModuleType, name: str, args_name: str | None, target: str) -> tuple[tuple, dict]:
    stem = name.replace(".", "_")
    candidates = [args_name] if args_name else [f"{stem}_args", "example_args", "EXAMPLE_ARGS"]
    for attr in candidates:
        if hasattr(module, attr):
            return _as_call(_value(module, attr), attr)
    if args_name:
        raise _Stop(f"levelbench explain: {target.rpartition('::')[0]} has no attribute {args_name!r} "
                    f"(given by --args)", USAGE_EXIT)
    raise _Stop(
        f"levelbench explain: {target.rpartition('::')[0]} gives no example arguments for {name}: add "
        f"`def {stem}_args(): return (x, y)` (or example_args() / EXAMPLE_ARGS) to it, or name one with --args",
        USAGE_EXIT,
    )


def _example_calls(module: ModuleType, name: str) -> list | None:
    for attr in (f"{name.replace('.', '_')}_calls", "example_calls", "EXAMPLE_CALLS"):
        if hasattr(module, attr):
            value = _value(module, attr)
            if not isinstance(value, (list, tuple)):
                raise _Stop(f"levelbench explain: {attr} must be a list of argument tuples, got "
                            f"{type(value).__name__}", USAGE_EXIT)
            return list(value)
    return None


def _value(module: ModuleType, attr: str) -> Any:
    value = getattr(module, attr)
    if callable(value):
        try:
            return value()
        except Exception as e:
            raise _Stop(f"levelbench explain: {attr}() failed: {type(e).__name__}: {_first_line(e)}",
                        FAILURE_EXIT) from None
    return value


def _as_call(value: Any, attr: str) -> tuple[tuple, dict]:
    from .._probing.arguments import Call

    if isinstance(value, Call):
        return value.args, value.kwargs
    if isinstance(value, dict) and value and set(value) <= {"args", "kwargs"}:
        return tuple(value.get("args", ())), dict(value.get("kwargs", {}))
    if isinstance(value, (tuple, list)):
        return tuple(value), {}
    raise _Stop(f"levelbench explain: {attr} must be a tuple of positional arguments (for one argument: (x,)), "
                f"got {type(value).__name__}", USAGE_EXIT)


def _scale_axis(text: str | None) -> Any:
    if text is None:
        return None
    if text.lower() in ("off", "none", "no", "false"):
        return False
    argument, _, axis = text.partition(":")
    arg: int | str = int(argument) if argument.lstrip("-").isdigit() else argument
    if not axis:
        return arg
    if not axis.lstrip("-").isdigit():
        raise _Stop(f"levelbench explain: --scale-axis {text!r}: the axis after ':' must be an integer, "
                    "e.g. X:0", USAGE_EXIT)
    return (arg, int(axis))


def _user_line(e: BaseException, path: Path) -> str:
    import traceback

    frames = [f for f in traceback.extract_tb(e.__traceback__) if Path(f.filename).resolve() == path.resolve()]
    return f" at line {frames[-1].lineno}" if frames else ""


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else ""


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)
