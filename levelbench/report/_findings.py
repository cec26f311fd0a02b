"""One finding as an HTML list item: its code in its severity's colour, title, evidence, cost and fix.

A fix of several lines keeps its lines (a ``<pre>`` block): it is code to paste."""

from __future__ import annotations

import html
from typing import Any


def finding_item(f: Any, lead: str = "") -> str:
    """``<li>`` for a finding (anything with code, severity, title, evidence, cost and fix), ``lead``
    (plain text, escaped here) between the code and the title."""
    e = html.escape
    detail = "".join(f'<br><span class="note">{label}: {e(text)}</span>' for label, text in
                     (("evidence", f.evidence), ("cost", f.cost)) if text)
    if not f.fix:
        fix = ""
    elif "\n" in f.fix.strip():
        fix = f'<br>fix:<pre class="fix">{e(f.fix.strip())}</pre>'
    else:
        fix = f"<br>fix: <code>{e(f.fix)}</code>"
    return f'<li><span class="{e(f.severity.name.lower())}">{e(f.code)}</span> {e(lead)}{e(f.title)}{detail}{fix}</li>'
