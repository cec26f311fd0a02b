"""`levelbench doctor --fix` as a user runs it: a subprocess, its exit code, stdout, stderr, and the files.

The seed questions are the reference: the dot script, fixed with --unsafe-fixes, runs and has nothing
fixable left; the GRU notebook, fixed, executes in a real kernel and keeps only the findings that need
a manual rewrite.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import levelbench_cli, temporary_kernel

BENCH = "import numpy as np\nimport time\nx = np.random.normal((4, 4))  # shape\nfor _ in range(2):\n" \
        "    t0 = time.time()\n    np.linalg.inv(x)\n    print(time.time() - t0)\n"


def test_fix_writes_the_file_reports_what_is_left_and_exits_0(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text(BENCH)
    run = levelbench_cli("doctor", "--fix", str(path))
    assert run.returncode == 0, run.stderr
    assert path.read_text() == BENCH.replace("normal((4, 4))", "normal(size=(4, 4))").replace("time.time", "time.perf_counter")
    assert "Fixed 2 of 2 findings in 1 file." in run.stderr
    again = levelbench_cli("doctor", "--fix", str(path))
    assert again.returncode == 0 and path.read_text().count("perf_counter") == 2
    assert "Fixed 0 of 0 findings." in again.stderr


def test_diff_prints_a_unified_diff_writes_nothing_and_exits_1(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text(BENCH)
    run = levelbench_cli("doctor", "--diff", str(path))
    assert run.returncode == 1
    assert path.read_text() == BENCH
    assert run.stdout.startswith(f"--- {path}\n+++ {path}\n@@ ")
    assert "-x = np.random.normal((4, 4))  # shape\n+x = np.random.normal(size=(4, 4))  # shape\n" in run.stdout
    assert "Would fix 2 of 2 findings in 1 file." in run.stderr
    patched = subprocess.run(["patch", "-p0", "--dry-run"], input=run.stdout, text=True, capture_output=True,
                             cwd="/") if shutil.which("patch") else None
    assert patched is None or patched.returncode == 0, patched.stdout + patched.stderr


def test_findings_left_at_fail_on_exit_1_and_are_counted_as_manual(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text("import jax.numpy as jnp\nh = jnp.zeros(3)\nfor x in jnp.ones((50, 3)):\n    h = jnp.tanh(x + h)\n"
                    "y = jnp.ones(3, dtype=jnp.float64)\n")
    run = levelbench_cli("doctor", "--fix", "--format", "concise", str(path))
    assert run.returncode == 1
    assert "LB114" in run.stdout and "LB108" in run.stdout
    assert "(1 needs a manual rewrite: LB114; 1 more with --unsafe-fixes: LB108)" in run.stderr
    assert levelbench_cli("doctor", "--fix", "--fail-on", "error", str(path)).returncode == 0
    unsafe = levelbench_cli("doctor", "--fix", "--unsafe-fixes", "--format", "concise", str(path))
    assert "jax_enable_x64" in path.read_text() and "LB108" not in unsafe.stdout


def test_fix_only_and_its_usage_error(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text(BENCH)
    run = levelbench_cli("doctor", "--fix-only", "LB105", str(path))
    assert run.returncode == 1  # the LB109 finding (an error) is left
    assert "perf_counter" in path.read_text() and "size=" not in path.read_text()
    assert "(1 left out by --fix-only: LB109)" in run.stderr
    bad = levelbench_cli("doctor", "--fix", "--fix-only", "LB999", str(path))
    assert bad.returncode == 2 and "--fix-only" in bad.stderr


def test_fix_on_standard_input_prints_the_fixed_source():
    run = subprocess.run([sys.executable, "-m", "levelbench", "doctor", "--fix", "-"], input=BENCH, text=True,
                         capture_output=True, env={**os.environ}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == BENCH.replace("normal((4, 4))", "normal(size=(4, 4))").replace("time.time", "time.perf_counter")


def test_fix_respects_noqa_and_select(tmp_path):
    path = tmp_path / "bench.py"
    path.write_text(BENCH.replace("# shape", "# levelbench: ignore[LB109]"))
    levelbench_cli("doctor", "--fix", "--select", "LB109", str(path))
    assert path.read_text() == BENCH.replace("# shape", "# levelbench: ignore[LB109]")


def test_the_notebook_is_edited_in_place_and_stays_valid(tmp_path, seeds):
    nbformat = pytest.importorskip("nbformat")
    path = tmp_path / "gru.ipynb"
    shutil.copy(seeds / "000_gru_question.ipynb", path)
    run = levelbench_cli("doctor", "--fix", "--format", "concise", str(path))
    assert run.returncode == 1
    nbformat.validate(nbformat.read(path, as_version=4))
    # the `# compile time` cell times compilation on purpose (levelbench._values.intent): no LB103 to fix there
    assert "Fixed 4 of 7 findings in 1 file (2 need a manual rewrite: LB106, LB114; 1 more with --unsafe-fixes: LB107)." \
        in run.stderr


# --- the seeds -----------------------------------------------------------------------------------
def test_the_dot_seed_fixed_with_unsafe_fixes_runs_and_has_nothing_fixable(tmp_path, seeds):
    pytest.importorskip("jax")
    path = tmp_path / "002_dot_question.py"
    shutil.copy(seeds / "002_dot_question.py", path)
    run = levelbench_cli("doctor", "--fix", "--unsafe-fixes", "--format", "json", str(path))
    left = json.loads(run.stdout)["findings"]
    assert [f["code"] for f in left] == ["LB110"]  # x2 @ x2.T as SYRK: a different benchmark, not a fix
    assert "Fixed 7 of 8 findings in 1 file (1 needs a manual rewrite: LB110)." in run.stderr
    fixed = path.read_text()
    assert "from jax import random, jit\n" in fixed and 'jax.config.update("jax_enable_x64", True)' in fixed
    assert "np.random.normal(size=(size,size))" in fixed and "time.time" not in fixed
    # Run it at a reduced size: the test substitutes the size in its copy, the seed is untouched.
    small = tmp_path / "small.py"
    small.write_text(re.sub(r"(?m)^size = 3000$", "size = int(os.environ['DOT_SIZE'])", "import os\n" + fixed))
    ran = subprocess.run([sys.executable, str(small)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "DOT_SIZE": "200", "JAX_PLATFORMS": "cpu"})
    assert ran.returncode == 0, ran.stderr
    assert re.search(r"Time of jnp: [0-9.e-]+s\nTime of np: [0-9.e-]+s\n", ran.stdout), ran.stdout
    assert "UserWarning" not in ran.stderr  # float64 is really float64 now


@pytest.mark.slow
@pytest.mark.parametrize("unsafe", [False, True], ids=["fix", "unsafe-fixes"])
def test_the_gru_seed_fixed_executes_in_a_kernel(tmp_path, monkeypatch, seeds, unsafe):
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    pytest.importorskip("flax")
    pytest.importorskip("torch")
    path = tmp_path / "gru.ipynb"
    shutil.copy(seeds / "000_gru_question.ipynb", path)
    run = levelbench_cli("doctor", "--fix", *(["--unsafe-fixes"] if unsafe else []), "--format", "json", str(path))
    left = sorted(f["code"] for f in json.loads(run.stdout)["findings"])
    manual = ["LB106", "LB114"]  # the loop under jit and the op-by-op loop: rewrites only a person can make
    assert left == (manual if unsafe else sorted([*manual, "LB107"]))
    sources = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]]
    assert sources[4] == "# PyTorch version\nwith torch.inference_mode():\n    %timeit rnn_torch(Xt)"
    assert sources[3] == "# compiled JAX version\n%timeit jax.block_until_ready(jitted_forward(params, Xj))"
    # the cell that says it times compilation keeps its compile (no warm-up added), and is now blocked
    assert sources[2] == "# compile time\n%time jax.block_until_ready(jitted_forward(params, Xj))"
    assert ("    return Yhat\n" in sources[0]) == unsafe

    nb = nbformat.read(path, as_version=4)
    setup = nb.cells[0]
    assert "seq_length = 1000\n" in setup.source
    setup.source = setup.source.replace("seq_length = 1000\n", "seq_length = 20\n")  # the copy, not the seed
    # The question predates Flax 0.7, where `GRUCell()` lost its default width: the same change
    # examples/seed_gru.ipynb makes. It is an API change of Flax, not a benchmarking mistake to fix.
    assert setup.source.count("jnn.GRUCell()") == 2
    setup.source = setup.source.replace("jnn.GRUCell()", "jnn.GRUCell(hidden_size)")
    kernel = temporary_kernel(tmp_path, monkeypatch)
    nbclient.NotebookClient(nb, **kernel, timeout=600).execute()  # raises on a failing cell
    timed = [" ".join(o.get("text", "") for o in c.outputs) for c in nb.cells[1:]]
    assert all("per loop" in t for t in timed[2:]), timed  # %timeit printed its numbers


def test_the_dot_seed_diff_in_the_docs_is_what_diff_prints(tmp_path, seeds):
    shutil.copy(seeds / "002_dot_question.py", tmp_path / "002_dot_question.py")
    run = levelbench_cli("doctor", "--diff", "--unsafe-fixes", "002_dot_question.py", cwd=tmp_path)
    assert run.returncode == 1
    docs = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "doctor.md").read_text()
    assert f"```diff\n{run.stdout}```" in docs, "update the dot seed's diff in docs/guide/doctor.md"


# --- the reliability probe of 2026-12-02 ---------------------------------------------------------
def test_a_timed_tuple_assignment_is_left_for_a_manual_rewrite_and_the_file_still_runs(tmp_path):
    path = tmp_path / "t.py"
    path.write_text("import time\nimport numpy as np\nf = np.sin\nx = np.ones(3)\nt0 = time.time()\n"
                    "a, b = f(x), f(x)\nt1 = time.time()\nprint(t1 - t0)\n")
    run = levelbench_cli("doctor", "--fix", "--no-config", "--format", "concise", str(path))
    assert "(1 needs a manual rewrite: LB104)" in run.stderr, run.stderr
    assert "timeit" not in path.read_text() and "perf_counter" in path.read_text()
    ran = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr


def test_the_summary_counts_files_once_and_unreadable_files_as_unread(tmp_path):
    (tmp_path / "a.py").write_text(BENCH)
    (tmp_path / "big.py").write_text(BENCH + "#" * 1000 + "\n")
    run = levelbench_cli("doctor", "--fix", "--no-config", "--max-bytes", "1000", "a.py", "./a.py", "big.py",
                         cwd=tmp_path)
    assert "Fixed 2 of 3 findings in 1 file (1 file could not be read: LB100)." in run.stderr, run.stderr
    assert "manual" not in run.stderr


@pytest.mark.parametrize("empty", ["", ",", " , "])
def test_fix_only_naming_no_rule_is_a_usage_error(tmp_path, empty):
    path = tmp_path / "bench.py"
    path.write_text(BENCH)
    run = levelbench_cli("doctor", "--fix-only", empty, str(path))
    assert run.returncode == 2 and path.read_text() == BENCH
    assert "--fix-only: no rule code given" in run.stderr and "LB100, LB101" in run.stderr and "or ALL" in run.stderr


def test_a_notebook_keeps_its_compact_layout_and_byte_order_mark(tmp_path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                     "source": ["import numpy as np\n", "x = np.random.normal((4, 4))"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    compact = json.dumps(nb, separators=(",", ":")).encode()
    for name, data in (("compact.ipynb", compact), ("bom.ipynb", b"\xef\xbb\xbf" + json.dumps(nb, indent=1).encode())):
        (tmp_path / name).write_bytes(data)
        run = levelbench_cli("doctor", "--fix", "--no-config", name, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert (tmp_path / name).read_bytes() == data.replace(b"normal((4, 4))", b"normal(size=(4, 4))")
