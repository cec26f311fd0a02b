"""The leading options of a levelbench magic: ``%lbtimeit -n 10 -r 7 -o --budget 2 f(x)``.

IPython's ``parse_options`` rebuilds the statement by deleting option text from the line, which
mangles ``--budget=1 f(1)``; options are read here token by token instead, and reading stops at
the first token that is not an option (or at ``--``), so the statement is kept verbatim.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

# Interactive default: several %lbtimeit cells in a notebook should not take 5 s each.
DEFAULT_BUDGET = 2.0
DEFAULT_COMPARE_BUDGET = 5.0


class OptionError(ValueError):
    """A malformed magic option; the magics turn it into an IPython ``UsageError``."""


@dataclasses.dataclass(frozen=True)
class Option:
    """One accepted option: ``-n`` (``short``) and/or ``--budget`` (``long``)."""

    dest: str
    short: str = ""
    long: str = ""
    convert: Callable[[str], Any] | None = None  # None: a flag

    @property
    def spelling(self) -> str:
        names = [f"-{self.short}" if self.short else "", f"--{self.long}" if self.long else ""]
        value = f" {self.dest.upper()}" if self.convert else ""
        return "/".join(n for n in names if n) + value


def positive_int(what: str) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise OptionError(f"{what} must be an integer >= 1, got {text!r}")
        return value

    return convert


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (value >= 0 and math.isfinite(value)):
        raise OptionError(f"--budget must be seconds >= 0, e.g. --budget 2, got {text!r}")
    return value


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise OptionError(f"--ci must be a fraction in (0, 1), e.g. --ci 0.02 for +-2%, got {text!r}")
    return value


def name(text: str) -> str:
    if not text.isidentifier():
        raise OptionError(f"--baseline must be a candidate name, got {text!r}")
    return text


NUMBER = Option("number", short="n", convert=positive_int("-n (calls per sample)"))
REPEAT = Option("repeat", short="r", convert=positive_int("-r (samples)"))
VERBOSE = Option("verbose", short="v")
QUIET = Option("quiet", short="q")
OUTPUT = Option("output", short="o")
BUDGET = Option("budget", long="budget", convert=seconds)
CI = Option("rel_ci", long="ci", convert=fraction)
BASELINE = Option("baseline", long="baseline", convert=name)
NO_STRICT = Option("no_strict", long="no-strict")
ISOLATE = Option("isolate", long="isolate")

_TOKEN = re.compile(r"\S+")


def split_options(line: str, accepted: tuple[Option, ...], magic: str) -> tuple[dict[str, Any], str]:
    """Read leading options off ``line``; return them (by ``dest``) and the rest, verbatim.

    Example:
        >>> opts, rest = split_options("-n10 -o --budget=1 f(1)", (NUMBER, OUTPUT, BUDGET), "%lbtimeit")
        >>> opts, rest
        ({'number': 10, 'output': True, 'budget': 1.0}, 'f(1)')
    """
    shorts = {o.short: o for o in accepted if o.short}
    longs = {o.long: o for o in accepted if o.long}
    found: dict[str, Any] = {}
    rest = line.lstrip()

    def fail(message: str) -> OptionError:
        allowed = " ".join(o.spelling for o in accepted)
        return OptionError(f"{magic}: {message} (accepted options: {allowed}; put -- before a statement that "
                           "starts with '-')")

    def next_token(text: str, option: str) -> tuple[str, str]:
        m = _TOKEN.match(text)
        if m is None:
            raise fail(f"option {option} needs a value")
        return m.group(), text[m.end():].lstrip()

    while rest.startswith("-"):
        token, rest = next_token(rest, "")
        if token == "--":
            break
        if token.startswith("--"):
            key, eq, value = token[2:].partition("=")
            option = longs.get(key)
            if option is None:
                raise fail(f"unknown option --{key}")
            if option.convert is None:
                if eq:
                    raise fail(f"--{key} takes no value, got {token!r}")
                found[option.dest] = True
                continue
            if not eq:
                value, rest = next_token(rest, f"--{key}")
            found[option.dest] = _convert(option, value, fail)
            continue
        letters = token[1:]
        if not letters:
            raise fail("a lone '-' is not an option")
        for i, letter in enumerate(letters):
            option = shorts.get(letter)
            if option is None:
                raise fail(f"unknown option -{letter}")
            if option.convert is None:
                found[option.dest] = True
                continue
            value = letters[i + 1:]
            if not value:
                value, rest = next_token(rest, f"-{letter}")
            found[option.dest] = _convert(option, value, fail)
            break
    return found, rest


def _convert(option: Option, value: str, fail: Callable[[str], OptionError]) -> Any:
    assert option.convert is not None
    try:
        return option.convert(value)
    except OptionError as e:
        raise fail(str(e)) from None
