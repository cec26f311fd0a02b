"""IPython input (``%time``, ``%%timeit``, ``!ls``, ``x?``) turned into Python the doctor can parse.

IPython's own input transformer does the work when IPython is installed; without it a small
converter of our own handles the common forms. Both produce the calls IPython executes, e.g.
``%timeit f(x)`` -> ``get_ipython().run_line_magic('timeit', 'f(x)')``, which `_program` then
recognises. ``line_map`` says which original line each transformed line came from, so positions
are reported in the cell as the user wrote it.
"""

from __future__ import annotations

import array
import bisect
import dataclasses
import difflib
import functools
import re
from collections.abc import Callable

# `%timeit` options that take a value (IPython's getopt spec is "n:r:tcp:qo").
_VALUED_OPTIONS = frozenset("nrp")


@functools.cache
def _ipython_transform() -> Callable[[str], str] | None:
    try:
        # Lazy: IPython is optional and takes ~0.2 s to import; only notebooks need it.
        from IPython.core.inputtransformer2 import TransformerManager
    except Exception:  # ImportError, or a broken IPython install: fall back to our converter
        return None
    return TransformerManager().transform_cell


def to_python(cell: str, *, use_ipython: bool = True) -> str:
    """The Python that IPython would run for ``cell``."""
    transform = _ipython_transform() if use_ipython else None
    if transform is not None:
        try:
            return transform(cell)
        except Exception:  # IPython rejects some malformed input; our converter still gives positions
            pass
    return fallback_to_python(cell)


# IPython's transformer re-tokenizes the whole cell for each magic it rewrites: a cell of many magics costs
# time in the square of its length. A long cell is transformed in parts of about this many lines instead.
_PART_LINES = 40
_START_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_%@")  # what a part's first line starts with
_NOT_TOP = frozenset(("", " ", "\t", "#"))  # what a line inside a block, a blank line or a comment starts with
_CONTINUATIONS = re.compile(r"(else|elif|except|finally|case)\b")


def to_python_mapped(cell: str, *, use_ipython: bool = True, whole: bool = False) -> tuple[str, list[int], bool]:
    """`to_python` of ``cell``; for each line of the result, the line of ``cell`` it came from (`line_map`);
    and whether the cell was transformed in parts.

    A long cell (not a cell magic) is transformed in parts that start at a top-level statement, each on its
    own: linear time. Where the result does not parse, the caller asks again with ``whole``: the cell in one
    piece, as IPython reads it.
    """
    original = cell.split("\n")
    if whole or len(original) <= _PART_LINES or original[0].startswith("%%"):
        python = to_python(cell, use_ipython=use_ipython)
        return python, line_map(original, python.split("\n")), False
    python_lines: list[str] = []
    mapping: list[int] = []
    for first, last in StatementStarts(original).parts(_PART_LINES):
        part = original[first:last]
        transformed = to_python("\n".join(part), use_ipython=use_ipython).split("\n")
        if len(transformed) > 1 and transformed[-1] == "" and (len(part) == 1 or part[-1] != ""):
            transformed.pop()  # IPython ends a part with a newline, which the next part's first line stands for
        mapping.extend(first + m for m in line_map(part, transformed))
        python_lines.extend(transformed)
    return "\n".join(python_lines), mapping, True


_DEFINITION = re.compile(r"(def|class|async\s+def)\s|@")


