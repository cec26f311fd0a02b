"""The CPU's theoretical peak FLOP/s: what physics allows, from the CPU's own description.

cores the process may use x SIMD lanes x FMA units per core x 2 (an FMA is two FLOPs) x the
highest clock the OS reports. It is the bound LB303 holds a measurement to, so every unknown input
errs high: a bound that is too high misses a few impossible timings; one that is too low would
accuse a correct program of being faster than the machine.

- cores: the CPUs in the affinity mask; on bare metal, hyperthreads of one core count once (they
  share its FMA units); under a hypervisor the topology a VM shows is not the host's, so every
  vCPU counts as a core.
- SIMD width and FMA units: from the flags (avx512f, avx2/fma, avx, sse2; asimd, sve), the vendor
  and family. AMD family 0x19 (Zen 3, Zen 4) runs 512-bit ops on 256-bit datapaths; family 0x1A
  (Zen 5) has full 512-bit ones (the mobile parts do not: assumed, erring high); Intel with
  AVX-512 is taken to have 2 FMA units (some parts have 1); Arm: 4 x 128-bit NEON pipes (Apple M,
  Neoverse V), SVE 2 x its vector length (512 bits where the kernel does not say).
- clock: ``cpuinfo_max_freq`` in cpufreq where Linux shows it. Where it does not (most VMs), or
  where the driver's maximum leaves out boost (acpi-cpufreq with boost on), the clock is not known
  for certain: the ``cpu MHz`` figure is kept as the *reported* clock (the figure shown), and the
  bound uses `CLOCK_CEILING_MHZ`, above the clock any CPU is sold to run at.

    >>> environment.theoretical_peak().bound("float32")   # FLOP/s no correct program can exceed here
"""

from __future__ import annotations

import dataclasses
from typing import Any

CLOCK_CEILING_MHZ = 6500.0
"""Above any CPU's highest clock (6.2 GHz: Intel Core i9-14900KS, 2024), with a margin: the clock the
bound uses when the OS does not say the CPU's maximum."""


@dataclasses.dataclass(frozen=True)
class TheoreticalPeak:
    """The CPU's peak FLOP/s per dtype, how it was worked out, and what was not known.

    ``flops`` is at ``clock_mhz`` (the reported clock); ``bound_flops`` is the figure LB303 uses,
    at ``bound_clock_mhz`` (the same clock where it is known for certain, else `CLOCK_CEILING_MHZ`).
    ``unknown`` names each input that was not known and what was assumed instead (erring high).
    """

    flops: dict[str, float]
    bound_flops: dict[str, float]
    cores: int
    vector_bits: int
    fma_units: int
    clock_mhz: float | None
    bound_clock_mhz: float
    clock_source: str
    isa: str
    unknown: tuple[str, ...] = ()

    @property
    def approximate(self) -> bool:
        """True when the clock (or anything else) was not known for certain: ``flops`` is a figure at the
        reported clock, not a bound; `bound` still is one."""
        return bool(self.unknown)

    def bound(self, dtype: Any) -> float:
        """FLOP/s no correct program can exceed on this machine, for ``dtype`` (float64 or narrower)."""
        return self.bound_flops["float64" if _wide(dtype) else "float32"]

    def for_dtype(self, dtype: Any) -> float:
        return self.flops["float64" if _wide(dtype) else "float32"]

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["unknown"] = list(self.unknown)
        d["approximate"] = self.approximate
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TheoreticalPeak":
        fields = {f.name for f in dataclasses.fields(cls)}
        kept = {k: v for k, v in d.items() if k in fields}
        kept["unknown"] = tuple(kept.get("unknown", ()))
        return cls(**kept)


def _wide(dtype: Any) -> bool:
    # Only double precision gets the (lower) float64 figure: anything else errs high (complex64 is float32).
    return str(dtype) in ("float64", "complex128", "double")


def parse_cpuinfo(text: str) -> list[dict[str, str]]:
    """One dict per processor block of /proc/cpuinfo."""
    blocks, current = [], {}
    for line in text.splitlines():
        if not line.strip():
            if current:
                blocks.append(current)
            current = {}
            continue
        key, sep, value = line.partition(":")
        if sep:
            current[key.strip()] = value.strip()
    if current:
        blocks.append(current)
    return blocks


