"""The fair ratio of two frameworks the script compared, measured with `levelbench.compare`'s isolated workers.

Runs in the script's process once the script has ended and its intervals were re-timed (`_fair`). For each
two frameworks the script timed, the first re-timed interval of each (`first_of_each_framework`, the choice
`ScriptAudit.ratios` makes) is sent to a worker process of its own: its statements as source, the script's
values they read pickled, the modules they use by name. `compare` then times the two interleaved, each
alone in its process (no other framework's thread pool beside it), to a confidence interval on the ratio.
An interval reading something that cannot go to another process (a function defined in the script, an open
file, a lock) gets the reason instead.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import os
import pickle
import sys
import types
from collections.abc import Callable
from typing import Any

from .._results.script_audit import first_of_each_framework
from ._fair import FUNCTION, function_source, statements_between

BUDGET = 3.0
"""Seconds of interleaved timing per framework pair (`compare`'s ``budget``)."""
TIMEOUT = 120.0
"""Seconds the two workers of a pair may take in all, starting and importing included (`compare`'s ``timeout``)."""
_BUILDER = "levelbench._auditing._isolated:candidate"


def isolated_ratios(source: str, script: str, namespaces: dict[tuple[int, int], dict[str, Any]],
                    fair: dict[str, dict[str, Any]], folder: str, timer: Callable[[], float]) -> list[dict[str, Any]]:
    """``[{"first", "second" ("opening:closing"), "frameworks", "ratio", "low", "high", "rounds"} or {..., "refused":
    why}]``: one per two frameworks among the re-timed intervals. ``folder`` holds what the workers read."""
    chosen = first_of_each_framework(
        (key, str(figure.get("framework", ""))) for key, figure in fair.items() if "median" in figure)
    if len(chosen) < 2:
        return []
    tree = ast.parse(source)  # it parsed for `fair_figures` already
    shipped: dict[str, str] = {}  # "opening:closing" -> the file a worker builds its candidate from, or why not
    refused: dict[str, str] = {}
    for framework, key in chosen.items():
        opening, closing = (int(part) for part in key.split(":"))
        path = os.path.join(folder, f"isolated-{opening}-{closing}.pickle")
        try:
            why = _ship(tree, opening, closing, namespaces.get((opening, closing), {}), path)
        except Exception as e:  # pickled values whose copy fails late, a full disk: the pair says why
            why = f"writing its values for a worker failed: {type(e).__name__}: {e}"
        if why:
            refused[key] = why
        else:
            shipped[key] = path
    frameworks = list(chosen)
    found = []
    for i, first in enumerate(frameworks):
        for second in frameworks[i + 1:]:
            a, b = chosen[first], chosen[second]
            entry: dict[str, Any] = {"first": a, "second": b, "frameworks": [first, second]}
            why = refused.get(a) or refused.get(b)
            if why:
                lines = a if a in refused else b
                entry["refused"] = f"lines {lines.replace(':', '-')} cannot run in a worker process: {why}"
            else:
                entry.update(_compare(first, shipped[a], second, shipped[b], timer))
            found.append(entry)
    return found


def _ship(tree: ast.Module, opening: int, closing: int, names: dict[str, Any], path: str) -> str:
    """Write what a worker needs to run the statements between the two reads to ``path``; or why it cannot."""
    statements, why = statements_between(tree, opening, closing)
    if statements is None:
        return why
    module = function_source(statements)
    modules: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name in _free_names(module):
        if name not in names:
            if hasattr(builtins, name):
                continue
            return f"`{name}` was not defined when the script computed the interval"
        value = names[name]
        if isinstance(value, types.ModuleType):
            modules[name] = value.__name__
        elif getattr(value, "__module__", None) == "__main__":
            return (f"`{name}` is a {type(value).__name__} defined in the script, which another process cannot "
                    "import (move it to a module of its own to compare it isolated)")
        else:
            values[name] = value
    try:
        pickled = pickle.dumps(values)
    except Exception as e:  # a lock, an open file, a generator: the reason is pickle's
        return f"its values cannot be sent to another process ({type(e).__name__}: {e})"
    if b"__main__" in pickled:
        return "its values refer to functions or classes defined in the script, which another process cannot import"
    jax = sys.modules.get("jax")
    x64 = bool(getattr(getattr(jax, "config", None), "jax_enable_x64", False)) if jax is not None else False
    with open(path, "wb") as f:
        pickle.dump({"source": ast.unparse(module), "modules": modules, "values": pickled, "x64": x64}, f)
    return ""


def _free_names(module: ast.Module) -> list[str]:
    """The names the function reads that it does not assign: the script's values and modules it needs."""
    assigned = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    read = [n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    return [name for name in dict.fromkeys(read) if name not in assigned]


def _compare(first: str, first_path: str, second: str, second_path: str,
             timer: Callable[[], float]) -> dict[str, Any]:
    # lazy: compare and its workers load only once the script has ended, and only where it compared frameworks
    from .._measuring.candidate import Builder
    # lazy: as above
    from .._measuring.compare import compare

    try:
        comparison = compare(
            {first: Builder(_BUILDER, {"path": first_path}), second: Builder(_BUILDER, {"path": second_path})},
            isolate=True, check_outputs=False, count_flops=False, peak=False, peak_lane=False, environment=False,
            budget=BUDGET, timeout=TIMEOUT, timer=timer)
    except KeyboardInterrupt:
        raise
    except Exception as e:  # the statements fail away from the script, or a worker died: say which
        return {"refused": f"the isolated workers failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    ratio = comparison.ratio(first, second)
    rounds = min(sum(r is not None for r in comparison.rounds[n]) for n in (first, second))
    return {"ratio": ratio.estimate, "low": ratio.lower, "high": ratio.upper, "rounds": rounds}


def candidate(path: str) -> Callable[[], Any]:
    """In a worker: the statements written by `_ship` to ``path``, as a function over the script's values."""
    with open(path, "rb") as f:
        shipped = pickle.load(f)
    if shipped["x64"]:  # the script's precision: float64 arrays stay float64 when unpickled
        # lazy: jax only where the script had it
        import jax

        jax.config.update("jax_enable_x64", True)
    scope: dict[str, Any] = {name: importlib.import_module(module) for name, module in shipped["modules"].items()}
    scope.update(pickle.loads(shipped["values"]))  # noqa: S301 - written by this run's own script process
    exec(compile(shipped["source"], path, "exec"), scope)  # noqa: S102 - the script's statements
    return scope[FUNCTION]
