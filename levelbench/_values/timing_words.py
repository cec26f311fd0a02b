"""The words with which a script says what a timing measures, shared by the static doctor and ``doctor --run``."""

from __future__ import annotations

import re

COMPILATION_WORDS = re.compile(r"(?<![a-z])(compil(e|ation|ing)|jit[\s_-]*time|first[\s_-]*(call|run)|"
                               r"trac(e|ing)[\s_-]*time)(?![a-z])", re.I)
"""A script's own words for an interval that times compilation on purpose, in a comment, a name or a label:
``compile``, ``compilation``, ``compile_time``, ``jit time``, ``first call``/``first_run``; not ``compiled``, which
names what a warm call runs (``# compiled JAX version``)."""
