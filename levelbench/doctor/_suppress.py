"""Inline suppression: ``# levelbench: ignore[LB101]`` (or ``ignore[LB101, LB102]``, or plain ``ignore``)."""

from __future__ import annotations

import re

_PRAGMA = re.compile(r"#\s*levelbench\s*:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)


def is_suppressed(code: str, line: str) -> bool:
    """Whether ``line`` carries a pragma that silences ``code`` (codes may be prefixes, like ``LB10``)."""
    for match in _PRAGMA.finditer(line):
        codes = match.group("codes")
        if codes is None:
            return True
        if any(code.startswith(c.strip().upper()) for c in re.split(r"[,\s]+", codes) if c.strip()):
            return True
    return False
