"""The machine's peak FLOP/s: the theoretical one from fake CPU descriptions (what physics allows; every
unknown input errs high), the practical one against a fake GEMM timer (attempts repeat until the two
best agree; a loaded first attempt is never cached; a later measurement above it replaces it), LB303
against the theoretical bound, and `levelbench env` showing both."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import FakeClock

import levelbench
from levelbench import Candidate
from levelbench._measuring import compare as compare_module
from levelbench._measuring import environment, peak
from levelbench._measuring.cpu_peak import CLOCK_CEILING_MHZ, peak_of


def cpuinfo(n: int, vendor: str = "AuthenticAMD", family: int = 25, flags: str = "sse2 avx avx2 fma",
            mhz: float = 3000.0, cores: int | None = None, hypervisor: bool = False) -> str:
    """/proc/cpuinfo for ``n`` logical CPUs; ``cores`` physical cores (hyperthreads pair up) where given."""
    cores = cores or n
    blocks = []
    for cpu in range(n):
        blocks.append("\n".join([
            f"processor\t: {cpu}", f"vendor_id\t: {vendor}", f"cpu family\t: {family}", "model name\t: fake",
            f"cpu MHz\t\t: {mhz}", "physical id\t: 0", f"core id\t\t: {cpu % cores}",
            f"flags\t\t: fpu {flags}" + (" hypervisor" if hypervisor else ""),
        ]))
    return "\n\n".join(blocks) + "\n"


ARM_NEON = "\n\n".join(f"processor\t: {i}\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes crc32\n"
                       "CPU implementer\t: 0x41" for i in range(4)) + "\n"
ARM_SVE = ARM_NEON.replace("asimd", "asimd sve sve2")


def gflops(t, dtype="float32"):
    return round(t.flops[dtype] / 1e9, 3)


@pytest.mark.parametrize("name, text, max_mhz, expected32, bits, units", [
    # Zen 3: AVX2, 2 x 256-bit FMA: 8 cores x 8 lanes x 2 x 2 x 4.9 GHz
    ("Zen 3 AVX2", cpuinfo(8, family=0x19), 4900, 8 * 8 * 2 * 2 * 4.9, 256, 2),
    # Zen 4: AVX-512 on 256-bit datapaths: no more per cycle than Zen 3
    ("Zen 4 AVX-512", cpuinfo(8, family=0x19, flags="sse2 avx avx2 fma avx512f"), 5000, 8 * 8 * 2 * 2 * 5.0, 256, 2),
    # Zen 5: full 512-bit datapaths
    ("Zen 5 AVX-512", cpuinfo(8, family=0x1A, flags="sse2 avx avx2 fma avx512f"), 5000, 8 * 16 * 2 * 2 * 5.0, 512, 2),
    # Intel with AVX-512: 2 FMA units assumed (the upper bound)
    ("Intel AVX-512", cpuinfo(4, vendor="GenuineIntel", family=6, flags="sse2 avx avx2 fma avx512f"), 3500,
     4 * 16 * 2 * 2 * 3.5, 512, 2),
    ("Intel AVX (no FMA)", cpuinfo(4, vendor="GenuineIntel", family=6, flags="sse2 avx"), 3000, 4 * 8 * 1 * 2 * 3.0, 256, 1),
    # aarch64 NEON: 4 x 128-bit pipes
    ("aarch64 NEON", ARM_NEON, 3000, 4 * 4 * 4 * 2 * 3.0, 128, 4),
])
def test_fake_cpus_give_the_expected_theoretical_peak(name, text, max_mhz, expected32, bits, units):
    t = peak_of(text, {"max_mhz": max_mhz}, list(range(8)) if "8" in name or "Zen" in name else list(range(4)),
                "aarch64" if "aarch64" in name else "x86_64")
    assert (t.vector_bits, t.fma_units) == (bits, units), name
    assert gflops(t) == pytest.approx(expected32), name
    assert gflops(t, "float64") == pytest.approx(expected32 / 2), name
    assert t.bound_flops == t.flops and not t.unknown  # the clock is known: the figure is the bound
    assert t.clock_source.startswith("cpuinfo_max_freq")


def test_sve_uses_the_vector_length_the_kernel_shows_and_512_bits_where_it_does_not():
    def sve(vector_bytes):
        return peak_of(ARM_SVE, {"max_mhz": 3000}, [0, 1, 2, 3], "aarch64", sve_vector_bytes=vector_bytes)

    assert (sve(16).vector_bits, sve(16).fma_units) == (128, 4)  # Neoverse V2: 4 x 128-bit
    assert (sve(32).vector_bits, sve(32).fma_units) == (256, 2)  # Neoverse V1: 2 x 256-bit
    unknown = sve(0)
    assert (unknown.vector_bits, unknown.fma_units) == (512, 2) and "SVE vector length" in unknown.unknown[0]


def test_an_unknown_clock_makes_the_bound_err_high_and_says_so():
    """This VM: no cpufreq, 'cpu MHz' 2596. The figure shown is at the reported clock and marked approximate;
    the bound LB303 uses is at the ceiling, and the reason is named."""
    text = cpuinfo(2, family=0x1A, flags="sse2 avx avx2 fma avx512f", mhz=2596.0, hypervisor=True)
    t = peak_of(text, {}, [0, 1], "x86_64")
    assert gflops(t) == pytest.approx(2 * 16 * 2 * 2 * 2.596)
    assert t.clock_mhz == 2596.0 and t.bound_clock_mhz == CLOCK_CEILING_MHZ and t.approximate
    assert t.bound("float32") == pytest.approx(2 * 16 * 2 * 2 * CLOCK_CEILING_MHZ * 1e6)
    assert t.bound("float64") == t.bound("float32") / 2
    assert any("highest clock" in u and "2,596 MHz" in u for u in t.unknown)
    nothing = peak_of("", {}, [0, 1], "x86_64")  # no /proc/cpuinfo at all: the widest units, the ceiling clock
    assert nothing.clock_mhz is None and nothing.bound("float32") == pytest.approx(2 * 16 * 2 * 2 * CLOCK_CEILING_MHZ * 1e6)
    assert len(nothing.unknown) == 2


def test_acpi_cpufreq_with_boost_on_does_not_claim_its_maximum_as_the_highest_clock():
    text = cpuinfo(4, family=0x17)
    t = peak_of(text, {"max_mhz": 2800}, [0, 1, 2, 3], "x86_64", driver="acpi-cpufreq", boost="1")
    assert t.clock_mhz == 2800 and t.bound_clock_mhz == CLOCK_CEILING_MHZ and "boost" in t.unknown[0]
    plain = peak_of(text, {"max_mhz": 2800}, [0, 1, 2, 3], "x86_64", driver="amd-pstate", boost="1")
    assert plain.bound_clock_mhz == 2800 and not plain.unknown


def test_hyperthreads_count_once_on_bare_metal_and_every_vcpu_counts_in_a_vm():
    assert peak_of(cpuinfo(4, cores=2), {"max_mhz": 3000}, [0, 1, 2, 3], "x86_64").cores == 2
    assert peak_of(cpuinfo(4, cores=2), {"max_mhz": 3000}, [0, 2], "x86_64").cores == 1  # one core's two threads
    vm = peak_of(cpuinfo(4, cores=2, hypervisor=True), {"max_mhz": 3000}, [0, 1, 2, 3], "x86_64")
    assert vm.cores == 4 and "vCPU" in vm.unknown[0]


def test_the_theoretical_peak_is_recorded_with_the_environment(monkeypatch, tmp_path):
    (tmp_path / "cpuinfo").write_text(cpuinfo(2, family=0x1A, flags="avx2 fma avx512f", mhz=2000.0))
    monkeypatch.setattr(environment, "CPUINFO", str(tmp_path / "cpuinfo"))
    monkeypatch.setattr(environment, "CPUFREQ", str(tmp_path / "no-sysfs"))
    environment._theoretical_peak.cache_clear()
    try:
        recorded = environment.collect()["theoretical_peak"]
    finally:
        environment._theoretical_peak.cache_clear()
    assert recorded["clock_mhz"] == 2000.0 and recorded["approximate"] is True
    assert recorded["bound_flops"]["float32"] > recorded["flops"]["float32"]


# -- the practical peak, against a fake GEMM timer -------------------------------------------------
def attempts(*float32: float):
    """A fake GEMM timer: each attempt's float32 rate in GFLOP/s (float64 half of it)."""
    rates = iter(float32)

    def attempt():
        r = next(rates) * 1e9
        return {"float32": r, "float64": r / 2}

    return attempt


