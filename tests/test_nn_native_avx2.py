"""The native GRU and LSTM kernels built for AVX2 only, on a machine that has AVX-512.

The build takes ``-march=native``, so an AVX-512 machine never compiles the kernels' AVX2 paths
(the LSTM's 2-row forward tile, the register pins for 16 registers). A compiler wrapper in ``$CXX``
that appends ``-march=haswell -mno-avx512f`` forces them; the native tests then run on that build
in a subprocess, against torch and the XLA loops, and across thread counts.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[1]


def _has_avx512() -> bool:
    try:
        return " avx512f" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return True  # unknown: build the AVX2 paths anyway


@pytest.mark.slow
@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="AVX2 is an x86-64 ISA")
@pytest.mark.skipif(not _has_avx512(), reason="no AVX-512 here: the native build is the AVX2 one, and "
                    "tests/test_nn_{gru,lstm}_native.py already run it")
def test_the_avx2_build_passes_the_native_tests(tmp_path):
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no g++ or clang++ to build the kernels with")
    used = tmp_path / "wrapper-used"
    wrapper = tmp_path / "cxx-avx2"
    wrapper.write_text(f'#!/bin/sh\ntouch "{used}"\nexec "{compiler}" "$@" -march=haswell -mno-avx512f\n')
    wrapper.chmod(0o755)
    kernels = tmp_path / "kernels"
    env = dict(os.environ, CXX=str(wrapper), LEVELBENCH_KERNEL_DIR=str(kernels),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "tests/test_nn_gru_native.py", "tests/test_nn_lstm_native.py",
         "-k", "matches_torch or thread_count or alone or rejects_inconsistent"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert used.exists(), "the kernels were not built with the AVX2 wrapper (a cached build was loaded?)"
    assert list(kernels.glob("rnn_cpu-*.so")), f"no library was built in {kernels}"
    assert " passed" in done.stdout.splitlines()[-1], done.stdout[-500:]
    # and the library says so (what benchmarks/rnn.py prints): AVX2, the LSTM's 2-row tile
    asked = subprocess.run([sys.executable, "-c", "from levelbench.nn import build; print(dict(build().kernel))"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    kernel = asked.stdout.strip().splitlines()[-1] if asked.stdout.strip() else asked.stderr[-1000:]
    assert "'isa': 'AVX2+FMA'" in kernel and "'lstm_forward': '2x32 (4x8)'" in kernel, kernel
    assert "'gru_forward': '4x24 (3x8)'" in kernel and "'backward': '4x24 (3x8)'" in kernel, kernel
