"""LB118, suppression-names-no-rule: the check; the rule's words are its catalogue entry.

A mistyped code in a ``# noqa`` or ``# levelbench: ignore[...]`` comment silences nothing, and the finding
it was meant for is still reported (or, worse, the typo hides that the comment is stale). ruff warns about
codes it does not know in the same place. Only ``LB`` codes are judged: other tools' codes (``E501``) are
theirs.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator

from ..._values.catalogue import RULES
from .._context import Context
from .._diagnostic import Diagnostic
from .._program import ParseProblem
from .._suppress import mentions_suppression, suppression_codes

CODE = "LB118"


_COMMENT = re.compile(r"#.*$")


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB118: each ``LB`` code in a suppression comment that is no doctor rule, nor a prefix of one."""
    program = ctx.program
    if "LB" not in program.text.upper() or not mentions_suppression(program.text):
        return  # tokenizing a long file costs more than the rest of its reading; most have no such comment
    for line, column, comment in _comments(program.text):
        for code in suppression_codes(comment):
            if not code.startswith("LB") or any(rule.startswith(code) for rule in RULES):
                continue
            location = program.problem_location(ParseProblem(line, column + 1, ""))
            first, last = min(RULES), max(RULES)
            yield Diagnostic.of(
                "LB118",
                location,
                f"`{comment.strip()}` names {code}, which is no rule of the doctor: it silences nothing",
                evidence=f"the doctor's rules are {first} to {last} (`levelbench doctor --list-rules`)",
                fix="name the rule the finding on this line has (or a prefix of it, like LB10), or drop the code",
                source_line=program.line_text(line),
            )


def _comments(text: str) -> Iterator[tuple[int, int, str]]:
    """(line, column, text) of each comment; a line by line search where the text does not tokenize
    (IPython syntax, a cell cut short)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        tokens = None
    if tokens is not None:
        for token in tokens:
            yield token.start[0], token.start[1], token.string
        return
    for number, line in enumerate(text.split("\n"), start=1):
        if "#" in line:
            match = _COMMENT.search(line)
            if match:
                yield number, match.start(), match.group()
