"""A notebook as ``doctor --run`` runs it: its cells, each with the line it starts at in the script's text.

A ``.ipynb`` is read as the ``.py`` that ``jupyter nbconvert --to script`` would make of its code cells, each
after a ``# %%`` line: the lines of a report are those of that text. A ``.py`` runs as a notebook when it
holds IPython syntax (a line starting with ``%`` or ``!``: ``%timeit``, ``%%time``, ``!pip``), its cells
split at the ``# %%`` lines; any other ``.py`` runs as a plain script.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

IPYTHON_LINE = re.compile(r"^[ \t]*[%!]", re.MULTILINE)
CELL_MARK = re.compile(r"^# %%.*$")

__all__ = ["cells", "is_notebook", "python_only", "script_text"]


def script_text(path: Path) -> str:
    """The text whose lines a report of ``path`` refers to: the file, or a notebook's cells after ``# %%`` lines."""
    if path.suffix == ".ipynb":
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise ValueError(f"doctor --run: expected a Jupyter notebook (JSON) in {str(path)!r}, got text that "
                             f"does not parse: {e}; open and save it in Jupyter, or export it to a .py") from None
        parts = []
        for cell in notebook.get("cells", ()):
            if cell.get("cell_type") == "code":
                source = cell.get("source", "")
                parts.append("# %%\n" + ("".join(source) if isinstance(source, list) else str(source)))
        return "\n".join(parts) + "\n"
    return path.read_text(encoding="utf-8", errors="replace")


def is_notebook(path: Path, text: str) -> bool:
    """Whether ``path`` runs as a notebook (in IPython) rather than as a plain script."""
    return path.suffix == ".ipynb" or bool(IPYTHON_LINE.search(text))


def cells(text: str) -> list[tuple[int, str]]:
    """``text`` split at its ``# %%`` lines: (the line of ``text`` the cell starts at, the cell), blank leading
    lines left out (IPython drops them, and a cell magic must be the cell's first line)."""
    found: list[tuple[int, str]] = []
    start, current = 1, []  # type: int, list[str]
    for number, line in enumerate([*text.splitlines(), "# %% end"], 1):
        if not CELL_MARK.match(line):
            current.append(line)
            continue
        while current and not current[0].strip():
            current.pop(0)
            start += 1
        if current:
            found.append((start, "\n".join(current) + "\n"))
        start, current = number + 1, []
    return found


def python_only(text: str) -> str:
    """``text`` with its IPython lines (``%time x``, ``!ls``) blanked, same line numbers: what `ast` can read."""
    return IPYTHON_LINE.sub(lambda m: m.group(0)[:-1] + "#", text)
