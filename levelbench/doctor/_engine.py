"""Running the doctor: inputs in, diagnostics out. No printing here (renderers do that)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from .._values.findings import Finding, Severity
from .._values.gc import gc_paused
from .._values.catalogue import RULES, resolve_codes
from ._check_devices import check_autograd_timed, check_cuda_sync, check_host_transfers
from ._check_dispatch import check_op_by_op
from ._check_imports import check_imports
from ._check_jit import check_jit_recreated, check_loop_under_jit, check_returns_nothing
from ._check_numerics import check_float64, check_shape_as_loc, check_syrk
from ._check_retrace import check_retrace
from ._check_timing import (
    check_compile_timed,
    check_never_called,
    check_single_sample,
    check_unawaited,
    check_wall_clock,
)
from ._cell_positions import with_file_positions
from ._config import ConfigChoice, FileSettings, Options, Settings
from ._context import Context
from ._diagnostic import Diagnostic, DoctorReport, Location
from ._load import DEFAULT_MAX_BYTES, SourceText, Unreadable, iter_inputs
from ._notebook import NotebookError, code_cells
from ._program import Program
from ._suppress import FileSuppression, is_suppressed

_CHECKS: dict[str, Callable[[Context], Iterator[Diagnostic]]] = {
    "LB101": check_never_called,
    "LB102": check_unawaited,
    "LB103": check_compile_timed,
    "LB104": check_single_sample,
    "LB105": check_wall_clock,
    "LB106": check_loop_under_jit,
    "LB107": check_returns_nothing,
    "LB108": check_float64,
    "LB109": check_shape_as_loc,
    "LB110": check_syrk,
    "LB111": check_jit_recreated,
    "LB112": check_autograd_timed,
    "LB113": check_imports,
    "LB114": check_op_by_op,
    "LB115": check_host_transfers,
    "LB116": check_cuda_sync,
    "LB117": check_retrace,
}


def selected_codes(select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> frozenset[str]:
    """The rule codes a run reports: ``select`` (default all) minus ``ignore``; codes or prefixes.

    LB100 (unreadable input) is reported unless ignored explicitly, whatever ``select`` says.

    Raises:
        ValueError: an unknown code or prefix, with the accepted codes listed.
    """
    chosen = resolve_codes(select) if select else frozenset(RULES)
    ignored = resolve_codes(ignore) if ignore else frozenset()
    if "LB100" not in ignored:
        chosen |= {"LB100"}
    return chosen - ignored


def lint_source(
    source: str,
    path: str = "<string>",
    *,
    notebook: bool | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
) -> tuple[Diagnostic, ...]:
    """Diagnose one script (or notebook JSON, when ``notebook`` or ``path`` ends in ``.ipynb``).

    !!! Example
        >>> [d.code for d in lint_source("import time\\nt0 = time.time()\\n", "bench.py")]
        []
    """
    is_notebook = path.endswith(".ipynb") if notebook is None else notebook
    return diagnose(SourceText(path, source, is_notebook), selected_codes(select, ignore))


def lint_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    stdin_name: str = "<stdin>",
    fail_on: str | Severity | None = None,
    config: ConfigChoice = False,
) -> DoctorReport:
    """Diagnose files, notebooks and directories (``-`` reads standard input).

    Unreadable inputs (missing, binary, too large, broken notebooks, syntax errors) are LB100
    diagnostics, one per file; the other inputs are still checked.

    ``config``: False (the default) reads no configuration file; True finds, for each file, the
    nearest ``pyproject.toml`` above it with a ``[tool.levelbench.doctor]`` table, as the command
    line does; a path uses that file for every input. ``select``, ``ignore``, ``fail_on`` and
    ``exclude`` override it as the command-line options do (see `levelbench.doctor._config`).

    Raises:
        ConfigError: a configuration file that cannot be used (the message says where and why).
    """
    settings = Settings(Options.of(select, ignore, fail_on, exclude, config))
    diagnostics: list[Diagnostic] = []
    files: list[str] = []
    for item, applied in iter_configured(paths, settings, max_bytes=max_bytes, stdin_name=stdin_name):
        files.append(item.path)
        if isinstance(item, Unreadable):
            if "LB100" in applied.codes:
                diagnostics.append(unreadable(item.path, item.message))
            continue
        diagnostics.extend(diagnose(item, applied.codes))
    return settings.report(tuple(diagnostics), tuple(files))


def iter_configured(
    paths: Iterable[str | os.PathLike[str]], settings: Settings, *, max_bytes: int, stdin_name: str
) -> Iterator[tuple[SourceText | Unreadable, FileSettings]]:
    """Every input with the settings that apply to it; inputs the configuration excludes are left out."""
    for item in iter_inputs(paths, exclude=settings.options.exclude, max_bytes=max_bytes, stdin_name=stdin_name):
        applied = settings.for_file(item.path)
        if not applied.excluded:
            yield item, applied


def unreadable(path: str, message: str, location: Location | None = None, source_line: str = "") -> Diagnostic:
    """An LB100 diagnostic: ``path`` could not be analysed, and why."""
    where = location or Location(path)
    rule = RULES["LB100"]
    finding = Finding(
        code="LB100", title=message, severity=rule.severity, cost=rule.cost, subject=str(where),
        data={"rule": rule.name, **where.to_dict()},
    )
    return Diagnostic(location=where, finding=finding, rule=rule.name, source_line=source_line)


def diagnose(source: SourceText, codes: frozenset[str]) -> tuple[Diagnostic, ...]:
    """The diagnostics of one readable input for the rule ``codes``, suppressions applied, in order."""
    with gc_paused():
        return _diagnose_now(source, codes)


def _diagnose_now(source: SourceText, codes: frozenset[str]) -> tuple[Diagnostic, ...]:
    try:
        if source.notebook:
            program = Program.from_notebook(source.path, code_cells(source.text))
        else:
            program = Program.from_python(source.path, source.text)
    except NotebookError as e:
        return (unreadable(source.path, str(e)),) if "LB100" in codes else ()
    except (RecursionError, MemoryError, ValueError) as e:
        return (unreadable(source.path, f"cannot parse: {type(e).__name__}: {e}"),) if "LB100" in codes else ()
    found: list[Diagnostic] = []
    if "LB100" in codes:
        for problem in program.problems:
            location = program.problem_location(problem)
            found.append(unreadable(source.path, problem.message, location, program.line_text(problem.line)))
    try:
        context = Context.build(program)
    except (RecursionError, MemoryError) as e:
        return (*found, unreadable(source.path, f"too deeply nested to analyse: {type(e).__name__}"))
    for code, check in _CHECKS.items():
        if code not in codes:
            continue
        try:
            found.extend(check(context))
        except RecursionError:
            found.append(unreadable(source.path, f"too deeply nested for the {code} check"))
        except Exception as e:  # a bug in one check must not hide the others' findings
            message = f"internal error in the {code} check ({type(e).__name__}: {e}); please report it"
            found.append(unreadable(source.path, message))
    whole_file = FileSuppression(program.text)
    kept = {
        (d.code, d.location): d
        for d in found
        if d.code in codes and not is_suppressed(d.code, d.source_line) and not whole_file.covers(d.code)
    }
    ordered = tuple(sorted(kept.values(), key=lambda d: (d.location, d.code)))
    return with_file_positions(ordered, source.text) if source.notebook else ordered
