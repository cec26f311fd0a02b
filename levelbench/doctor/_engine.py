"""Running the doctor's rules on one text: the rules found (one module each in `levelbench.doctor.rules`),
chosen (`selected_codes`), run on the text's `Context`, and their findings kept (suppressions) and ordered.
No printing here (renderers do that), and no processes (`_schedule` shares inputs and parts among them)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from types import MappingProxyType

from .._values.catalogue import RULES, resolve_codes
from . import rules
from ._cell_positions import with_file_positions
from ._context import Context
from ._diagnostic import Diagnostic, Location
from ._load import SourceText
from ._notebook import NotebookError, code_cells
from ._program import Program
from ._suppress import FileSuppression, is_suppressed

Check = Callable[[Context], Iterator[Diagnostic]]


class RuleModuleError(RuntimeError):
    """The rule modules and the catalogue disagree: a module without a rule, a rule without a module."""


def discover_rules(package: str, codes: Collection[str]) -> Mapping[str, Check]:
    """Each rule's check, by code in code order, from the modules of ``package`` (each module is one rule:
    ``CODE = "LB1xx"`` and ``def check(ctx)``), which must be exactly the rules ``codes``.

    Raises:
        RuleModuleError: a module without ``CODE`` or ``check``, a code the catalogue does not have, two
            modules with one code, or a code of ``codes`` that no module checks.
    """
    where = importlib.import_module(package)
    found: dict[str, Check] = {}
    homes: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(where.__path__), key=lambda info: info.name):
        name = f"{package}.{info.name}"
        module = importlib.import_module(name)
        code, check = getattr(module, "CODE", None), getattr(module, "check", None)
        if not isinstance(code, str) or not callable(check):
            raise RuleModuleError(
                f"{name} is in the rules package but is not a rule: expected CODE = \"LB1xx\" (got {code!r}) and a "
                f"function check(ctx) (got {check!r}); move a module that is not a rule out of {package}"
            )
        if code not in codes:
            raise RuleModuleError(
                f"{name} checks {code}, which the catalogue does not have: expected one of {', '.join(sorted(codes))}; "
                f"add {code}'s entry to levelbench/_values/catalogue/static.py or correct CODE"
            )
        if code in homes:
            raise RuleModuleError(
                f"{code} is checked by two modules, {homes[code]} and {name}: expected one module per rule; "
                "merge them or correct one CODE"
            )
        found[code], homes[code] = check, name
    missing = sorted(set(codes) - set(found))
    if missing:
        raise RuleModuleError(
            f"no module of {package} checks {', '.join(missing)}: expected one module per catalogue rule, "
            f"e.g. {package.replace('.', '/')}/{missing[0].lower()}_<name>.py with CODE = {missing[0]!r} and "
            "def check(ctx); or remove the entry from levelbench/_values/catalogue/static.py"
        )
    return MappingProxyType({code: found[code] for code in sorted(found)})


@functools.cache
def rule_checks() -> Mapping[str, Check]:
    """The doctor's rules, by code in code order: `discover_rules` over `levelbench.doctor.rules` and the
    catalogue's LB1xx codes (LB100, an unreadable input, is the engine's own). Found once per process."""
    return discover_rules(rules.__name__, [code for code in RULES if code != "LB100"])


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


def unreadable(path: str, message: str, location: Location | None = None, source_line: str = "") -> Diagnostic:
    """An LB100 diagnostic: ``path`` could not be analysed, and why."""
    return Diagnostic.of("LB100", location or Location(path), message, source_line=source_line)


def diagnose_now(source: SourceText, codes: frozenset[str], edits: bool = True) -> tuple[Diagnostic, ...]:
    """The diagnostics of one readable text, checked as one piece, for the rule ``codes``: suppressions
    applied, in order. ``edits``: whether diagnostics get their fix's edits."""
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
        context = Context.build(program, edits=edits and not program.transcript)  # a transcript's lines are not the file's
    except (RecursionError, MemoryError) as e:
        return (*found, unreadable(source.path, f"too deeply nested to analyse: {type(e).__name__}"))
    for code, check in rule_checks().items():
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
