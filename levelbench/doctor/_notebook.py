"""Jupyter notebooks read as plain JSON (no nbformat needed): the code cells, numbered as a user sees them."""

from __future__ import annotations

import dataclasses
import json
from typing import Any


BOM = "\ufeff"
"""A UTF-8 byte order mark: a notebook's text keeps it (so that ``--fix`` writes the file back with it), the JSON
in it starts after it."""


class NotebookError(ValueError):
    """The text is not a notebook the doctor can read; the message is one line for the user."""


def notebook_json(text: str) -> Any:
    """The JSON value of a notebook's text (a leading byte order mark is not part of it).

    Raises:
        json.JSONDecodeError, RecursionError: the text is not JSON.
    """
    return json.loads(text[len(BOM):] if text.startswith(BOM) else text)


@dataclasses.dataclass(frozen=True)
class CodeCell:
    number: int  # from 1, in notebook order, markdown cells included
    source: str


def code_cells(text: str) -> tuple[CodeCell, ...]:
    """The code cells of the notebook in ``text`` (nbformat 4 JSON).

    Raises:
        NotebookError: not JSON, not a notebook, an old nbformat, or not a Python notebook.
    """
    try:
        nb = notebook_json(text)
    except json.JSONDecodeError as e:
        raise NotebookError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise NotebookError("not valid JSON: nested too deeply") from None
    if not isinstance(nb, dict):
        raise NotebookError(f"not a Jupyter notebook: expected a JSON object, got a JSON {_json_type(nb)}")
    if "worksheets" in nb and "cells" not in nb:
        raise NotebookError(
            "nbformat 3 notebooks are not supported: convert with `jupyter nbconvert --to notebook --nbformat 4`"
        )
    cells = nb.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("not a Jupyter notebook: expected a top-level 'cells' list")
    language = _language(nb)
    if language and language != "python":
        raise NotebookError(f"not a Python notebook (kernel language: {language}): nothing to check")
    found: list[CodeCell] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {number} is a JSON {_json_type(cell)}, expected an object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(part, str) for part in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"cell {number}: 'source' must be a string or a list of strings")
        found.append(CodeCell(number=number, source=source))
    return tuple(found)


def looks_like_notebook(text: str) -> bool:
    """Whether text read from stdin is a notebook (JSON object) rather than Python."""
    return text.lstrip().startswith("{") and '"cells"' in text


def _language(nb: dict[str, object]) -> str:
    meta = nb.get("metadata")
    if not isinstance(meta, dict):
        return ""
    for key in ("kernelspec", "language_info"):
        section = meta.get(key)
        if isinstance(section, dict):
            name = section.get("language") if key == "kernelspec" else section.get("name")
            if isinstance(name, str) and name:
                return name.strip().lower()
    return ""


def _json_type(value: object) -> str:
    return {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}.get(
        type(value), "null" if value is None else type(value).__name__
    )
