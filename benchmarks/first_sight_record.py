"""The first-sight line: what the doctor said about a real case before anyone changed it for that case.

A corpus that the doctor is tuned on stops measuring its accuracy: the corpus score becomes a
training score. So every case added to tests/doctor_cases/real/ is scored once, by the doctor as it
was when the case arrived, and that result is kept in the case file as one header line, written once
and never rewritten (benchmarks/first_sight.py writes it; later doctor changes leave it alone).

In a case (``NNN_slug.py``), after ``# lines:``, the static doctor on both forms::

    # first-sight: 43b52af 2026-12-02 py: found LB102:19 LB103:19; missed LB104:20/21; false LB106:12 | notebook: found LB102:19; missed LB103:19, LB104:20/21; false none

In its runnable copy (``NNN_slug_run.py``), after ``# dynamic:``, explain's findings of warning or worse::

    # first-sight: 43b52af 2026-12-02 explain: found LB230; missed LB240; false none

- the commit (7 to 40 hex digits) of the levelbench code that scored the case, and the date;
- then one part per form (``py``, ``notebook``; or ``explain``), parts separated by `` | ``;
- each part: ``found`` the findings that were right (static: code:line, one entry per finding),
  ``missed`` the labelled codes not found (static: code:the lines they belong at, ``/``-separated),
  ``false`` the findings that were wrong (static: code:line); ``none`` for an empty list.
  Static entries are separated by spaces in ``found`` and ``false`` and by ``, `` in ``missed``,
  since each finding is a point and each miss a set of places. explain entries are codes only.

Recall is (labelled codes found) / (labelled codes), precision (findings right) / (findings), as in
benchmarks/doctor_accuracy.py, whose ``Score`` these records fill.
"""

from __future__ import annotations

import dataclasses
import datetime
import re

FORMS = ("py", "notebook", "explain")
STATIC_FORMS = ("py", "notebook")
_PREFIX = re.compile(r"(?P<commit>[0-9a-f]{7,40}) (?P<date>\d{4}-\d{2}-\d{2}) (?P<rest>.+)$")
_PART = re.compile(r"(?P<form>[a-z]+): found (?P<found>.+?); missed (?P<missed>.+?); false (?P<false>.+)$")
_STATIC_POINT = re.compile(r"LB\d{3}:\d+$")
_STATIC_PLACES = re.compile(r"LB\d{3}(:\d+(/\d+)*)?$")
_CODE = re.compile(r"LB\d{3}$")


@dataclasses.dataclass(frozen=True)
class FormResult:
    """One form's first-sight result.

    ``found`` and ``false`` hold one (code, line) per finding (line 0 for explain, which has no
    lines); ``missed`` one (code, lines) per labelled code not found (lines empty: anywhere).
    """

    found: tuple[tuple[str, int], ...]
    missed: tuple[tuple[str, tuple[int, ...]], ...]
    false: tuple[tuple[str, int], ...]

    @property
    def labelled(self) -> frozenset[str]:
        """The labelled codes this result scored: those found and those missed."""
        return frozenset(c for c, _ in self.found) | frozenset(c for c, _ in self.missed)


@dataclasses.dataclass(frozen=True)
class FirstSight:
    """A parsed first-sight line: who scored (commit, date) and the result per form."""

    commit: str
    date: datetime.date
    forms: dict[str, FormResult]


def parse_first_sight(value: str) -> FirstSight:
    """The value of a ``# first-sight:`` line -> FirstSight; ValueError naming what is wrong.

    >>> fs = parse_first_sight("43b52af 2026-12-02 explain: found LB230; missed LB240; false none")
    >>> fs.forms["explain"].missed
    (('LB240', ()),)
    """
    m = _PREFIX.match(value.strip())
    if not m:
        raise ValueError(f"expected '<commit> <YYYY-MM-DD> <form>: found ...; missed ...; false ...', got {value!r}")
    date = datetime.date.fromisoformat(m.group("date"))
    forms: dict[str, FormResult] = {}
    for part in m.group("rest").split(" | "):
        p = _PART.match(part)
        if not p:
            raise ValueError(f"expected '<form>: found ...; missed ...; false ...', got {part!r}")
        form = p.group("form")
        if form not in FORMS or form in forms:
            raise ValueError(f"form must be one of {', '.join(FORMS)}, each once; got {form!r} in {value!r}")
        static = form in STATIC_FORMS
        forms[form] = FormResult(
            found=_points(p.group("found"), static),
            missed=_places(p.group("missed"), static),
            false=_points(p.group("false"), static),
        )
    if "explain" in forms and len(forms) > 1:
        raise ValueError(f"explain is recorded alone, in the runnable copy; got {sorted(forms)}")
    if "explain" not in forms and set(forms) != set(STATIC_FORMS):
        raise ValueError(f"a case records both static forms (py, notebook); got {sorted(forms)}")
    return FirstSight(commit=m.group("commit"), date=date, forms=forms)


def _points(text: str, static: bool) -> tuple[tuple[str, int], ...]:
    if text == "none":
        return ()
    out = []
    for entry in text.split(" "):
        if static:
            if not _STATIC_POINT.match(entry):
                raise ValueError(f"expected a finding as CODE:LINE (LB102:19), got {entry!r}")
            code, line = entry.split(":")
            out.append((code, int(line)))
        else:
            if not _CODE.match(entry):
                raise ValueError(f"expected an LB2xx code, got {entry!r}")
            out.append((entry, 0))
    return tuple(out)


def _places(text: str, static: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if text == "none":
        return ()
    out = []
    for entry in text.split(", "):
        if not (_STATIC_PLACES if static else _CODE).match(entry):
            raise ValueError(f"expected a missed code as {'CODE or CODE:LINE/LINE' if static else 'CODE'}, got {entry!r}")
        code, _, lines = entry.partition(":")
        out.append((code, tuple(int(n) for n in lines.split("/")) if lines else ()))
    return tuple(out)


def format_first_sight(record: FirstSight) -> str:
    """The line's value for ``record`` (``parse_first_sight`` reads it back unchanged)."""
    parts = []
    for form, result in record.forms.items():
        static = form in STATIC_FORMS

        def point(code: str, line: int) -> str:
            return f"{code}:{line}" if static else code

        found = " ".join(point(c, n) for c, n in result.found) or "none"
        missed = ", ".join(f"{c}:{'/'.join(map(str, ls))}" if ls and static else c for c, ls in result.missed) or "none"
        false = " ".join(point(c, n) for c, n in result.false) or "none"
        parts.append(f"{form}: found {found}; missed {missed}; false {false}")
    return f"{record.commit} {record.date.isoformat()} " + " | ".join(parts)
