"""What ``--fix`` proves of a fixed text before keeping it: the program still parses (as Python, and as the
doctor reads it), and every comment it had is still there.

Each fix is checked where it is made (the text at its span parses to the node the check saw, and each rewrite
takes only the statement forms it was written for: see the fixes in the rules' modules, `levelbench.doctor.rules`,
and `_fixes`). This is the check of the result, whole: a fix whose result would stop parsing, or would lose a
comment (``# noqa`` included), is not applied; its finding stays, and the summary counts it as one that needs a
manual rewrite.

!!! Example
    >>> baseline = Baseline("t0 = time.time()  # start\\n", notebook=False, path="b.py")
    >>> baseline.refusal("t0 = time.perf_counter()  # start\\n")
    ''
    >>> baseline.refusal("\\n")
    'the result would lose the comment `# start`'
"""

from __future__ import annotations

import ast
import collections
import functools
import io
import re
import tokenize

from ._notebook import NotebookError, code_cells
from ._program import Program, uncommented_magics

NOT_PARSING = "the result would not parse"

# A fallback lexer for text that `tokenize` refuses (shell text in a `%%bash` cell, an unclosed bracket):
# strings first, so that a `#` inside one is not taken for a comment.
_STRING_OR_COMMENT = re.compile(
    r"""(?P<string>[rRbBuUfF]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\r\n])*'"""
    r"""|"(?:\\.|[^"\\\r\n])*"))|(?P<comment>\#[^\r\n]*)""",
    re.DOTALL,
)


class Baseline:
    """The text a pass of fixes starts from: what its result must keep."""

    def __init__(self, text: str, notebook: bool, path: str) -> None:
        self.notebook = notebook
        self.path = path
        self.parse = parse_state(text, notebook, path)
        self.comments = comments(text, notebook)

    def refusal(self, candidate: str) -> str:
        """Why ``candidate`` (this text with fixes applied) is refused, in a few words; empty when it is kept."""
        if not parse_state(candidate, self.notebook, self.path) <= self.parse:
            return NOT_PARSING
        lost = self.comments - comments(candidate, self.notebook)
        if lost:
            comment = min(lost)[1]
            shown = comment if len(comment) <= 60 else comment[:57] + "..."
            return f"the result would lose the comment `{shown}`"
        return ""


# The result a pass keeps is the text the next pass starts from: its proof is remembered, not redone (a few
# texts: a long file is parsed and tokenized in a good part of a second).
@functools.lru_cache(maxsize=2)
def parse_state(text: str, notebook: bool, path: str) -> tuple[int, int]:
    """(parses as plain Python? 0 yes 1 no, parse problems the doctor sees): no fix may make either worse."""
    plain = 0
    if not notebook and not path.endswith(".ipy"):
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            plain = 1
    try:
        program = Program.from_notebook(path, code_cells(text)) if notebook else Program.from_python(path, text)
    except (NotebookError, ValueError, RecursionError):
        return (plain, 10**6)
    return (plain, len(program.problems))


@functools.lru_cache(maxsize=2)
def comments(text: str, notebook: bool) -> collections.Counter[tuple[int, str]]:
    """Each comment of the text, as (cell, the comment without its trailing spaces), counted (cell 0: a script)."""
    if not notebook:
        return collections.Counter((0, c) for c in _comments(uncommented_magics(text)))
    try:
        cells = code_cells(text)
    except NotebookError:
        return collections.Counter()
    return collections.Counter((cell.number, c) for cell in cells for c in _comments(cell.source))


def _comments(source: str) -> list[str]:
    try:
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        return [t.string.rstrip() for t in tokens if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):  # IndentationError is a SyntaxError
        return [m["comment"].rstrip() for m in _STRING_OR_COMMENT.finditer(source) if m["comment"]]
