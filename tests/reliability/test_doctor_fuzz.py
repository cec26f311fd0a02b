"""The doctor fuzzed: a few hundred mutants of the venv's own Python files and of the doctor's corpus of real
benchmarks (seeded), checked and fixed by the
CLI as a user runs it. Fails on a traceback, an internal-error LB100, a hang (the subprocess timeout), an
exit status other than 0/1, and a --fix that turns a file Python could parse into one it cannot.

Mutations: delete, duplicate and swap lines, truncate, insert IPython magics, clock pairs around a line,
odd bytes (NUL, lone CR, form feed, invalid UTF-8, a BOM, non-ASCII names) and deep nesting."""

from __future__ import annotations

import ast
import json
import random
import shutil
import subprocess
import sys
import sysconfig
import time
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

SEED = 15
MUTANTS = 300
FIXED = 80  # mutants also run through --fix --unsafe-fixes
PACKAGES = ("numpy", "jax", "flax", "optax", "IPython", "rich", "click", "_pytest")
BASE_SIZES = (400, 12_000)
CORPUS = Path(__file__).resolve().parents[1] / "doctor_cases" / "real"
_BENCH = (
    "import time\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nx = jnp.ones(8)\n"
    "t0 = time.time()\ny = f(x)\nprint(time.time() - t0)\n"
)  # bytes: enough code to mean something, small enough for 300 in seconds

_MAGICS = ("%timeit f(x)", "%%time", "%time y = g(x)", "!pip list", "x?", "%%timeit -n1 -r1", "y = %timeit -o f(x)",
           "# %%", "# %timeit f(x)", "get_ipython().run_line_magic('timeit', 'f(x)')")
_ODD = ("\x00", "\r", "\x0c", "\ufeff", "\u00e9t\u00e9 = 1", "\t\t", "\\", "'''", '"', "(", "]", "\u2028", "\udcff")


def _sources() -> tuple[list[Path], list[Path]]:
    """(the venv's library files, the doctor's corpus of real benchmark scripts: they have fixes to apply)."""
    root = Path(sysconfig.get_paths()["purelib"])
    found: list[Path] = []
    for package in PACKAGES:
        found.extend(p for p in sorted((root / package).rglob("*.py")) if BASE_SIZES[0] < p.stat().st_size < BASE_SIZES[1])
    return found, sorted(CORPUS.glob("*.py"))


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(("delete", "duplicate", "swap", "truncate", "magic", "odd", "nest", "clock", "bench"))
        i = rng.randrange(len(lines))
        if kind == "delete" and len(lines) > 1:
            del lines[i : i + rng.randint(1, 5)]
        elif kind == "duplicate":
            lines[i:i] = lines[i : i + rng.randint(1, 8)]
        elif kind == "swap":
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "truncate":
            joined = "\n".join(lines)
            lines = joined[: rng.randrange(len(joined) + 1)].split("\n")
        elif kind == "magic":
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines.insert(i, indent + rng.choice(_MAGICS))
        elif kind == "odd":
            line = lines[i]
            k = rng.randrange(len(line) + 1)
            lines[i] = line[:k] + rng.choice(_ODD) + line[k:]
        elif kind == "nest":
            depth = rng.choice((50, 120, 400, 2000))
            lines.insert(i, rng.choice((
                "x = " + "(" * depth + "1" + ")" * depth,
                "y = " + "[" * depth + "]" * depth,
                "z = " + "-" * depth + "1",
                "w = " + " + ".join(["a"] * depth),
                "\n".join("    " * d + "if True:" for d in range(min(depth, 90))) + "\n" + "    " * min(depth, 90) + "pass",
            )))
        elif kind == "bench":  # a module-level benchmark: library code becomes a script the rules look at
            starts = [k for k, line in enumerate(lines) if line[:1].isalpha()] or [0]
            lines.insert(rng.choice(starts), _BENCH)
        else:  # a clock pair around the line, as a benchmark would have
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines[i:i + 1] = [f"{indent}t0 = time.time()", lines[i], f"{indent}print(time.time() - t0)"]
        if not lines:
            lines = [""]
    return "\n".join(lines)


