"""``%lbdoctor``: the static doctor on the cells this session has run, as a notebook.

Each executed input (``In[n]``, as typed, magics included) becomes cell ``n`` of a notebook, so a
finding at ``<session>:cell_3:2:5`` is in ``In[3]``, line 2.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any
from .._rendering.doctor_text import _excerpt, _headline, _summary
from ..doctor import DoctorReport, lint_source
from ._display import plain_text

SESSION = "<session>"


@dataclasses.dataclass(frozen=True)
class SessionDiagnosis:
    """The doctor's diagnostics (``levelbench.doctor.Diagnostic``) for the cells run so far.

    ``problem`` is set, and ``findings`` empty, when the doctor could not be used.
    """

    findings: tuple[Any, ...]
    cells: int
    problem: str = ""

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.text import Text

        if self.problem:
            return Text(self.problem, style="yellow")
        # The doctor's own pieces, so a finding reads the same here as from `levelbench doctor`. Its
        # render_text() prints to a stream, which inside Jupyter rich bypasses: build a renderable instead.

        parts: list[Any] = [Text(f"levelbench doctor on the {self.cells} cell(s) run in this session "
                                 f"({SESSION}:cell_N is In[N])", style="dim")]
        for d in self.findings:
            parts.append(_headline(d))
            parts.extend(_excerpt(d))
            if d.finding.fix:
                parts.append(Text("      = fix:", style="bold"))
                parts.extend(Text(f"          {line}", style="green") for line in d.finding.fix.splitlines())
        parts.append(_summary(DoctorReport(self.findings, (SESSION,))))
        return Group(*parts)

    def __str__(self) -> str:
        return plain_text(self)


def session_notebook(inputs: list[str]) -> str:
    """Notebook JSON whose cell ``n`` is ``inputs[n - 1]``."""
    cells = [{"cell_type": "code", "source": source, "metadata": {}, "outputs": [], "execution_count": None}
             for source in inputs]
    return json.dumps({"cells": cells, "metadata": {"language_info": {"name": "python"}},
                       "nbformat": 4, "nbformat_minor": 5})


def lint_session(shell: Any) -> SessionDiagnosis:
    inputs = list(shell.history_manager.input_hist_raw[1:])  # entry 0 is a placeholder: In[] counts from 1

    return SessionDiagnosis(lint_source(session_notebook(inputs), SESSION, notebook=True), len(inputs))
