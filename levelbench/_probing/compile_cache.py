"""The persistent compilation cache, measured: the program compiled in two fresh processes.

JAX can keep compiled programs on disk (``jax_compilation_cache_dir``): the first process that
compiles a program writes it, the next ones read it instead of compiling. What that saves is a
cross-process figure, so it is measured across processes: the program is lowered here (a fresh
jit: the StableHLO the user's jit compiles), and compiled in fresh Python processes through the
compile step ``jax.jit`` itself uses (``compile_or_get_cached``, where the persistent cache
sits), in pairs over one temporary cache directory each: the first of a pair compiles and fills
it, the second reads it. The caller's process, its config and its environment are not touched (each
child sets the cache options for itself), and the directory is removed afterwards.

    python -c "from levelbench._probing.compile_cache import main; main()" PROGRAM CACHE_DIR X64
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

from .._values.settings import child_environment
from .subject import fresh_jit

# Seconds a fresh process takes to start and import jax, before it measures its own (an estimate
# for the budget check only; the figure reported is measured).
IMPORT_SECONDS = 2.5
_CHILD = "import sys; from levelbench._probing.compile_cache import main; main(sys.argv[1:])"


def lowered_program(fn: Callable[..., Any], args: tuple, kwargs: dict) -> str:
    """``fn`` at this call lowered to StableHLO text (a fresh jit: the user's caches are untouched)."""

    jitted, arrays = fresh_jit(fn, args, kwargs)
    return jitted.lower(*arrays).as_text()


def two_processes(program_text: str, x64: bool, timeout: float, pairs: int = 2) -> dict[str, Any]:
    """Compile the lowered program in fresh processes: ``pairs`` times a cold one over a new, empty
    cache directory (it compiles and fills it), then a warm one reading that directory.

    Returns ``{"cold": [...], "warm": [...], "import": [...], "hits": [...], "entries": n}``: the
    compile seconds of each process, their import times, whether each warm one counted a cache
    hit, and the files the first cold one left in its cache. Pairs, because one compile per
    process on a shared machine moves by tens of percent.
    """
    cold, warm, imports, hits, entries = [], [], [], [], 0
    with tempfile.TemporaryDirectory(prefix="levelbench-jax-cache-") as folder:
        program = os.path.join(folder, "program.mlir")
        with open(program, "w") as fh:
            fh.write(program_text)
        for pair in range(pairs):
            cache = os.path.join(folder, f"cache-{pair}")
            for runs in (cold, warm):
                # -P: levelbench from child_environment's path, never from the working directory
                done = subprocess.run([sys.executable, "-P", "-c", _CHILD, program, cache, "1" if x64 else "0"],
                                      capture_output=True, text=True, timeout=timeout, env=child_environment())
                if done.returncode != 0:
                    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
                    raise RuntimeError(f"the compiling process failed ({done.returncode}): {tail}")
                run = json.loads(done.stdout.strip().splitlines()[-1])
                runs.append(run["compile"])
                imports.append(run["import"])
                if runs is warm:
                    hits.append(bool(run.get("cache_hit")))
                elif not entries:
                    entries = sum(len(files) for _, _, files in os.walk(cache))
    return {"cold": cold, "warm": warm, "import": imports, "hits": hits, "entries": entries}


def main(argv: Sequence[str] | None = None) -> None:
    """In the child: compile the exported program with the cache on; print the seconds as JSON."""
    program, cache, x64 = argv if argv is not None else sys.argv[1:]
    t0 = time.perf_counter()
    import jax  # this child only

    imported = time.perf_counter() - t0
    jax.config.update("jax_enable_x64", x64 == "1")
    jax.config.update("jax_compilation_cache_dir", cache)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    import numpy as np
    # jax.jit's own compile step, where the persistent cache is read and written (private, hence
    # only here, in a child whose failure is reported as the trial's)
    from jax._src import compiler
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client
    from jax._src.lib.mlir import ir

    with open(program) as fh:
        text = fh.read()
    events: list[str] = []
    try:  # JAX counts persistent-cache hits as monitoring events: proof the second process read it
        jax.monitoring.register_event_listener(lambda name, **kw: events.append(name))
    except Exception:  # an older jax without the listener API: no proof, the times still stand
        pass
    device = jax.devices()[0]
    with mlir.make_ir_context():
        t1 = time.perf_counter()
        module = ir.Module.parse(text)
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1,
                                               device_assignment=np.array([[device.id]]))
        t2 = time.perf_counter()
        compiler.compile_or_get_cached(device.client, module, np.array([device]), options, [],
                                       xla_client.DeviceList((device,)))
        t3 = time.perf_counter()
    print(json.dumps({"import": imported, "lower": t2 - t1, "compile": t3 - t2,
                      "cache_hit": any("cache_hit" in e for e in events)}))
