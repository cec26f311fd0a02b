"""Where a notebook cell's line and column are in the ``.ipynb`` file's own text.

Findings in a notebook are numbered by cell (``cell 5, line 2``), as Jupyter shows them. Tools that
know nothing of cells (SARIF viewers, GitHub annotations, editors opening the JSON) need the place
in the file: the line and column, in the JSON text, of the character inside the cell's ``source``
string(s). Escapes (``\\n``, ``\\"``, ``\\u00e9``) are counted as the file spells them.

!!! Example
    >>> text = '{"cells": [{"cell_type": "code", "source": ["x = 1\\\\n", "y = 2"]}]}'
    >>> CellPositions(text).in_file(1, 2, 1)
    (1, 57)
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import re
from collections.abc import Callable

from ._diagnostic import Diagnostic, Location
from ._notebook import BOM

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|["\\/bfnrt])')


class CellPositions:
    """Maps (cell number, line, column) in a cell's source to (line, column) in the notebook file."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._bom = len(BOM) if text.startswith(BOM) else 0  # not a column an editor shows
        self._line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        self._cells: dict[int, tuple[list[int], list[int]]] = {}
        try:
            self._scan()
        except (ValueError, IndexError, RecursionError):  # not JSON the doctor can map: cells stay unmapped
            self._cells = {}

    def in_file(self, cell: int, line: int, column: int) -> tuple[int, int] | None:
        """The 1-based (line, column) in the file of ``column`` on ``line`` of cell ``cell`` (all from 1),
        or None when the cell's source cannot be found in the text."""
        found = self._cells.get(cell)
        if found is None:
            return None
        offsets, line_starts = found
        if line - 1 >= len(line_starts):
            index = len(offsets) - 1
        else:
            start = line_starts[line - 1]
            end = line_starts[line] - 1 if line < len(line_starts) else len(offsets) - 1
            index = min(start + max(column - 1, 0), end)
        raw = offsets[index]
        file_line = bisect.bisect_right(self._line_starts, raw)
        return file_line, raw - self._line_starts[file_line - 1] + 1 - (self._bom if file_line == 1 else 0)

    # --- a small JSON reader that keeps positions ------------------------------------------------
    def _scan(self) -> None:
        self._object(self._skip(self._bom), lambda key, i: self._cell_list(i) if key == "cells" else self._value_end(i))

    def _object(self, i: int, member: Callable[[str, int], int]) -> int:
        """Read the object at ``i``, calling ``member(key, index of the value)`` (which returns the index
        after the value) for each member; the index after the object."""
        text = self.text
        if text[i] != "{":
            return self._value_end(i)
        i = self._skip(i + 1)
        while text[i] != "}":
            key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
            i = self._skip(i)
            if text[i] != ":":
                raise ValueError("expected ':'")
            i = self._skip(member(key, self._skip(i + 1)))
            if text[i] == ",":
                i = self._skip(i + 1)
        return i + 1

    def _cell_list(self, i: int) -> int:
        text = self.text
        if text[i] != "[":
            return self._value_end(i)
        i = self._skip(i + 1)
        number = 0
        while text[i] != "]":
            number += 1
            cell = number
            i = self._skip(self._object(i, lambda key, j: self._source(j, cell) if key == "source" else self._value_end(j)))
            if text[i] == ",":
                i = self._skip(i + 1)
        return i + 1

    def _source(self, i: int, number: int) -> int:
        text = self.text
        offsets: list[int] = []
        chars: list[str] = []
        if text[i] == '"':
            i = self._string(i, offsets, chars)
        elif text[i] == "[":
            i = self._skip(i + 1)
            while text[i] != "]":
                i = self._skip(self._string(i, offsets, chars))
                if text[i] == ",":
                    i = self._skip(i + 1)
            i += 1
        else:
            return self._value_end(i)
        source = "".join(chars)
        starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", source)]
        offsets.append(offsets[-1] + 1 if offsets else i)  # one past the last character
        self._cells[number] = (offsets, starts)
        return i

    def _string(self, i: int, offsets: list[int], chars: list[str]) -> int:
        """Record the file offset of each character of the JSON string at ``i``; the index after it."""
        text = self.text
        if text[i] != '"':
            raise ValueError("expected a string")
        _, end = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
        k = i + 1
        while k < end - 1:
            if text[k] != "\\":
                offsets.append(k)
                chars.append(text[k])
                k += 1
                continue
            match = _ESCAPE.match(text, k)
            if match is None:
                raise ValueError("bad escape")
            escape = match.group(0)
            after = match.end()
            low = _ESCAPE.match(text, after)
            if escape[1] == "u" and 0xD800 <= int(escape[2:], 16) < 0xDC00 and low and low.group(0)[1] == "u":
                escape, after = escape + low.group(0), low.end()  # a surrogate pair is one character
            offsets.append(k)
            chars.append(json.loads(f'"{escape}"'))
            k = after
        return end

    def _value_end(self, i: int) -> int:
        return json.JSONDecoder().raw_decode(self.text, i)[1]

    def _skip(self, i: int) -> int:
        return _WHITESPACE.match(self.text, i).end()  # type: ignore[union-attr]


def with_file_positions(diagnostics: tuple[Diagnostic, ...], text: str) -> tuple[Diagnostic, ...]:
    """``diagnostics`` of the notebook ``text``, each with its `Diagnostic.in_file` place filled in."""
    positions = CellPositions(text)
    placed = []
    for d in diagnostics:
        where = d.location
        start = positions.in_file(where.cell, where.line, where.column) if where.in_notebook else None
        end = positions.in_file(where.cell, where.end_line, where.end_column) if start else None
        if start is None or end is None:
            placed.append(d)
            continue
        in_file = Location(where.path, 0, start[0], start[1], end[0], end[1])
        placed.append(dataclasses.replace(d, in_file=in_file))
    return tuple(placed)
