"""levelbench.nn's compiled CPU kernels, called through XLA's FFI: building, caching and
registering the one library that holds the GRU's recurrence (``_native/gru_cpu.cc``, called from
`._gru_native`) and the LSTM's (``_native/lstm_cpu.cc``, called from `._lstm_native`), both cells
of the same loops (``_native/rnn_loops.h``) on the same parts (``_native/rnn_cpu.h``,
``_native/rnn_gradients.h``), behind the same handlers (``_native/rnn_handlers.h``).

An XLA:CPU loop spends 30-50 us per step on the seed's recurrent GEMM, gate fusion and loop
bookkeeping; the kernel runs a step, input GEMM and gate math included, in about 20 us on two
threads (docs/design/gru.md). The library is built from source with the machine's C++ compiler on first use,
for this CPU (``-march=native``, ~7 s), and cached in ``$LEVELBENCH_KERNEL_DIR`` (default
``$LEVELBENCH_CACHE_DIR/kernels``) under a key of the sources, the compiler, jaxlib and the CPU,
so later processes only load it. Where that cache cannot be written (read-only media, a full
disk), it is built in a private temporary directory instead, with one warning saying why.

When it cannot be built (no compiler, no jaxlib headers, a build error) or is turned off with
``LEVELBENCH_NATIVE=0``, the GRU and the LSTM run their XLA loops instead, with the same results;
`status` says which and why, and `describe` puts that in one line for result tables.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import hashlib
import os
import platform
import shutil
import stat
import subprocess
import tempfile
import threading
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from .._values.cores import usable_cores
from .._values import settings

_FOLDER = Path(__file__).with_name("_native")
# Compiled together into one library; all of them (the header too) make up the cache key.
SOURCES = (_FOLDER / "gru_cpu.cc", _FOLDER / "lstm_cpu.cc", _FOLDER / "rnn_info.cc")
HEADERS = tuple(_FOLDER / name
                for name in ("rnn_cpu.h", "rnn_gradients.h", "rnn_loops.h", "rnn_handlers.h", "rnn_kept.h"))
GRU_TARGETS = ("levelbench_gru_forward", "levelbench_gru_forward_train", "levelbench_gru_backward")
LSTM_TARGETS = ("levelbench_lstm_forward", "levelbench_lstm_forward_train", "levelbench_lstm_backward")
BUILD_TIMEOUT_S = 300
# Tests only: split the threads of every call after this step, as heavy contention would (-1: never).
_SPLIT_AT = -1

_lock = threading.Lock()
# The library whose handlers XLA holds. XLA refuses to register a name twice with different
# code, so the first library loaded serves the whole process.
_registered: tuple[str, ctypes.CDLL] | None = None


@dataclasses.dataclass(frozen=True)
class Status:
    """Whether the native kernel is in use; if not, why, and what to do about it.

    ``kernel`` is what the loaded library says it runs (empty when none is in use): ``isa``, the
    instruction set its vector code was compiled to, and each register tile as "rows x columns
    (vectors x floats)": ``lstm_forward``, ``gru_forward`` and ``backward``."""

    available: bool
    detail: str
    library: str | None = None
    kernel: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return f"native GRU/LSTM kernel: {'in use' if self.available else 'not in use'} ({self.detail})"


def default_threads() -> int:
    """Threads per recurrence: at most 2 (the work per step is ~1-2 MFLOP, so more threads
    spend more time waiting on each other than computing), and no more than this process may use.
    ``LEVELBENCH_NATIVE_THREADS`` overrides the choice."""
    override = settings.native_threads()
    if override:
        try:
            return max(1, int(override))
        except ValueError:
            warnings.warn(f"LEVELBENCH_NATIVE_THREADS must be a positive integer, got {override!r}; "
                          "using the default", stacklevel=2)
    return max(1, min(2, usable_cores()))


def status() -> Status:
    """Builds (first use) or loads the kernel, registers it with XLA, and says whether that worked."""
    with _lock:
        return _load()


def thread_count(requested: int) -> int:
    """The threads a call runs on: ``requested`` (a `Kernel`'s ``threads``), `default_threads` for 0."""
    return requested or default_threads()


