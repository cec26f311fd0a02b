"""What the doctor reports: a `Finding` pinned to a place in a file or notebook cell, the edits that fix it
(when it can be fixed), and a whole run's report."""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from typing import Any

from .._values.catalogue import RULES
from .._values.findings import Finding, Severity


@dataclasses.dataclass(frozen=True, order=True, slots=True)
class Location:
    """Where a finding is. Lines and columns count from 1, columns in characters.

    In a notebook, ``cell`` is the cell's number (from 1, in notebook order, markdown cells
    included, as Jupyter and VS Code show them) and ``line`` counts within that cell.
    """

    path: str
    cell: int = 0
    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1

    @property
    def in_notebook(self) -> bool:
        return self.cell > 0

    def __str__(self) -> str:
        cell = f"cell_{self.cell}:" if self.in_notebook else ""
        return f"{self.path}:{cell}{self.line}:{self.column}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "cell": self.cell if self.in_notebook else None,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


@dataclasses.dataclass(frozen=True, order=True, slots=True)
class Edit:
    """Replace ``line:column`` .. ``end_line:end_column`` of ``cell`` with ``text``.

    Lines count from 1 (within the cell for a notebook, in the file for a script, whose ``cell`` is 0),
    columns from 0 in characters; the end is exclusive. ``text`` uses ``\\n`` for new lines.
    """

    cell: int
    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    @property
    def start(self) -> tuple[int, int, int]:
        return (self.cell, self.line, self.column)

    @property
    def end(self) -> tuple[int, int, int]:
        return (self.cell, self.end_line, self.end_column)


@dataclasses.dataclass(frozen=True, slots=True)
class Fix:
    """The edits that fix one finding, applied together or not at all."""

    edits: tuple[Edit, ...]
    description: str

    def overlaps(self, other: Fix) -> bool:
        """Whether any edit of one touches an edit of the other (two insertions at one point included)."""
        return any(_touch(a, b) for a in self.edits for b in other.edits)


def _touch(a: Edit, b: Edit) -> bool:
    if a.cell != b.cell:
        return False
    return a.start <= b.end and b.start <= a.end


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding of the static doctor, with its location and the source line it points at."""

    location: Location
    finding: Finding
    rule: str
    source_line: str = ""
    fix: Fix | None = dataclasses.field(default=None, compare=False, repr=False)
    """The edits that fix it, when `levelbench doctor --fix` can (see the rule's ``fix_safety``)."""
    in_file: Location | None = dataclasses.field(default=None, compare=False, repr=False)
    """For a notebook, the same place in the ``.ipynb`` file's own text (``cell`` 0, the JSON's lines and
    columns), for tools that know nothing of cells (SARIF, GitHub annotations); None for a script."""

    @classmethod
    def of(
        cls, code: str, location: Location, message: str, *, evidence: str = "", fix: str = "", source_line: str = "",
        edits: Fix | None = None,
    ) -> Diagnostic:
        """The diagnostic of rule ``code`` at ``location``: its severity and cost are the rule's.

        One copy of each text (sys.intern): a long generated file repeats the same finding hundreds of
        thousands of times, and the report keeps every one. For the same reason the finding's ``data`` (the
        rule's name) is one dict per rule, and the location is not copied into it: `to_dict` adds it."""
        rule = RULES[code]
        data = _RULE_DATA.get(code)
        if data is None:
            data = _RULE_DATA[code] = {"rule": rule.name}
        finding = Finding(
            code=code, title=sys.intern(message), severity=rule.severity, evidence=sys.intern(evidence),
            cost=rule.cost, fix=sys.intern(fix), subject=str(location), data=data,
        )
        return cls(location, finding, rule.name, sys.intern(source_line), edits)

    @property
    def code(self) -> str:
        return self.finding.code

    @property
    def severity(self) -> Severity:
        return self.finding.severity

    @property
    def message(self) -> str:
        return self.finding.title

    def __str__(self) -> str:
        return f"{self.location}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, Any]:
        where = self.location.to_dict()
        finding = self.finding.to_dict()
        finding["data"] = {**finding["data"], **where}
        return {**where, "rule": self.rule, **finding, "source": self.source_line}

    def packed(self) -> tuple:
        """Plain tuples and strings, for sending a script's diagnostics between processes: a tenth of the time
        pickling the objects takes. Only what `unpacked` cannot derive from the code and the location."""
        where, edits, in_file = self.location, self.fix, self.in_file
        return (
            where.cell, where.line, where.column, where.end_line, where.end_column, self.code, self.message,
            self.finding.evidence, self.finding.fix, self.source_line,
            None if edits is None else (
                edits.description, tuple((e.cell, e.line, e.column, e.end_line, e.end_column, e.text) for e in edits.edits)
            ),
            None if in_file is None else (in_file.line, in_file.column, in_file.end_line, in_file.end_column),
        )

    @classmethod
    def unpacked(cls, path: str, packed: tuple) -> Diagnostic:
        """The diagnostic of ``path`` that `packed` gave."""
        cell, line, column, end_line, end_column, code, title, evidence, fix, source_line, edits, in_file = packed
        if edits is not None:
            description, spans = edits
            edits = Fix(tuple(Edit(*span[:5], sys.intern(span[5])) for span in spans), sys.intern(description))
        location = Location(path, cell, line, column, end_line, end_column)
        found = cls.of(code, location, title, evidence=evidence, fix=fix, source_line=source_line, edits=edits)
        return found if in_file is None else dataclasses.replace(found, in_file=Location(path, 0, *in_file))


_RULE_DATA: dict[str, dict[str, Any]] = {}


@dataclasses.dataclass(frozen=True)
class DoctorReport:
    """The result of linting some paths: every diagnostic, and the files that were looked at."""

    diagnostics: tuple[Diagnostic, ...]
    files: tuple[str, ...]
    fail_on: tuple[tuple[str, Severity], ...] = ()
    """Per file, the ``fail-on`` its configuration sets (files not listed use the caller's default)."""
    configs: tuple[tuple[str, str], ...] = ()
    """Per file, the configuration file (``pyproject.toml``) that applied to it, when one did."""

    def counts(self) -> dict[Severity, int]:
        """How many diagnostics of each severity, every severity present as a key."""
        found = Counter(d.severity for d in self.diagnostics)
        return {severity: found.get(severity, 0) for severity in Severity}

    def at_or_above(self, severity: Severity) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity >= severity)

    def failing(self, default: Severity = Severity.WARNING) -> tuple[Diagnostic, ...]:
        """The diagnostics at or above their file's ``fail-on`` (``default`` where no configuration set one)."""
        thresholds = dict(self.fail_on)
        return tuple(d for d in self.diagnostics if d.severity >= thresholds.get(d.location.path, default))

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": list(self.files),
            "findings": [d.to_dict() for d in self.diagnostics],
            "summary": {s.name.lower(): n for s, n in self.counts().items()},
        }
