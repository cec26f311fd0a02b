"""Versioned JSON documents: every result format says what it is and which version wrote it."""

from __future__ import annotations

from typing import Any


def check_format(d: dict[str, Any], fmt: str, version: int, what: str) -> None:
    """Raise ValueError unless ``d`` is a ``fmt`` document this levelbench can read."""
    if d.get("format") != fmt:
        raise ValueError(f"expected a {fmt!r} document, got format {d.get('format')!r}")
    if d.get("version", 0) > version:
        raise ValueError(
            f"this {what} was written by a newer levelbench (format version {d['version']}, "
            f"this one reads up to {version}): upgrade levelbench"
        )