def peak_of(cpuinfo: str, frequency: dict[str, Any], affinity: list[int], machine: str,
            driver: str = "", boost: str = "", sve_vector_bytes: int = 0) -> TheoreticalPeak:
    """Work out the peak from what the OS shows: ``cpuinfo`` (/proc/cpuinfo's text), ``frequency``
    (`environment.cpu_frequency` of the affinity CPUs), ``affinity`` (the CPUs the process may use),
    ``machine`` (``platform.machine()``), the cpufreq ``driver`` and ``boost`` switch, and the SVE vector
    length in bytes. Never raises: what is missing is named in ``unknown``; `environment.theoretical_peak`
    reads these for this process."""
    unknown: list[str] = []
    machine = machine.lower()
    affinity = affinity or [0]
    blocks = parse_cpuinfo(cpuinfo)
    by_cpu = {int(b["processor"]): b for b in blocks if b.get("processor", "").isdigit()}
    first = by_cpu.get(affinity[0]) or (blocks[0] if blocks else {})
    flags = set((first.get("flags") or first.get("Features") or "").split())

    cores = _cores(by_cpu, affinity, flags, unknown)
    bits, units, isa = _simd(first, flags, machine, sve_vector_bytes, unknown)
    clock, bound_clock, source = _clock(first, frequency, driver, boost, unknown)
    per_cycle = cores * units * 2
    at = clock or bound_clock
    flops = {"float32": per_cycle * bits / 32 * at * 1e6, "float64": per_cycle * bits / 64 * at * 1e6}
    bound = {k: v * bound_clock / at for k, v in flops.items()}
    return TheoreticalPeak(flops, bound, cores, bits, units, clock, bound_clock, source, isa, tuple(unknown))


def _cores(by_cpu: dict[int, dict[str, str]], affinity: list[int], flags: set[str], unknown: list[str]) -> int:
    if "hypervisor" in flags:
        unknown.append("the host's core topology (a VM): each vCPU counted as a core")
        return len(affinity)
    cores = {(by_cpu[c].get("physical id"), by_cpu[c].get("core id")) for c in affinity if c in by_cpu}
    if not cores or any(k == (None, None) for k in cores) or len(by_cpu) < len(affinity):
        return len(affinity)  # no topology (Arm shows none): each CPU counted, erring high
    return len(cores)


def _simd(first: dict[str, str], flags: set[str], machine: str, sve_vector_bytes: int,
          unknown: list[str]) -> tuple[int, int, str]:
    """(vector bits, FMA units per core, ISA name)."""
    vendor = first.get("vendor_id", "")
    family = int(first.get("cpu family", "-1") or -1) if first.get("cpu family", "").isdigit() else -1
    if machine in ("aarch64", "arm64") or "asimd" in flags:
        if "sve" in flags:
            vl = sve_vector_bytes
            if vl:  # 2 pipes of the vector length, or 4 of 128 bits (Neoverse V2), whichever is more
                return vl * 8, max(2, 512 // (vl * 8)), f"SVE {vl * 8}-bit"
            unknown.append("the SVE vector length: 512 bits assumed")
            return 512, 2, "SVE"
        if not flags:
            unknown.append("the CPU's SIMD units: 4 x 128-bit NEON assumed")
        return 128, 4, "NEON"
    if "avx512f" in flags:
        if vendor == "AuthenticAMD" and family == 0x19:
            return 256, 2, "AVX-512 on 256-bit datapaths (AMD Zen 4)"
        if vendor == "AuthenticAMD" and family >= 0x1A:
            return 512, 2, "AVX-512 (AMD Zen 5)"
        return 512, 2, "AVX-512"
    if "avx2" in flags or "fma" in flags:
        return 256, 2, "AVX2+FMA"
    if "avx" in flags:
        return 256, 1, "AVX (an add and a multiply unit)"
    if "sse2" in flags:
        return 128, 1, "SSE2 (an add and a multiply unit)"
    unknown.append("the CPU's SIMD units (no flags read): 2 x 512-bit FMA units assumed")
    return 512, 2, "unknown"


def _clock(first: dict[str, str], frequency: dict[str, Any], driver: str, boost: str,
           unknown: list[str]) -> tuple[float | None, float, str]:
    """(reported clock in MHz or None, the clock the bound uses, where the clock came from)."""
    top = frequency.get("max_mhz")
    if top and not (driver == "acpi-cpufreq" and boost == "1"):
        return top, top, "cpuinfo_max_freq (cpufreq)"
    if top:
        unknown.append(f"the boost clock (acpi-cpufreq's maximum {top:,.0f} MHz leaves boost out): "
                       f"the bound uses {CLOCK_CEILING_MHZ:,.0f} MHz")
        return top, max(top, CLOCK_CEILING_MHZ), "cpuinfo_max_freq (cpufreq, without boost)"
    try:
        mhz = float(first.get("cpu MHz", ""))
    except ValueError:
        mhz = 0.0
    if mhz > 0:
        unknown.append(f"the highest clock (no cpufreq; {mhz:,.0f} MHz is the clock /proc/cpuinfo reports, "
                       f"the CPU can boost above it): the bound uses {CLOCK_CEILING_MHZ:,.0f} MHz")
        return mhz, max(mhz, CLOCK_CEILING_MHZ), "cpu MHz (/proc/cpuinfo, a reported clock, not the maximum)"
    unknown.append(f"the clock (neither cpufreq nor /proc/cpuinfo says it): the bound uses {CLOCK_CEILING_MHZ:,.0f} MHz")
    return None, CLOCK_CEILING_MHZ, "unknown"
