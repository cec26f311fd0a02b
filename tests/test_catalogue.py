"""One catalogue of finding codes: every code the package reports is in it, explained, and documented."""

from __future__ import annotations

import re
from pathlib import Path

from levelbench._values.catalogue import CATALOGUE, RULES, codes_markdown, rule_for
from levelbench._values.findings import Severity
from conftest import levelbench_cli

ROOT = Path(__file__).resolve().parents[1]


def codes_in_source() -> set[str]:
    found = set()
    for path in (ROOT / "levelbench").rglob("*.py"):
        if "catalogue" in path.parts:
            continue
        found |= set(re.findall(r"[\"'](LB\d{3})[\"']", path.read_text()))
    return found


def test_every_code_the_package_reports_is_in_the_catalogue():
    missing = sorted(codes_in_source() - set(CATALOGUE))
    assert missing == [], f"add these codes to levelbench/_values/catalogue/: {missing}"


def test_every_entry_is_complete_and_named_once():
    names = [r.name for r in CATALOGUE.values()]
    assert len(names) == len(set(names))
    for code, rule in CATALOGUE.items():
        assert re.fullmatch(r"LB[0-3]\d\d", code) and rule.code == code
        assert isinstance(rule.severity, Severity)
        assert rule.summary and rule.why and rule.bad and rule.good and rule.cost, code
    assert set(RULES) == {c for c in CATALOGUE if c.startswith("LB1")}


def test_the_code_reference_in_the_docs_is_generated_from_the_catalogue():
    assert (ROOT / "docs" / "reference" / "codes.md").read_text() == codes_markdown(), \
        "regenerate docs/reference/codes.md: make codes"


def test_doctor_explain_prints_a_code_of_every_family():
    for code in ("LB003", "LB106", "LB240", "LB305"):
        run = levelbench_cli("doctor", "--explain", code)
        assert run.returncode == 0, run.stderr
        rule = rule_for(code)
        assert run.stdout.startswith(f"{code} {rule.name} ({rule.severity.name.lower()}, {rule.family})")
        assert "Fix:" in run.stdout
    bad = levelbench_cli("doctor", "--explain", "LB999")
    assert bad.returncode == 2 and "unknown code 'LB999': expected one of LB001" in bad.stderr
