"""The native RNN library says what it runs: the ISA its vector code was compiled to and its tiles
(``levelbench.nn.build().kernel``, from ``_native/rnn_info.cc``), which ``benchmarks/rnn.py`` prints."""

from __future__ import annotations

import platform
import re
from pathlib import Path

import pytest

pytest.importorskip("jax")


def _cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def test_the_library_reports_the_isa_it_was_built_for_and_its_tiles():
    from levelbench.nn import build

    status = build()
    if not status.available:
        pytest.skip(f"no native kernel here: {status.detail}")
    kernel = dict(status.kernel)
    assert set(kernel) == {"isa", "lstm_forward", "gru_forward", "backward"}, kernel
    flags = _cpu_flags()
    if platform.machine() == "x86_64" and flags:  # the build is -march=native
        expected = "AVX-512" if "avx512f" in flags else "AVX2+FMA" if {"avx2", "fma"} <= flags else None
        if expected:
            assert kernel["isa"] == expected, kernel
    shape = re.compile(r"(\d+)x(\d+) \((\d+)x(\d+)\)")
    # With AVX-512 every tile is on 16-float vectors and covers whole 16-unit groups, so that the gate
    # math runs on them too: the GRU's 2 blocks of 8 units x 3 gates (48 columns), the LSTM's 2 x 4
    # (64); elsewhere the tiles are on 8-float ones, one block (24 and 32 columns).
    wide = kernel["isa"] == "AVX-512"
    for name, columns in (("lstm_forward", 64 if wide else 32), ("gru_forward", 48 if wide else 24),
                          ("backward", 48 if wide else 24)):
        rows, cols, vectors, lanes = map(int, shape.fullmatch(kernel[name]).groups())
        assert cols == columns == vectors * lanes and rows >= 1, (name, kernel[name])
        if wide:
            assert lanes == 16, (name, kernel[name])
