"""What benchmarks/rnn.py and benchmarks/rnn_phases.py print about first touch
(``_rnn_candidates.first_touch``, ``call_memory``), and rnn.py's ``--help``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _rnn_candidates as shared  # noqa: E402  (benchmarks/)


def test_rnn_report_help_gives_the_whole_description():
    done = subprocess.run([sys.executable, "benchmarks/rnn.py", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "against torch.nn and flax.linen.RNN, forward and forward+backward" in text, done.stdout
    assert "issue 28's targets." in text, done.stdout


def test_first_touch_measures_both_rates_and_restores_numpys_hugepage_advice():
    core = getattr(np, "_core", None) or np.core
    before = core.multiarray._set_madvise_hugepage(False)
    try:
        touch = shared.first_touch(megabytes=8, repeats=3)
        assert core.multiarray._set_madvise_hugepage(False) is False, "the probe left the hugepage advice on"
    finally:
        core.multiarray._set_madvise_hugepage(before)
    assert touch.fresh > 0 and touch.touched > 0 and touch.megabytes == 8
    assert touch.floor(2 * touch.fresh) == pytest.approx(2.0)
    assert "GB/s into fresh pages" in touch.describe()


def test_first_touch_floor_prices_bytes_at_the_fresh_rate():
    touch = shared.FirstTouch(fresh=1.0e9, touched=12.0e9, megabytes=64)
    assert touch.floor(307e6) == pytest.approx(0.307)
    assert "1.00 GB/s into fresh pages (4.1 us per 4 KB), 12.0 GB/s into touched ones" in touch.describe()


@pytest.mark.slow
def test_call_memory_counts_what_a_training_call_keeps():
    pytest.importorskip("torch")
    pytest.importorskip("jax")
    seq, batch, h = 10, 2, shared.HIDDEN
    forward = shared.call_memory("lstm", seq, batch, "forward")
    train = shared.call_memory("lstm", seq, batch, "train")
    # the forward's output at least; training keeps h, c and the 4 gates of both layers
    assert forward >= seq * batch * h * 4
    assert train >= shared.LAYERS * 6 * seq * batch * h * 4 > forward