def describe() -> str:
    """One line for a result table: how levelbench.nn's float32 GRU and LSTM recurrences run here."""
    current = status()
    if current.available:
        threads = default_threads()
        return f"native CPU kernel, {threads} thread{'s' if threads > 1 else ''}"
    return f"XLA loops ({current.detail.splitlines()[0]})"


def build() -> Status:
    """Build (or load from the cache) and register the kernel now, not while a function is traced:
    `GRU` and `LSTM` call this when a float32 layer is created, so that a first build (~7 s) is never timed as
    tracing. Returns the `status`."""
    return status()


def usable(dtype) -> bool:
    """Whether a GRU or LSTM of this dtype, traced now, runs its recurrence in the native kernel."""
    return (jnp.dtype(dtype) == jnp.float32 and jax.default_backend() == "cpu"
            and status().available)


@functools.cache
def _load() -> Status:
    if not settings.native_kernels():
        return Status(False, "turned off by LEVELBENCH_NATIVE=0; unset it to use the kernel")
    global _registered
    try:
        path = _build()
    except _BuildError as error:
        warnings.warn(f"levelbench.nn runs without its native CPU kernel (its GRU and LSTM: slower, same "
                      f"results): {error}", RuntimeWarning, stacklevel=4)
        return Status(False, str(error))
    if _registered is None:
        try:
            library = ctypes.CDLL(str(path))
        except OSError as error:  # e.g. a cache on a noexec mount
            detail = (f"{path} could not be loaded ({error}); set LEVELBENCH_KERNEL_DIR to a directory "
                      "programs may run from, or LEVELBENCH_NATIVE=0 to use the XLA loops")
            warnings.warn(f"levelbench.nn runs without its native CPU kernel (its GRU and LSTM: slower, "
                          f"same results): {detail}", RuntimeWarning, stacklevel=4)
            return Status(False, detail)
        for name in GRU_TARGETS + LSTM_TARGETS:
            jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(getattr(library, name)), platform="cpu")
        _registered = (str(path), library)
    return Status(True, f"built with {_compiler_name()}", _registered[0], _kernel_info(_registered[1]))


def _kernel_info(library: ctypes.CDLL) -> tuple[tuple[str, str], ...]:
    """The library's own account of its ISA and tiles (rnn_info.cc), as (name, value) pairs."""
    query = library.levelbench_rnn_kernel_info
    query.restype = ctypes.c_char_p
    pairs = (item.partition("=") for item in query().decode().split(";"))
    return tuple((name, value) for name, _, value in pairs)


class _BuildError(Exception):
    pass


def _compiler() -> str | None:
    for candidate in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def _compiler_identity(compiler: str) -> str:
    """The compiler for the cache key, without running it: its resolved path, size and date
    (running ``--version`` in every process that loads the kernel cost a process each time)."""
    path = os.path.realpath(compiler)
    try:
        info = os.stat(path)
    except OSError:
        return path
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def _compiler_name() -> str:
    return Path(_compiler() or "?").name


def _jaxlib_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jaxlib")
    except PackageNotFoundError:
        return jax.__version__


def _cpu_flags() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return line
    except OSError:
        pass
    return platform.processor()