class StatementStarts:
    """The lines of a script that look like the start of a top-level statement outside any string, bracket or
    decorated definition, found in one pass; parts of any length are then cut from them without reading the
    lines again (a wrong guess only costs the caller a retry in one piece)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.starts = array.array("l")  # machine integers: a 10 MB script has ~200,000 starts
        string = ""  # the triple quote of the string the line starts inside, "" outside any
        depth = 0  # open brackets (never below 0: a stray closing one, in a string say, does not hide the next)
        top = ""  # the last line seen that starts at column 0
        previous = ""
        starts = self.starts
        continuation = _CONTINUATIONS.match
        for number, line in enumerate(lines):
            first = line[:1]
            if not string and depth == 0 and first not in _NOT_TOP:
                if first in _START_CHARS and not continuation(line) and not line.startswith("%%") \
                        and not top.startswith("@") and not previous.rstrip().endswith("\\"):
                    starts.append(number)
                top = line
            if string or "'''" in line or '"""' in line:
                string = _string_after(line, string)
            if not string:
                code = line.split("#", 1)[0] if "#" in line else line
                depth += code.count("(") + code.count("[") + code.count("{") \
                    - code.count(")") - code.count("]") - code.count("}")
                if depth < 0:
                    depth = 0
            previous = line

    def parts(
        self, size: int, *, definitions: bool = False, first_only: bool = False, start: int = 0
    ) -> list[tuple[int, int]]:
        """``[first, last)`` line ranges of the lines from ``start`` on (positions are the whole script's), of at
        least ``size`` lines (the last may be shorter), each starting at a statement start. With ``definitions``,
        a part starts at a ``def``, ``class`` or decorator where one comes within ``size`` more lines, so that a
        clock pair stays whole. With ``first_only``, only the first range."""
        parts: list[tuple[int, int]] = []
        first = start
        lines, definition = self.lines, _DEFINITION.match
        for number in self.starts[bisect.bisect_right(self.starts, start):]:
            length = number - first
            if length >= size and (not definitions or length >= 2 * size or definition(lines[number])):
                parts.append((first, number))
                if first_only:
                    return parts
                first = number
        parts.append((first, len(self.lines)))
        return parts


def _string_after(line: str, string: str) -> str:
    """The triple quote of the string open at the end of ``line``, which starts inside ``string`` ("" outside):
    inside a string only its own quote closes it (a docstring may hold the other kind); outside, a ``#``
    starts a comment."""
    i = 0
    while True:
        if string:
            end = line.find(string, i)
            if end < 0:
                return string
            i, string = end + 3, ""
            continue
        double, single, comment = line.find('"""', i), line.find("'''", i), line.find("#", i)
        starts = [k for k in (double, single) if k >= 0]
        if not starts or (0 <= comment < min(starts)):
            return ""
        i = min(starts)
        string, i = line[i : i + 3], i + 3


_LINE_MAGIC = re.compile(r"^(?P<indent>\s*)%(?P<name>\w+)(?P<sep>\s?)(?P<arg>.*)$")
_ASSIGN_MAGIC = re.compile(r"^(?P<indent>\s*)(?P<target>[\w.,\s\[\]()]+?)\s*=\s*%(?P<name>\w+)\s?(?P<arg>.*)$")
_SHELL = re.compile(r"^(?P<indent>\s*)!(?P<cmd>.*)$")
_ASSIGN_SHELL = re.compile(r"^(?P<indent>\s*)(?P<target>[\w.]+)\s*=\s*!(?P<cmd>.*)$")
_HELP = re.compile(r"^(?P<indent>\s*)(?P<obj>[\w.]+)\?{1,2}\s*$")


def fallback_to_python(cell: str) -> str:
    """Our own conversion of IPython syntax, for when IPython is not installed.

    Handles cell magics (``%%name`` on the first line), line magics (also after ``x =``), shell
    escapes (``!cmd``, ``x = !cmd``), help (``obj?``) and backslash continuations of magic lines.
    """
    lines = cell.split("\n")
    if lines and lines[0].startswith("%%"):
        head, _, line_arg = lines[0][2:].partition(" ")
        body = "\n".join(lines[1:])
        if body and not body.endswith("\n"):
            body += "\n"
        return f"get_ipython().run_cell_magic({head.strip()!r}, {line_arg.strip()!r}, {body!r})\n"
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        while _is_magic_or_shell(line) and line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].strip()
        out.append(_convert_line(line))
        i += 1
    return "\n".join(out)


def _is_magic_or_shell(line: str) -> bool:
    return bool(_LINE_MAGIC.match(line) or _SHELL.match(line) or _ASSIGN_MAGIC.match(line))


