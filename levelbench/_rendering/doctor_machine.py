"""Machine-readable output: JSON (levelbench's own, versioned) and SARIF 2.1.0 (for code-scanning UIs).

SARIF has no notion of notebook cells: a finding in a notebook is located at its line within the
cell, its message starts with ``cell N:``, and ``properties.cell`` carries the cell number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._values.findings import Severity
from .._values.catalogue import RULES
from ..doctor._diagnostic import Diagnostic, DoctorReport
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


def _result(diagnostic: Diagnostic, rule_index: int) -> dict[str, Any]:
    location = diagnostic.location
    message = diagnostic.message
    if location.in_notebook:
        message = f"cell {location.cell}: {message}"
    if diagnostic.finding.fix:
        message += f"\nFix:\n{diagnostic.finding.fix}"
    region: dict[str, Any] = {"startLine": location.line, "startColumn": location.column}
    if location.end_line >= location.line:
        region.update(endLine=location.end_line, endColumn=location.end_column)
    if diagnostic.source_line:
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
        result["properties"]["cell"] = location.cell
    return result


def _uri(path: str) -> str:
    if path.startswith("<"):
        return path.strip("<>")
    candidate = Path(path)
    return candidate.as_uri() if candidate.is_absolute() else candidate.as_posix()
