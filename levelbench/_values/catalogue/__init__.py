"""The one catalogue of finding codes: every code levelbench reports, with its explanation and fix.

``LB0xx`` measure checks itself, ``LB1xx`` the static doctor, ``LB2xx`` the dynamic doctor
(`levelbench.explain`), ``LB3xx`` compare. Data only: the checks live where they run. The docs'
code tables are generated from here (`markdown`), so they cannot drift from the code, and
``levelbench doctor --explain CODE`` prints any entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .compare import COMPARE
from .dynamic import DYNAMIC
from .measure import MEASURE
from .rule import FAMILIES, Rule
from .static import STATIC

__all__ = ["CATALOGUE", "RULES", "Rule", "codes_markdown", "markdown", "resolve_codes", "rule_for", "rules_markdown"]

CATALOGUE: Mapping[str, Rule] = {rule.code: rule for rule in (*MEASURE, *STATIC, *DYNAMIC, *COMPARE)}
"""Every code, in code order."""

RULES: Mapping[str, Rule] = {rule.code: rule for rule in STATIC}
"""The static doctor's rules (LB1xx), which ``--select`` / ``--ignore`` choose from."""


def rule_for(code: str) -> Rule:
    """The entry for any code, or a ``KeyError`` that lists the accepted codes."""
    try:
        return CATALOGUE[code.strip().upper()]
    except KeyError:
        raise KeyError(f"unknown code {code!r}: expected one of {', '.join(CATALOGUE)}") from None


def resolve_codes(patterns: Iterable[str]) -> frozenset[str]:
    """Doctor rule codes matched by ``patterns``: exact codes or prefixes (``LB10`` matches LB100..LB109), or ``ALL``.

    Raises:
        ValueError: a pattern matches no rule; the message lists the accepted codes.
    """
    codes: set[str] = set()
    for raw in patterns:
        for part in raw.split(","):
            pattern = part.strip().upper()
            if not pattern:
                continue
            matched = list(RULES) if pattern == "ALL" else [c for c in RULES if c.startswith(pattern)]
            if not matched:
                raise ValueError(
                    f"unknown rule code {part.strip()!r}: expected a code or prefix of {', '.join(RULES)}, or ALL"
                )
            codes.update(matched)
    return frozenset(codes)


def markdown(rules: Iterable[Rule]) -> str:
    """A table of ``rules`` and a section per rule, for the docs."""
    rules = list(rules)
    out = ["| code | name | severity | what it finds |", "|---|---|---|---|"]
    for rule in rules:
        out.append(f"| [{rule.code}](#{rule.code.lower()}) | `{rule.name}` | {rule.severity.name.lower()} | {rule.summary} |")
    for rule in rules:
        out += [
            "",
            f"### {rule.code}",
            "",
            f"**`{rule.name}`**, {rule.severity.name.lower()}"
            + (f" (pitfall #{rule.pitfall} in the research catalogue)" if rule.pitfall else "")
            + ".",
            "",
            rule.summary,
            "",
            rule.why,
            "",
            f"Cost: {rule.cost}.",
            "",
            "Triggers it:",
            "",
            "```python",
            rule.bad.strip("\n"),
            "```",
            "",
            "Fix:",
            "",
            "```python",
            rule.good.strip("\n"),
            "```",
        ]
        if rule.family == "doctor" and rule.code != "LB100":
            out += ["", rule.autofix]
    return "\n".join(out) + "\n"


def rules_markdown() -> str:
    """The static doctor's rule table and per-rule sections: the LB1xx part of ``docs/reference/codes.md``."""
    return markdown(STATIC)


def codes_markdown() -> str:
    """``docs/reference/codes.md``: every family, one table each, then every code's section (``make codes`` writes it)."""
    parts = ["# Every finding code", "",
             "Generated from `levelbench/_values/catalogue/` by `codes_markdown()`; do not edit by hand. "
             "`levelbench doctor --explain CODE` prints any entry.", ""]
    for digit, (family, what) in FAMILIES.items():
        rules = [r for r in CATALOGUE.values() if r.code[2] == digit]
        parts += [f"## LB{digit}xx: {family}", "", f"Found by {what}.", "", markdown(rules)]
    return "\n".join(parts)
