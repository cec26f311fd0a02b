"""Item 6: caches that cannot be written. levelbench.nn builds its native kernel elsewhere (or runs the
XLA loops) with one warning saying why; the peak FLOP/s is measured once per process, with one warning,
instead of silently again on every use."""

import os
import tempfile
import warnings

import pytest
from _support import read_only

from levelbench._measuring import peak

pytestmark = pytest.mark.reliability


def _unwritable(tmp_path, kind):
    """A directory nobody can create files in: one below a regular file (even root cannot), or a
    read-only mount."""
    if kind == "below a file":
        blocker = tmp_path / "a-file"
        blocker.write_text("not a directory")
        return blocker / "cache", None
    folder = tmp_path / "ro"
    folder.mkdir()
    return folder, read_only(folder)


@pytest.fixture
def small_peak(monkeypatch):
    """A peak measured with a fake GEMM timer whose attempts agree (the test is about the cache, not the
    number; tiny real GEMMs in a process of their own never settle)."""
    calls = []

    def measured():
        calls.append(1)
        return peak.settle(lambda: {"float32": 1e11, "float64": 5e10}, key=peak._machine_key())

    monkeypatch.setattr(peak, "measure_peak", measured)
    monkeypatch.setattr(peak, "_uncached", {})
    return calls


@pytest.mark.parametrize("kind", ["below a file", "read-only mount"])
def test_an_unwritable_peak_cache_warns_once_and_measures_once(tmp_path, monkeypatch, small_peak, kind):
    folder, media = _unwritable(tmp_path, kind)
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(folder))
    with media or _nothing():
        with pytest.warns(RuntimeWarning, match=r"could not cache the machine's peak FLOP/s .*LEVELBENCH_CACHE_DIR") as said:
            first = peak.machine_peak()
        assert [w.filename for w in said] == [__file__]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # said once per process, not on every use
            again = peak.machine_peak()
    assert again == first and len(small_peak) == 1, "measured once per process, not on every use"


def test_the_peak_cache_warning_points_at_the_users_code(tmp_path, monkeypatch, small_peak):
    """Probe defect 38: reached through levelbench (compare's peak), the warning pointed at levelbench's own
    `p = machine_peak()`, which was printed under it as if it were the culprit."""
    from levelbench._measuring.compare import _peaks

    folder, _ = _unwritable(tmp_path, "below a file")
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(folder))
    with pytest.warns(RuntimeWarning, match="could not cache") as said:
        _peaks()
    assert [w.filename for w in said] == [__file__]


def test_a_writable_peak_cache_is_written_and_read_without_a_warning(tmp_path, monkeypatch, small_peak):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path / "cache"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = peak.machine_peak()
        assert peak.machine_peak() == first
    assert len(small_peak) == 1 and len(list((tmp_path / "cache").glob("peak-*.json"))) == 1
    assert not list((tmp_path / "cache").glob("*.tmp")) and not list((tmp_path / "cache").glob(".*.partial"))


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


# -- levelbench.nn's native kernel ---------------------------------------------------------------
@pytest.fixture
def native(monkeypatch):
    pytest.importorskip("jax")
    from levelbench.nn import _rnn_native

    _rnn_native._reset()
    yield _rnn_native
    _rnn_native._reset()


def test_an_unwritable_kernel_cache_builds_in_a_private_temporary_directory(tmp_path, monkeypatch, native):
    if native._compiler() is None:
        pytest.skip("no C++ compiler: nothing to build")
    folder, _ = _unwritable(tmp_path, "below a file")
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    with pytest.warns(RuntimeWarning, match=r"kernel cache .*a-file/cache is not writable .*built in .*"
                                            r"levelbench-kernels-\d+ instead.*LEVELBENCH_KERNEL_DIR") as said:
        current = native.status()
    assert len([w for w in said if issubclass(w.category, RuntimeWarning)]) == 1
    assert current.available, current.detail
    built = list((tmp_path / "tmp").glob("levelbench-kernels-*/rnn_cpu-*.so"))
    assert len(built) == 1 and oct(built[0].parent.stat().st_mode & 0o777) == "0o700"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once per process
        assert native.status().available


def test_no_writable_place_at_all_runs_the_xla_loops_and_says_why(tmp_path, monkeypatch, native):
    folder, _ = _unwritable(tmp_path, "below a file")
    monkeypatch.setenv("LEVELBENCH_KERNEL_DIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "a-file" / "tmp"))
    monkeypatch.setattr(native, "_compiler", lambda: "/usr/bin/c++")
    # here, after the fixture's importorskip: rnn_support (beside tests/conftest.py) imports jax
    from rnn_support import assert_the_xla_loops_run_instead

    assert_the_xla_loops_run_instead("is not writable", "neither is a temporary directory", "LEVELBENCH_KERNEL_DIR")
    assert native.describe().startswith("XLA loops (the kernel cache")


def test_a_temporary_directory_someone_else_could_write_is_not_used(tmp_path, monkeypatch, native):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = tmp_path / f"levelbench-kernels-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    assert native._private_temp_dir() is None
    shared.chmod(0o700)
    assert native._private_temp_dir() == shared