def test_a_loaded_first_attempt_is_measured_again_and_the_peak_is_the_quiet_one():
    p = peak.settle(attempts(86.5, 125.0, 124.0, 999.0))
    assert p.agreed and len(p.attempts) == 3  # 86.5 and 125 disagree; 125 and 124 agree: stop
    assert p.float32_flops == 125e9 and p.float64_flops == 62.5e9


def test_loaded_attempts_that_agree_with_each_other_do_not_settle_the_peak():
    """Two attempts on a busy machine (their threads got a third of the CPU) agree with each other at a low
    figure; agreement alone would cache it. They never count; two attempts with the CPU to themselves do."""
    shares = iter([0.3, 0.3, 0.97, 0.98])
    rates = attempts(50, 52, 120, 121)

    def attempt():
        return {**rates(), "cpu_share": next(shares)}

    p = peak.settle(attempt)
    assert p.agreed and len(p.attempts) == 4 and p.float32_flops == 121e9
    starved = peak.settle(lambda: {"float32": 50e9, "float64": 25e9, "cpu_share": 0.3})
    assert not starved.agreed and len(starved.attempts) == peak.MAX_ATTEMPTS  # never cached


def test_attempts_that_never_agree_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak", lambda: peak.settle(attempts(50, 70, 90, 110, 130), key=peak._machine_key()))
    with pytest.warns(RuntimeWarning, match=r"did not settle: 5 attempts gave 50, 70, 90, 110, 130 GFLOP/s.*nothing is cached"):
        p = peak.machine_peak()
    assert not p.agreed and p.float32_flops == 130e9  # used in this process...
    assert not list(tmp_path.glob("peak-*.json"))  # ...but never cached
    assert peak.cached_peak() is p  # and not measured again in this process