def _convert_line(line: str) -> str:
    if m := _LINE_MAGIC.match(line):
        return f"{m['indent']}get_ipython().run_line_magic({m['name']!r}, {m['arg'].strip()!r})"
    if m := _ASSIGN_MAGIC.match(line):
        return f"{m['indent']}{m['target']} = get_ipython().run_line_magic({m['name']!r}, {m['arg'].strip()!r})"
    if m := _ASSIGN_SHELL.match(line):
        return f"{m['indent']}{m['target']} = get_ipython().getoutput({m['cmd']!r})"
    if m := _SHELL.match(line):
        return f"{m['indent']}get_ipython().system({m['cmd']!r})"
    if m := _HELP.match(line):
        return f"{m['indent']}get_ipython().run_line_magic('pinfo', {m['obj']!r})"
    return line


def line_map(original: list[str], transformed: list[str]) -> list[int]:
    """For each transformed line (0-based), the original line (0-based) it came from.

    Unchanged lines map one to one; a block IPython rewrote (a magic, a joined continuation, a
    collapsed cell magic) maps onto the original block's lines in order, the surplus onto its last.
    IPython drops the blank lines a cell starts with (a ``%%time`` cell whose code begins after an empty line, case
    360): the lines after them are mapped, then moved down past them.
    """
    lead = 0
    while lead < len(original) - 1 and not original[lead].strip():
        lead += 1
    if lead and transformed and transformed[0].strip():
        return [lead + m for m in line_map(original[lead:], transformed)]
    if len(original) == len(transformed):  # IPython rewrote lines in place (it does unless it joins or collapses)
        return list(range(len(transformed)))
    mapping: list[int] = [0] * len(transformed)
    # IPython also empties whitespace-only lines: compare without trailing whitespace.
    matcher = difflib.SequenceMatcher(
        None, [line.rstrip() for line in original], [line.rstrip() for line in transformed], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                mapping[j] = i1 + (j - j1)
            elif i2 > i1:
                mapping[j] = min(i1 + (j - j1), i2 - 1)
            else:  # inserted lines: attach to the line before
                mapping[j] = max(i1 - 1, 0)
    return mapping


@dataclasses.dataclass(frozen=True)
class TimingOptions:
    """What ``%timeit`` / ``%%timeit`` options say about the measurement."""

    number_given: bool  # -n N: no calibration runs, so the first run's compile lands in the result
    statement: str  # what remains after the options
    offset: int  # where ``statement`` starts in the argument string
    once: bool = False  # -n1 -r1: one run, one sample
    output: bool = False  # -o: the magic returns its `TimeitResult`, whose `.best` a caller may keep
    repeats: int | None = None  # -r R, when given


def split_timeit_options(arg: str) -> TimingOptions:
    """Separate ``%timeit`` options (``-n 10 -r 3 -o -q``) from the timed statement."""
    pos = 0
    number_given = output = False
    values: dict[str, str] = {}
    tokens = re.compile(r"\s*(\S+)")
    while True:
        m = tokens.match(arg, pos)
        if m is None or not re.fullmatch(r"-[a-z]+\d*", m.group(1)):
            break
        flags = m.group(1)[1:]
        pos = m.end()
        letters = flags.rstrip("0123456789")
        if "n" in letters:
            number_given = True
        if "o" in letters:
            output = True
        if letters and letters[-1] in _VALUED_OPTIONS:
            if letters == flags:  # value is the next token
                value = tokens.match(arg, pos)
                if value is not None:
                    pos = value.end()
                    values[letters[-1]] = value.group(1)
            else:
                values[letters[-1]] = flags[len(letters):]
    while pos < len(arg) and arg[pos].isspace():
        pos += 1
    once = values.get("n") == "1" and values.get("r") == "1"
    repeats = int(values["r"]) if values.get("r", "").isdigit() else None
    return TimingOptions(
        number_given=number_given, statement=arg[pos:], offset=pos, once=once, output=output, repeats=repeats
    )
