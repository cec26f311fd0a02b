"""How numbers and places are written for people: times with three significant digits, short paths."""

from __future__ import annotations

import math
import os


def fmt_time(seconds: float | None) -> str:
    """Human time with 3 significant digits: 1.23 ms, 456 us, 12.3 s."""
    if seconds is None or math.isnan(seconds):
        return "-"
    s = abs(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            v = seconds / scale
            return f"{v:.3g} {unit}" if abs(v) < 1000 else f"{v:,.0f} {unit}"
    return f"{seconds} s"


def short_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it, else as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return rel if not rel.startswith("..") else path


def compile_split(trace: float, lower: float, compile: float) -> str:
    """``trace 1.2 ms + lower 3.4 ms + compile 56 ms = 60.6 ms``: the stages of one compilation."""
    total = trace + lower + compile
    return f"trace {fmt_time(trace)} + lower {fmt_time(lower)} + compile {fmt_time(compile)} = {fmt_time(total)}"


def fmt_bytes(n: float) -> str:
    """Bytes with a binary unit and 3 significant digits: ``fmt_bytes(3 * 2**30) == "3 GiB"``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} PiB"