def _write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", errors="surrogateescape" if "\udcff" in text else "strict"))


def _parses(data: bytes) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _doctor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "levelbench", "doctor", *args], capture_output=True, text=True,
                          timeout=240)


TRACEBACK = "Traceback (most recent call last)"
INTERNAL = "internal error in the"  # an LB100 for a check that raised: a bug, reported instead of crashing


def _no_crash(done: subprocess.CompletedProcess[str]) -> None:
    assert TRACEBACK not in done.stderr, done.stderr[done.stderr.index(TRACEBACK):][:6000]
    internal = [line for line in done.stderr.splitlines() if INTERNAL in line]  # LB100s are echoed to stderr
    assert not internal, internal[:10]
    assert done.returncode in (0, 1), done.stderr[-3000:]


@pytest.fixture(scope="module")
def mutants(tmp_path_factory) -> Path:
    library, corpus = _sources()
    if len(library) < 50:
        pytest.skip(f"only {len(library)} source files of {PACKAGES} in this environment")
    rng = random.Random(SEED)
    folder = tmp_path_factory.mktemp("mutants")
    for n in range(MUTANTS):
        base = rng.choice(corpus if n % 3 == 0 and corpus else library)
        original = base.read_text(encoding="utf-8", errors="surrogateescape")
        text = _mutate(rng, original)
        for _ in range(8 if n % 2 else 0):  # half the mutants still parse: those are analysed, not just refused
            if _parses(text.encode("utf-8", errors="surrogateescape")):
                break
            text = _mutate(rng, original)
        if n % 10 == 9:  # some as notebooks: the mutant is one code cell, or one per blank-line-separated part
            parts = text.split("\n\n") if n % 20 == 9 else [text]
            cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                      "source": part.splitlines(keepends=True)} for part in parts]
            notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}
            (folder / f"m{n:03d}_{base.stem}.ipynb").write_text(json.dumps(notebook))
        else:
            _write(folder / f"m{n:03d}_{base.stem}{'.ipy' if n % 10 == 4 else '.py'}", text)
    return folder


def test_the_doctor_checks_every_mutant_without_a_traceback(mutants):
    started = time.monotonic()
    done = _doctor("--format", "json", str(mutants))
    _no_crash(done)
    findings = json.loads(done.stdout)["findings"]
    analysed = {f["path"] for f in findings if f["code"] != "LB100"}
    refused = {f["path"] for f in findings if f["code"] == "LB100"}
    assert len(list(mutants.iterdir())) == MUTANTS
    assert len(refused) < MUTANTS * 0.75, f"{len(refused)} of {MUTANTS} mutants refused: too few analysed"
    assert analysed, "no finding other than LB100 on any mutant: the rules did not run"
    text = _doctor("--show-fixes", str(mutants))  # the text renderer: source lines, carets, fixes
    _no_crash(text)
    assert time.monotonic() - started < 120


def test_fix_never_breaks_a_file_that_parsed(mutants, tmp_path):
    rng = random.Random(SEED + 1)
    sample = rng.sample(sorted(p for p in mutants.iterdir() if p.suffix == ".py"), FIXED)
    for path in sample:
        shutil.copy(path, tmp_path / path.name)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    done = _doctor("--fix", "--unsafe-fixes", str(tmp_path))
    _no_crash(done)
    changed = [name for name, data in before.items() if (tmp_path / name).read_bytes() != data]
    broken = [name for name in changed if _parses(before[name]) and not _parses((tmp_path / name).read_bytes())]
    assert not broken, f"--fix left these unparseable: {broken}"
    assert changed, "--fix changed none of the sampled mutants: the sample tests nothing"
