"""``%lbcompare jax=f(x) torch=g(xt)``: split ``name=expression`` pairs written side by side.

A new candidate starts at a ``name =`` outside any brackets (keyword arguments sit inside a call's
parentheses, ``==`` and ``:=`` are other tokens); the expressions themselves may contain spaces.
"""

from __future__ import annotations

import io
import tokenize

from ._statement import StatementError

_OPEN, _CLOSE = "([{", ")]}"


def split_candidates(text: str) -> list[tuple[str, str]]:
    """``"jax=f(x, y=1) torch = g(xt)"`` -> ``[("jax", "f(x, y=1)"), ("torch", "g(xt)")]``."""
    tokens = _tokens(text)
    offsets = _line_offsets(text)

    def at(pos: tuple[int, int]) -> int:
        return offsets[pos[0] - 1] + pos[1]

    starts: list[tuple[str, int, int]] = []  # (name, where the name starts, where its expression starts)
    depth = 0
    in_lambda_args = False  # `lambda x=1: ...` has a `name =` at depth 0 that starts nothing
    significant = [t for t in tokens if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT,
                                                       tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)]
    for i, tok in enumerate(significant):
        if tok.type == tokenize.OP and tok.string in _OPEN:
            depth += 1
        elif tok.type == tokenize.OP and tok.string in _CLOSE:
            depth -= 1
        elif depth == 0 and tok.type == tokenize.NAME and tok.string == "lambda":
            in_lambda_args = True
        elif depth == 0 and in_lambda_args and tok.type == tokenize.OP and tok.string == ":":
            in_lambda_args = False
        elif (depth == 0 and not in_lambda_args and tok.type == tokenize.NAME and i + 1 < len(significant)
              and significant[i + 1].type == tokenize.OP and significant[i + 1].string == "="):
            starts.append((tok.string, at(tok.start), at(significant[i + 1].end)))
    if not starts:
        raise StatementError(f"expected name=expression pairs, e.g. %lbcompare jax=f(x) torch=g(xt); got {text!r}")
    before = text[: starts[0][1]].strip()
    if before:
        raise StatementError(f"expected name=expression pairs, e.g. %lbcompare jax=f(x) torch=g(xt); "
                             f"{before!r} comes before the first name")
    pairs = []
    for (name, _, begin), nxt in zip(starts, [*starts[1:], None]):
        end = nxt[1] if nxt else len(text)
        expr = text[begin:end].strip().rstrip(",").strip()
        if not expr:
            raise StatementError(f"candidate {name!r} has no expression: write {name}=f(x)")
        pairs.append((name, expr))
    names = [n for n, _ in pairs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise StatementError(f"candidate names must differ, got {', '.join(duplicates)} more than once")
    return pairs


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError) as e:
        raise StatementError(f"cannot read the candidates {text!r}: {e}") from None


def _line_offsets(text: str) -> list[int]:
    offsets, total = [], 0
    for line in text.splitlines(keepends=True) or [""]:
        offsets.append(total)
        total += len(line)
    offsets.append(total)
    return offsets
