"""Suppression comments, in levelbench's own spelling and in the ``noqa`` one every Python linter reads.

On the line a finding points at:

    t0 = time.time()  # levelbench: ignore[LB105]      (or ignore[LB105, LB104], or plain ignore)
    t0 = time.time()  # noqa: LB105                    (bare ``# noqa`` silences every code there)

For the whole file (a notebook: any code cell), on a line of its own:

    # levelbench: ignore-file[LB104, LB105]            (or plain ignore-file: nothing is reported)

Codes may be prefixes (``LB10``). A ``# noqa`` that lists only other tools' codes (``# noqa: E501``)
leaves levelbench's findings alone, as ruff and flake8 do with codes they do not own.
"""

from __future__ import annotations

import re

_PRAGMA = re.compile(r"#\s*levelbench\s*:\s*ignore(?![-\w])(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa(?![-\w])(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE_PRAGMA = re.compile(
    r"^[ \t]*#\s*levelbench\s*:\s*ignore-file(?![-\w])(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE | re.MULTILINE
)


_ANY_PRAGMA = re.compile(r"#\s*(?:levelbench|noqa)", re.IGNORECASE)


def mentions_suppression(text: str) -> bool:
    """Whether ``text`` has anything a suppression comment starts with (``# noqa``, ``# levelbench:``): every
    pattern above needs one, so a file without it names no code and need not be tokenized for its comments."""
    return _ANY_PRAGMA.search(text) is not None


def is_file_pragma(comment: str) -> bool:
    """Whether ``comment``, on a line of its own, would silence the whole file (``# levelbench: ignore-file``)."""
    return _FILE_PRAGMA.match(comment) is not None


def is_suppressed(code: str, line: str) -> bool:
    """Whether ``line`` carries a comment that silences ``code`` (codes may be prefixes, like ``LB10``)."""
    for pattern in (_PRAGMA, _NOQA):
        for match in pattern.finditer(line):
            if _covers(match.group("codes"), code):
                return True
    return False


class FileSuppression:
    """The ``# levelbench: ignore-file[...]`` comments of one file or notebook."""

    def __init__(self, text: str) -> None:
        self.everything = False
        self.codes: list[str] = []
        for match in _FILE_PRAGMA.finditer(text):
            codes = match.group("codes")
            if codes is None:
                self.everything = True
            else:
                self.codes += _split(codes)

    def covers(self, code: str) -> bool:
        return self.everything or any(code.startswith(c) for c in self.codes)


def suppression_codes(comment: str) -> list[str]:
    """The codes a comment's ``noqa`` / ``levelbench: ignore[...]`` / ``ignore-file[...]`` names, upper case."""
    found: list[str] = []
    for pattern in (_PRAGMA, _NOQA, _FILE_PRAGMA):
        for match in pattern.finditer(comment.strip()):
            if match.group("codes"):
                found += _split(match.group("codes"))
    return found


def _covers(codes: str | None, code: str) -> bool:
    return codes is None or any(code.startswith(c) for c in _split(codes))


def _split(codes: str) -> list[str]:
    return [c.strip().upper() for c in re.split(r"[,\s]+", codes) if c.strip()]