def test_a_cached_peak_below_a_later_measurement_is_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak", lambda: peak.settle(attempts(86.5, 88.0), key=peak._machine_key()))
    first = peak.machine_peak()
    assert first.agreed and first.float32_flops == 88e9
    assert peak.raise_peak({"float32": 80e9}, "slower") is None  # below: nothing changes
    raised = peak.raise_peak({"float32": 113.7e9}, "numpy in a comparison")
    assert raised.float32_flops == 113.7e9 and raised.float64_flops == first.float64_flops
    assert raised.raised_by == "numpy in a comparison"
    assert peak.machine_peak() == raised  # the cache now holds it
    (cached,) = tmp_path.glob("peak-*.json")
    assert json.loads(cached.read_text())["float32_flops"] == 113.7e9


def fake_peaks(monkeypatch, tmp_path, practical32: float, bound32: float):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak",
                        lambda: peak.settle(attempts(practical32 / 1e9, practical32 / 1e9), key=peak._machine_key()))
    monkeypatch.setattr(compare_module, "_bounds", lambda: {"float32": bound32, "float64": bound32 / 2})


def compared(clock, costs, flops):
    out = np.zeros(3, np.float32)
    return levelbench.compare({n: Candidate(clock.work(cost, out), (), flops=flops) for n, cost in costs.items()},
                              timer=clock, environment=False, count_flops=False)


def test_a_comparison_above_the_practical_peak_raises_it_says_so_once_and_never_shows_over_100(tmp_path, monkeypatch):
    fake_peaks(monkeypatch, tmp_path, practical32=100e9, bound32=1000e9)
    clock = FakeClock()
    c = compared(clock, {"fast": 1e-3, "slow": 4e-3}, flops=2e8)  # fast: 200 GFLOP/s, slow: 50
    assert c.peak_flops["float32"] == pytest.approx(200e9) and "fast reached 200.0 GFLOP/s float32" in c.peak_note
    assert c.peak_share("fast") == pytest.approx(1.0) and c.peak_share("slow") == pytest.approx(0.25)
    assert peak.machine_peak().float32_flops == pytest.approx(200e9) and "fast" in peak.machine_peak().raised_by
    assert "LB303" not in {f.code for f in c.findings}
    text = str(c)
    assert "% practical peak" in text and "100%" in text and "the practical peak was raised" in text
    again = compared(FakeClock(), {"fast": 1e-3, "slow": 4e-3}, flops=2e8)
    assert again.peak_note == ""  # said once: the cache already holds the figure
    assert levelbench.Comparison.from_dict(json.loads(json.dumps(c.to_dict()))).peak_note == c.peak_note


