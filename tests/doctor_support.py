"""What the static doctor finds on a snippet of code or on notebook cells, for the doctor's tests."""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source


def codes(source: str, path: str = "bench.py") -> set[tuple[str, int]]:
    """(code, line) of each finding on ``source`` (dedented) read as the file ``path``."""
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


def notebook_codes(*cells: str) -> set[tuple[str, int | None, int]]:
    """(code, cell, line) of each finding on a notebook of these code cells."""
    text = json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": "code", "metadata": {}, "source": textwrap.dedent(c).strip("\n"), "outputs": []}
                  for c in cells],
    })
    return {(d.code, d.location.cell, d.location.line) for d in lint_source(text, "bench.ipynb", notebook=True)}


def lines(found: set[tuple[str, int]], code: str) -> set[int]:
    """The lines at which ``found`` holds ``code``."""
    return {line for c, line in found if c == code}