def _build() -> Path:
    compiler = _compiler()
    if compiler is None:
        raise _BuildError("no C++ compiler found (looked for $CXX, c++, g++, clang++); install one, "
                          "e.g. `apt install g++`, or set LEVELBENCH_NATIVE=0 to silence this")
    include = Path(jax.ffi.include_dir())
    if not (include / "xla" / "ffi" / "api" / "ffi.h").exists():
        raise _BuildError(f"jaxlib's XLA FFI headers are missing from {include}; reinstall jaxlib")
    flags = ["-O3", "-march=native", "-std=c++17", "-shared", "-fPIC", "-pthread"]
    key = hashlib.sha256("\0".join([
        *(path.read_text() for path in SOURCES + HEADERS), _compiler_identity(compiler), " ".join(flags),
        _jaxlib_version(), platform.machine(), _cpu_flags(),
    ]).encode()).hexdigest()[:16]
    name = f"rnn_cpu-{key}.so"
    folder = kernel_dir()
    if (folder / name).exists():
        return folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return _compile(compiler, flags, include, folder, name)
    except OSError as error:  # a read-only or full cache: build elsewhere, and say so once
        unwritable = f"the kernel cache {folder} is not writable ({error.strerror or error})"
    fallback = _private_temp_dir()
    if fallback is None:
        raise _BuildError(f"{unwritable}, and neither is a temporary directory; set LEVELBENCH_KERNEL_DIR "
                          "to a writable directory, or LEVELBENCH_NATIVE=0 to use the XLA loops")
    if (fallback / name).exists():
        path = fallback / name
    else:
        try:
            path = _compile(compiler, flags, include, fallback, name)
        except OSError as error:
            raise _BuildError(f"{unwritable}, and building in {fallback} failed too ({error}); set "
                              "LEVELBENCH_KERNEL_DIR to a writable directory, or LEVELBENCH_NATIVE=0") from None
    warnings.warn(f"levelbench.nn: {unwritable}; the native kernel was built in {fallback} instead, "
                  "which may not last (then every new process builds it again, ~7 s): set "
                  "LEVELBENCH_KERNEL_DIR to a writable directory", RuntimeWarning, stacklevel=5)
    return path


def _compile(compiler: str, flags: list[str], include: Path, folder: Path, name: str) -> Path:
    """Compile into ``folder/name``; raises `OSError` when ``folder`` cannot be written."""
    # Built under a temporary name and renamed into place, so that concurrent first uses (test
    # workers, run's worker processes) never load a half-written library.
    fd, partial = tempfile.mkstemp(dir=folder, suffix=".so.partial")
    os.close(fd)
    command = [compiler, *flags, "-isystem", str(include), *map(str, SOURCES), "-o", partial]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.unlink(partial)
        raise _BuildError(f"building {', '.join(s.name for s in SOURCES)} took over {BUILD_TIMEOUT_S} s; "
                          "set LEVELBENCH_NATIVE=0 to skip it") from None
    except OSError as error:  # the compiler itself could not be run: not the cache's fault
        os.unlink(partial)
        raise _BuildError(f"could not run {compiler} ({error}); fix the compiler setup or set "
                          "LEVELBENCH_NATIVE=0 to use the XLA loops") from None
    if done.returncode != 0:
        os.unlink(partial)
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise _BuildError(f"`{' '.join(command)}` failed (exit {done.returncode}):\n{tail}\n"
                          "fix the compiler setup or set LEVELBENCH_NATIVE=0 to use the XLA loops")
    try:
        os.replace(partial, folder / name)
    except OSError:
        os.unlink(partial)
        raise
    return folder / name


def _private_temp_dir() -> Path | None:
    """``<tmp>/levelbench-kernels-<uid>``, this user's alone (made 0700; refused if anyone else could
    write to it, since a library there is loaded into this process); None if there is none."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = Path(tempfile.gettempdir()) / f"levelbench-kernels-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid or info.st_mode & 0o022:
        return None
    return folder


def kernel_dir() -> Path:
    """Where built kernels are cached: ``$LEVELBENCH_KERNEL_DIR``, else ``<cache dir>/kernels``."""
    return settings.kernel_dir()


def _reset() -> None:
    """Forget the loaded state, so that the next use looks at the environment again (tests)."""
    _load.cache_clear()


def spec_of(a: jax.Array) -> jax.ShapeDtypeStruct:
    """The shape and dtype of ``a``, for a result of the same."""
    return jax.ShapeDtypeStruct(a.shape, a.dtype)


def call(target: str, results, *operands, reverse: bool, threads: int, aliases: dict[int, int] | None = None):
    """``target`` (one of `GRU_TARGETS` or `LSTM_TARGETS`) on ``operands``; every kernel takes the
    direction, the thread count and the tests' split step as attributes. ``aliases`` maps an
    operand to the result written over it (XLA copies the operand first if it is still needed)."""
    status()  # builds and registers the targets on first use
    return jax.ffi.ffi_call(target, results, vmap_method="sequential", input_output_aliases=aliases)(
        *operands, reverse=np.int64(reverse), threads=np.int64(threads), split_at=np.int64(_SPLIT_AT))