def test_lb303_holds_a_candidate_to_the_theoretical_bound_not_the_practical_peak(tmp_path, monkeypatch):
    fake_peaks(monkeypatch, tmp_path, practical32=100e9, bound32=300e9)
    c = compared(FakeClock(), {"beats blas": 1e-3, "beats physics": 1e-4}, flops=2e8)  # 200 and 2000 GFLOP/s
    lb303 = {f.subject for f in c.findings if f.code == "LB303"}
    assert lb303 == {"beats physics"}  # above the practical peak is no error; above physics is
    assert c.peak_share("beats physics") is None  # no share above 100%: the cell names LB303 instead
    assert "theoretical (LB303)" in str(c)
    assert c.peak_flops["float32"] == pytest.approx(200e9)  # raised by the real one, not the impossible one


# -- levelbench env -----------------------------------------------------------------------------------
def test_env_shows_both_peaks_as_a_table_and_as_json(tmp_path, monkeypatch):
    from levelbench._cli.env import env_command

    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak", lambda: peak.settle(attempts(120, 121), key=peak._machine_key()))
    runner = CliRunner()
    before = runner.invoke(env_command, [])
    assert before.exit_code == 0, before.output
    assert "theoretical peak" in before.output and "not measured yet" in before.output and "{'" not in before.output
    measured = runner.invoke(env_command, ["--peak"])
    assert measured.exit_code == 0 and "121.0 GFLOP/s" in measured.output and "2 attempt(s)" in measured.output
    document = json.loads(runner.invoke(env_command, ["--format", "json"]).output)
    assert document["practical_peak"]["float32_flops"] == 121e9 and document["practical_peak"]["agreed"] is True
    assert document["theoretical_peak"]["bound_flops"]["float32"] >= document["theoretical_peak"]["flops"]["float32"]


def test_environment_with_peak_reads_the_cache_and_measures_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(peak, "_uncached", {})
    monkeypatch.setattr(peak, "measure_peak", lambda: peak.settle(attempts(120, 121), key=peak._machine_key()))
    assert peak.environment_with_peak()["practical_peak"] is None  # nothing measured behind the caller's back
    measured = peak.environment_with_peak(refresh=True)
    assert measured["practical_peak"]["float32_flops"] == 121e9 and "theoretical_peak" in measured
    assert peak.environment_with_peak()["practical_peak"]["float32_flops"] == 121e9  # cached now
    with pytest.raises(ModuleNotFoundError):
        peak.environment_with_peak(["no_such_framework_here"])


def test_a_reported_clock_that_moves_is_no_environment_difference_but_a_different_bound_is():
    def env(mhz, bound):
        t = peak_of(cpuinfo(2, mhz=mhz), {}, [0, 1], "x86_64").to_dict()
        t["bound_flops"] = {"float32": bound, "float64": bound / 2}
        return {"theoretical_peak": t}

    assert environment.differences(env(2596.0, 1e12), env(2800.0, 1e12)) == []
    assert environment.differences(env(2596.0, 1e12), env(2596.0, 2e12)) == [
        "theoretical_peak.bound_flops.float32: 1000000000000.0 -> 2000000000000.0",
        "theoretical_peak.bound_flops.float64: 500000000000.0 -> 1000000000000.0"]


def test_only_double_precision_gets_the_lower_float64_bound():
    t = peak_of(cpuinfo(2), {"max_mhz": 3000}, [0, 1], "x86_64")
    assert t.bound("float64") == t.bound("float32") / 2
    assert t.bound("complex64") == t.bound("float32") == t.bound("bfloat16")  # narrower: never the lower figure
