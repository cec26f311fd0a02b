"""Machine-readable output: JSON (levelbench's own, versioned), JSON Lines, SARIF 2.1.0 (for code-scanning
UIs) and GitHub Actions workflow annotations.

SARIF and GitHub know nothing of notebook cells: a finding in a notebook is placed where the cell's
source is in the ``.ipynb`` file's own text (`Diagnostic.in_file`), its message starts with
``cell N:``, and SARIF's ``properties`` carry the cell (``cell`` numbered from 1 as Jupyter shows
it, ``cellIndex`` from 0 in the notebook's ``cells`` list) and the line and column within it.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections.abc import Callable
from typing import Any

from .._values.findings import Severity
from .._values.catalogue import RULES
from ..doctor import Diagnostic, DoctorReport
from .._values.version import VERSION

JSON_FORMAT_VERSION = 1
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_json(report: DoctorReport) -> str:
    """The report as JSON: ``{"format_version", "tool", "version", "files", "findings", "summary"}``."""
    document = {
        "format_version": JSON_FORMAT_VERSION, "tool": "levelbench doctor", "version": VERSION, **report.to_dict()
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def render_sarif(report: DoctorReport) -> str:
    """The report as a SARIF 2.1.0 log with one run."""
    codes = list(RULES)
    rules = [
        {
            "id": rule.code,
            "name": "".join(part.capitalize() for part in rule.name.split("-")),
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.why},
            "help": {"text": rule.explain(), "markdown": _help_markdown(rule.code)},
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
            "properties": {"tags": ["performance", "benchmarking"], "kebabName": rule.name},
        }
        for rule in RULES.values()
    ]
    results = [_result(d, codes.index(d.code)) for d in report.diagnostics]
    log = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "levelbench doctor",
                        "version": VERSION,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _help_markdown(code: str) -> str:
    rule = RULES[code]
    return f"{rule.why}\n\nTriggers it:\n\n```python\n{rule.bad}\n```\n\nFix:\n\n```python\n{rule.good}\n```"


def render_json_lines(report: DoctorReport) -> str:
    """One JSON object per finding, one per line (the objects of `render_json`'s ``findings``)."""
    return "\n".join(json.dumps(d.to_dict(), ensure_ascii=False) for d in report.diagnostics)


def render_github(report: DoctorReport) -> str:
    """GitHub Actions workflow commands, one annotation per finding::

        ::warning file=bench.py,line=12,col=1,endLine=12,endColumn=20,title=LB104::one sample ...
    """
    lines = []
    for d in report.diagnostics:
        where = d.in_file or d.location
        cell = f"cell {d.location.cell}: " if d.location.in_notebook else ""
        properties = {"file": where.path, "line": where.line, "col": where.column}
        if where.end_line >= where.line and where.end_line:
            properties.update(endLine=where.end_line, endColumn=where.end_column)
        properties["title"] = d.code
        fields = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
        lines.append(f"::{_GITHUB_LEVEL[d.severity]} {fields}::{_escape_data(f'{cell}{d.code} {d.message}')}")
    return "\n".join(lines)


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    """As GitHub's toolkit escapes a command's message: ``%``, CR and LF."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """As GitHub's toolkit escapes a command's property values: also ``:`` and ``,``."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _result(diagnostic: Diagnostic, rule_index: int) -> dict[str, Any]:
    location = diagnostic.location
    message = diagnostic.message
    if location.in_notebook:
        message = f"cell {location.cell}: {message}"
    if diagnostic.finding.fix:
        message += f"\nFix:\n{diagnostic.finding.fix}"
    where = diagnostic.in_file or location
    region: dict[str, Any] = {"startLine": where.line, "startColumn": where.column}
    if where.end_line >= where.line:
        region.update(endLine=where.end_line, endColumn=where.end_column)
    if diagnostic.source_line and diagnostic.in_file is None and not location.in_notebook:
        region["snippet"] = {"text": diagnostic.source_line}
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[diagnostic.severity],
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(location.path)}, "region": region}}],
        "properties": {"evidence": diagnostic.finding.evidence},
    }
    if location.in_notebook:
        result["properties"].update(
            cell=location.cell, cellIndex=location.cell - 1, cellLine=location.line, cellColumn=location.column,
            cellEndLine=location.end_line, cellEndColumn=location.end_column, source=diagnostic.source_line,
        )
    return result


def _uri(path: str) -> str:
    if path.startswith("<"):
        return path.strip("<>")
    candidate = Path(path)
    return candidate.as_uri() if candidate.is_absolute() else candidate.as_posix()


MACHINE_FORMATS: dict[str, Callable[[DoctorReport], str]] = {
    "json": render_json,
    "json-lines": render_json_lines,
    "sarif": render_sarif,
    "github": render_github,
}
"""The ``--format`` values whose output is for programs, and their renderers."""
