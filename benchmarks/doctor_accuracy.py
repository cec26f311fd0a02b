"""How often is the doctor right on real code? Recall and precision on a corpus of public cases.

Each file in tests/doctor_cases/real/ is one public question, issue or documentation snippet, the
user's code as posted, under a header naming what an accepted answer or a maintainer established
and the codes a correct doctor reports on it (``static:`` with ``lines:``, ``dynamic:``). Three parts:

- static: ``levelbench.doctor`` on every case as the .py file and as a Jupyter notebook (one cell,
  or one per ``# %%`` part), scored against ``static:``/``lines:``. A finding is correct when its
  code is labelled for the case and, where ``lines:`` names lines, it points at one of them; a code
  found only at other lines is both a miss and a false finding.
- explain: ``levelbench.explain`` on every runnable copy (``*_run.py``, each in its own process,
  since JAX flags are global), findings of severity warning or worse scored against ``dynamic:``.
- fp: the static doctor over the installed sources of flax, optax, orbax.checkpoint and
  jax.example_libraries, well-regarded code that should stay quiet.

    python benchmarks/doctor_accuracy.py
    python benchmarks/doctor_accuracy.py --only static --json doctor_accuracy.json
    python benchmarks/doctor_accuracy.py --only explain --budget 5
    python benchmarks/doctor_accuracy.py --only explain --repeat 3

``--repeat N`` runs explain N times on every runnable copy (each run a fresh process) and prints the
flips: the (case, function, code) findings of warning level or worse in some runs and absent in
others. A borderline finding (its measured quantity's 95% interval straddles the threshold,
`levelbench._values.threshold`) is a note marked borderline, and counts as the same finding as the
warning it is when past the threshold: a warning in one run and a borderline note in the next is not
a flip (the report says both times that the value is at or past the threshold); a warning in one run
and nothing in the next is. A borderline note in some runs and nothing in others is listed apart
(never a warning, so not a flip). The recall and precision printed are those of the first run.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from levelbench.doctor import lint_paths

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "doctor_cases" / "real"
HEADER_KEYS = ("source", "title", "established-by", "cause", "static", "dynamic", "inferred", "lines")
CELL_MARK = "# %%"
FP_PACKAGES = ("flax", "optax", "orbax.checkpoint", "jax.example_libraries")


# ---- the corpus -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Case:
    """One corpus file: its header, the labelled codes and where the static ones belong.

    ``dynamic`` is None for "n/a" (no runnable copy); ``lines`` maps a static code to the file
    lines its finding may point at (absent: anywhere in the file).
    """

    name: str
    path: Path
    header: dict[str, str]
    static: frozenset[str]
    dynamic: frozenset[str] | None
    lines: dict[str, frozenset[int]]
    run_path: Path | None
    explain: tuple[str, ...]


def parse_codes(value: str) -> frozenset[str] | None:
    """``"LB102, LB105"`` -> the codes; ``"none"`` -> empty; ``"n/a"`` -> None."""
    value = value.strip()
    if value == "n/a":
        return None
    if value == "none":
        return frozenset()
    return frozenset(c.strip() for c in value.split(","))


def parse_lines(value: str) -> dict[str, frozenset[int]]:
    """``"LB106:23/24, LB102:31"`` -> ``{"LB106": {23, 24}, "LB102": {31}}``; ``"none"`` -> {}."""
    if value.strip() == "none":
        return {}
    out = {}
    for entry in value.split(","):
        code, numbers = entry.strip().split(":")
        out[code] = frozenset(int(n) for n in numbers.split("/"))
    return out


def read_header(path: Path) -> dict[str, str]:
    """The ``# key: value`` lines at the top of a file, in order, until the first other line."""
    header = {}
    for line in path.read_text().splitlines():
        m = re.match(r"# ([a-z-]+): (.*)$", line)
        if not m:
            break
        header[m.group(1)] = m.group(2)
    return header


def read_case(path: Path) -> Case:
    header = read_header(path)
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise ValueError(f"{path.name}: header lacks {', '.join(missing)}; expected the keys {', '.join(HEADER_KEYS)}")
    run_path = path.with_name(path.stem + "_run.py")
    explain: tuple[str, ...] = ()
    if run_path.exists():
        explain = tuple(n.strip() for n in read_header(run_path).get("explain", "").split(",") if n.strip())
    return Case(
        name=path.stem,
        path=path,
        header=header,
        static=parse_codes(header["static"]) or frozenset(),
        dynamic=parse_codes(header["dynamic"]),
        lines=parse_lines(header["lines"]),
        run_path=run_path if run_path.exists() else None,
        explain=explain,
    )


def load_corpus(root: Path = CORPUS) -> list[Case]:
    """Every case in ``root``, in file order (runnable copies belong to their case)."""
    return [read_case(p) for p in sorted(root.glob("[0-9][0-9][0-9]_*.py")) if not p.stem.endswith("_run")]


# ---- scoring ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Reported:
    """A finding as scored: which case, code, file line (0 when lines do not apply), and message."""

    case: str
    code: str
    line: int
    message: str


@dataclasses.dataclass
class Score:
    """Recall per code and overall, precision, and the misses and false findings behind them."""

    labelled: Counter = dataclasses.field(default_factory=Counter)
    found: Counter = dataclasses.field(default_factory=Counter)
    correct: int = 0
    reported: int = 0
    misses: list = dataclasses.field(default_factory=list)
    false: list = dataclasses.field(default_factory=list)

    def add(self, case: Case, labels: frozenset[str], findings: list[Reported], lines: dict[str, frozenset[int]]) -> None:
        hit = set()
        for f in findings:
            self.reported += 1
            where = lines.get(f.code)
            if f.code in labels and (where is None or f.line in where):
                self.correct += 1
                hit.add(f.code)
            else:
                self.false.append(f)
        for code in sorted(labels):
            self.labelled[code] += 1
            if code in hit:
                self.found[code] += 1
            else:
                where = lines.get(code)
                self.misses.append((case.name, code, sorted(where) if where else []))

    @property
    def recall(self) -> float:
        total = sum(self.labelled.values())
        return sum(self.found.values()) / total if total else float("nan")

    @property
    def precision(self) -> float:
        return self.correct / self.reported if self.reported else float("nan")

    def to_dict(self) -> dict:
        return {
            "recall": self.recall,
            "precision": self.precision,
            "labelled": sum(self.labelled.values()),
            "found": sum(self.found.values()),
            "findings": self.reported,
            "correct_findings": self.correct,
            "per_code": {c: {"labelled": n, "found": self.found[c]} for c, n in sorted(self.labelled.items())},
            "misses": [{"case": c, "code": code, "lines": ls} for c, code, ls in self.misses],
            "false_findings": [dataclasses.asdict(f) for f in self.false],
        }


# ---- static -----------------------------------------------------------------------------------


def cells_of(text: str) -> list[tuple[int, str]]:
    """The code split at ``# %%`` lines: (first file line of the cell, cell source) for each part."""
    cells, start, current = [], 1, []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == CELL_MARK:
            cells.append((start, "\n".join(current)))
            start, current = number + 1, []
        else:
            current.append(line)
    cells.append((start, "\n".join(current)))
    return cells


def write_notebook(case: Case, folder: Path) -> tuple[Path, list[int]]:
    """The case as a notebook of code cells; returns its path and each cell's first file line."""
    import nbformat  # only the static part needs it

    cells = cells_of(case.path.read_text())
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for _, source in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / (case.name + ".ipynb")
    nbformat.write(nb, str(path))
    return path, [start for start, _ in cells]


def static_findings(case: Case, form: str, folder: Path) -> tuple[list[Reported], float]:
    """The doctor's findings on one case in one form ("py" or "notebook"), at file lines, and the ms it took."""
    if form == "py":
        t0 = time.perf_counter()
        report = lint_paths([case.path])
        ms = (time.perf_counter() - t0) * 1e3
        return [Reported(case.name, d.code, d.location.line, d.message) for d in report.diagnostics], ms
    path, starts = write_notebook(case, folder)
    t0 = time.perf_counter()
    report = lint_paths([path])
    ms = (time.perf_counter() - t0) * 1e3
    found = []
    for d in report.diagnostics:
        cell = d.location.cell
        line = starts[cell - 1] + d.location.line - 1 if 0 < cell <= len(starts) else d.location.line
        found.append(Reported(case.name, d.code, line, d.message))
    return found, ms


def run_static(cases: list[Case], forms: tuple[str, ...] = ("py", "notebook")) -> dict:
    """Form -> (Score, milliseconds per file) for each form in ``forms``."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="doctor_accuracy_") as tmp:
        for form in forms:
            score, times = Score(), []
            for case in cases:
                found, ms = static_findings(case, form, Path(tmp))
                times.append(ms)
                score.add(case, case.static, found, case.lines)
            results[form] = (score, times)
    return results


def print_static(results: dict) -> None:
    py, nb = results["py"][0], results["notebook"][0]
    codes = sorted(set(py.labelled) | set(nb.labelled))
    print("Static doctor on the real corpus: recall per rule (found / labelled cases)")
    print(f"{'rule':6} {'.py':>9} {'notebook':>9}")
    for code in codes:
        print(f"{code:6} {py.found[code]:>4}/{py.labelled[code]:<4} {nb.found[code]:>4}/{nb.labelled[code]:<4}")
    print()
    print(f"{'form':9} {'recall':>8} {'precision':>10} {'findings':>9} {'ms/file median':>15} {'max':>8}")
    for form, (score, times) in results.items():
        print(f"{form:9} {fmt_ratio(score.recall):>8} {fmt_ratio(score.precision):>10} {score.reported:>9} "
              f"{statistics.median(times):>15.1f} {max(times):>8.1f}")
    for form, (score, _) in results.items():
        print(f"\nMisses ({form}): case, code, expected lines")
        for name, code, lines in score.misses:
            print(f"  {name:42} {code}  {'/'.join(map(str, lines)) or 'any'}")
        print(f"False findings ({form}): case, code, line, message")
        for f in score.false:
            print(f"  {f.case:42} {f.code}  {f.line:>4}  {f.message}")


# ---- variants ---------------------------------------------------------------------------------

GOOD = ROOT / "tests" / "doctor_cases" / "good"


def _variants_module():
    """tests/doctor_cases/variants.py, which uses nothing of levelbench (loaded by path: tests is no package)."""
    spec = importlib.util.spec_from_file_location("doctor_variants", ROOT / "tests" / "doctor_cases" / "variants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@dataclasses.dataclass
class VariantScore:
    """Recall per rule and per kind of variant; findings on variants of correct code."""

    labelled: Counter = dataclasses.field(default_factory=Counter)  # (kind, code) -> labelled
    found: Counter = dataclasses.field(default_factory=Counter)
    variants: Counter = dataclasses.field(default_factory=Counter)  # kind -> variants made of positive cases
    quiet_variants: Counter = dataclasses.field(default_factory=Counter)  # kind -> variants made of correct code
    noisy: Counter = dataclasses.field(default_factory=Counter)  # kind -> findings on correct variants
    reported: int = 0
    correct: int = 0
    misses: list = dataclasses.field(default_factory=list)
    false: list = dataclasses.field(default_factory=list)

    @property
    def recall(self) -> float:
        total = sum(self.labelled.values())
        return sum(self.found.values()) / total if total else float("nan")

    @property
    def precision(self) -> float:
        return self.correct / self.reported if self.reported else float("nan")

    def false_by_code(self) -> Counter:
        return Counter(f["code"] for f in self.false)

    def per(self, index: int) -> dict[str, tuple[int, int]]:
        """kind (index 0) or code (index 1) -> (found, labelled)."""
        out: dict[str, list[int]] = {}
        for key, n in self.labelled.items():
            entry = out.setdefault(key[index], [0, 0])
            entry[0] += self.found[key]
            entry[1] += n
        return {k: (v[0], v[1]) for k, v in sorted(out.items())}

    def to_dict(self) -> dict:
        return {
            "recall": self.recall,
            "precision": self.precision,
            "labelled": sum(self.labelled.values()),
            "found": sum(self.found.values()),
            "findings": self.reported,
            "correct_findings": self.correct,
            "findings_on_correct_variants": sum(self.noisy.values()),
            "variants": dict(self.variants),
            "correct_variants": dict(self.quiet_variants),
            "per_kind": {k: {"found": f, "labelled": n, "findings_on_correct": self.noisy[k]}
                         for k, (f, n) in self.per(0).items()},
            "per_code": {c: {"found": f, "labelled": n, "false_findings": self.false_by_code()[c]}
                         for c, (f, n) in self.per(1).items()},
            "misses": self.misses,
            "false_findings": self.false,
        }


def _lint_variant(name: str, variant, folder: Path) -> list[tuple[str, int, str]]:
    """(code, file line, message) of the doctor's findings on one variant."""
    if not variant.notebook:
        path = folder / f"{name}.py"
        path.write_text(variant.text)
        return [(d.code, d.location.line, d.message) for d in lint_paths([path]).diagnostics]
    import nbformat

    cells = cells_of(variant.text)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for _, source in cells]
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, str(path))
    starts = [start for start, _ in cells]
    out = []
    for d in lint_paths([path]).diagnostics:
        cell = d.location.cell
        line = starts[cell - 1] + d.location.line - 1 if 0 < cell <= len(starts) else d.location.line
        out.append((d.code, line, d.message))
    return out


def run_variants(cases: list[Case]) -> VariantScore:
    """Every case rewritten every way that applies (tests/doctor_cases/variants.py), scored: a positive
    case's variant must keep its findings at the lines they moved to; a correct one's must stay quiet."""
    generate = _variants_module().case_variants
    score = VariantScore()
    sources: list[tuple[str, str, frozenset[str], dict[str, frozenset[int]]]] = []
    for case in cases:
        if "LB100" in case.static:
            continue  # unreadable on purpose: no rewrite keeps its syntax error where it was
        sources.append((case.name, case.path.read_text(), case.static, case.lines))
    for path in sorted(GOOD.glob("*.py")):
        sources.append((f"good/{path.stem}", path.read_text(), frozenset(), {}))
    for path in sorted(GOOD.glob("*.ipynb")):  # as a percent script: one `# %%` part per code cell
        import nbformat

        cells = [c.source for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code"]
        sources.append((f"good/{path.stem}", f"\n{CELL_MARK}\n".join(cells), frozenset(), {}))
    with tempfile.TemporaryDirectory(prefix="doctor_variants_") as tmp:
        for name, text, codes, lines in sources:
            for variant in generate(text, codes, lines):
                stem = f"{name.replace('/', '_')}__{variant.kind.replace('-', '_')}"
                found = _lint_variant(stem, variant, Path(tmp))
                if not codes:
                    score.quiet_variants[variant.kind] += 1
                    score.noisy[variant.kind] += sum(line not in variant.allowed.get(code, ()) for code, line, _ in found)
                else:
                    score.variants[variant.kind] += 1
                hit = set()
                for code, line, message in found:
                    if line in variant.allowed.get(code, ()):
                        continue  # a finding the rewrite adds rightly: neither required nor false
                    score.reported += 1
                    where = variant.expected.get(code, ())
                    if code in variant.expected and (where is None or line in where):
                        score.correct += 1
                        hit.add(code)
                    else:
                        score.false.append({"case": name, "kind": variant.kind, "code": code, "line": line,
                                            "message": message})
                for code, where in variant.expected.items():
                    score.labelled[(variant.kind, code)] += 1
                    if code in hit:
                        score.found[(variant.kind, code)] += 1
                    else:
                        score.misses.append({"case": name, "kind": variant.kind, "code": code,
                                             "lines": sorted(where) if where else []})
    return score


def print_variants(score: VariantScore) -> None:
    print("Static doctor on variants of the corpus (the same mistake written another way): recall per kind")
    print(f"{'kind':20} {'variants':>8} {'found/labelled':>15} {'recall':>7} {'correct variants':>17} {'findings':>9}")
    kinds = sorted(set(score.variants) | set(score.quiet_variants))
    per_kind = score.per(0)
    for kind in kinds:
        f, n = per_kind.get(kind, (0, 0))
        print(f"{kind:20} {score.variants[kind]:>8} {f:>7}/{n:<7} {fmt_ratio(f / n if n else float('nan')):>7} "
              f"{score.quiet_variants[kind]:>17} {score.noisy[kind]:>9}")
    print("\nPer rule: found / labelled variant findings, recall, false findings (wrong line or unlabelled)")
    false = score.false_by_code()
    for code in sorted(set(score.per(1)) | set(false)):
        f, n = score.per(1).get(code, (0, 0))
        print(f"  {code:6} {f:>4}/{n:<4} {fmt_ratio(f / n if n else float('nan')):>7} {false[code]:>5}")
    print(f"\nvariant recall {fmt_ratio(score.recall)}   variant precision {fmt_ratio(score.precision)}   "
          f"findings {score.reported}   findings on correct variants {sum(score.noisy.values())}")
    print("\nMisses: case, kind, code, expected lines")
    for m in score.misses:
        print(f"  {m['case']:42} {m['kind']:20} {m['code']}  {'/'.join(map(str, m['lines'])) or 'any'}")
    print("False findings: case, kind, code, line, message")
    for f in score.false:
        print(f"  {f['case']:42} {f['kind']:20} {f['code']}  {f['line']:>4}  {f['message'][:90]}")


# ---- explain ----------------------------------------------------------------------------------


def explain_one(run_path: Path, budget: float) -> dict:
    """In a child process: import a runnable copy, explain each of its functions, return the findings."""
    import levelbench

    spec = importlib.util.spec_from_file_location(run_path.stem, run_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = {"functions": []}
    for name in (n.strip() for n in read_header(run_path)["explain"].split(",")):
        entry = {"function": name, "findings": [], "skipped": {}, "error": None}
        t0 = time.perf_counter()
        try:
            args = getattr(module, name + "_args")()
            # A case about recompilation gives the posted call sequence as ``<function>_calls()``.
            calls = getattr(module, name + "_calls", None)
            extra = {"calls": calls()} if calls is not None else {}
            diagnosis = levelbench.explain(getattr(module, name), *args, budget=budget, **extra)
            entry["findings"] = [{"code": f.code, "severity": f.severity.name.lower(), "title": f.title,
                                  "scored": f.severity >= levelbench.Severity.WARNING,
                                  "borderline": bool(f.data.get("borderline"))} for f in diagnosis.findings]
            entry["skipped"] = dict(diagnosis.skipped)
        except Exception as e:  # a crash is a result too
            entry["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        entry["seconds"] = time.perf_counter() - t0
        out["functions"].append(entry)
    return out


def run_explain(cases: list[Case], budget: float, timeout: float, repeat: int = 1) -> dict:
    score, per_case, runs = Score(), [], []
    for case in cases:
        if case.run_path is None or case.dynamic is None:
            continue
        results = [explain_case(case, budget, timeout) for _ in range(repeat)]
        result, seconds = results[0]
        found = [
            Reported(case.name, f["code"], 0, f"{fn['function']}: {f['title']}")
            for fn in result["functions"] for f in fn["findings"] if f["scored"]
        ]
        score.add(case, case.dynamic, found, {})
        per_case.append({"case": case.name, "seconds": seconds, **result})
        runs.append({"case": case.name, "runs": [r for r, _ in results]})
        if repeat > 1:  # progress on stderr: a long run shows its flips as they come
            flipped = [f for f in flips(runs[-1:]) if f["warning_in"]]
            print(f"{case.name}: {sum(t for _, t in results):.0f} s over {repeat} runs, "
                  f"{len(flipped)} flip(s) {[(f['function'], f['code'], f['found_in']) for f in flipped]}",
                  file=sys.stderr, flush=True)
    return {"score": score, "cases": per_case, "flips": flips(runs), "repeat": repeat}


def explain_case(case: Case, budget: float, timeout: float) -> tuple[dict, float]:
    """One run of explain on one runnable copy, in a process of its own: its result and seconds."""
    t0 = time.perf_counter()
    try:
        child = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--run-one", str(case.run_path), "--budget", str(budget)],
            capture_output=True, text=True, timeout=timeout, cwd=ROOT,
        )
        last = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else ""
        result = json.loads(last) if last.startswith("{") else {"functions": [], "crash": child.stderr.strip()[-400:]}
    except subprocess.TimeoutExpired:
        result = {"functions": [], "crash": f"timed out after {timeout:.0f} s"}
    return result, time.perf_counter() - t0


def flips(runs: list[dict]) -> list[dict]:
    """The (case, function, code) findings a warning in some runs and absent in others (a borderline
    note counts as present), and, with ``"warning_in": 0``, the borderline notes that come and go."""
    out = []
    for entry in runs:
        seen: list[dict[tuple[str, str], str]] = []  # per run: (function, code) -> "warning" / "borderline"
        for result in entry["runs"]:
            found: dict[tuple[str, str], str] = {}
            for fn in result["functions"]:
                for f in fn["findings"]:
                    key = (fn["function"], f["code"])
                    if f["scored"]:
                        found[key] = "warning"
                    elif f.get("borderline") and key not in found:
                        found[key] = "borderline"
            seen.append(found)
        for key in sorted(set().union(*seen)) if seen else ():
            present = [key in run for run in seen]
            if not all(present):
                out.append({"case": entry["case"], "function": key[0], "code": key[1],
                            "found_in": sum(present), "runs": len(seen),
                            "warning_in": sum(run.get(key) == "warning" for run in seen),
                            "borderline_in": sum(run.get(key) == "borderline" for run in seen)})
    return out


def print_explain(results: dict) -> None:
    score = results["score"]
    print("levelbench.explain on the runnable copies: recall per code (found / labelled cases)")
    for code in sorted(score.labelled):
        print(f"  {code:6} {score.found[code]:>3}/{score.labelled[code]:<3}")
    print(f"\nrecall {fmt_ratio(score.recall)}   precision {fmt_ratio(score.precision)}   "
          f"findings (warning or worse) {score.reported}   cases {len(results['cases'])}")
    print("\nPer case: seconds, codes at warning or worse / all codes, problems")
    for entry in results["cases"]:
        codes_warn, codes_all, problems = [], [], []
        for fn in entry["functions"]:
            codes_all += [f["code"] for f in fn["findings"]]
            codes_warn += [f["code"] for f in fn["findings"] if f["scored"]]
            if fn["error"]:
                problems.append(f"{fn['function']} raised {fn['error']}")
            problems += [f"{fn['function']}: {p} skipped ({why})" for p, why in fn["skipped"].items() if why.startswith("failed")]
        if entry.get("crash"):
            problems.append(f"child crashed: {entry['crash']}")
        print(f"  {entry['case']:42} {entry['seconds']:6.1f}s  {','.join(sorted(set(codes_warn))) or '-':28} "
              f"all: {','.join(sorted(set(codes_all))) or '-'}")
        for p in problems:
            print(f"      ! {p}")
    print("\nMisses: case, code")
    for name, code, _ in score.misses:
        print(f"  {name:42} {code}")
    print("False findings: case, code, message")
    for f in score.false:
        print(f"  {f.case:42} {f.code}  {f.message}")
    if results.get("repeat", 1) > 1:
        flipped = [f for f in results["flips"] if f["warning_in"]]
        print(f"\nFlips over {results['repeat']} runs (warning-level findings in some runs and not others; "
              f"a borderline note counts as found): {len(flipped)}")
        for f in flipped:
            print(f"  {f['case']:42} {f['function']}: {f['code']} a warning in {f['warning_in']}, borderline in "
                  f"{f['borderline_in']}, absent in {f['runs'] - f['found_in']} of {f['runs']} run(s)")
        notes = [f for f in results["flips"] if not f["warning_in"]]
        print(f"Borderline notes in some runs and absent in others (not flips: never a warning): {len(notes)}")
        for f in notes:
            print(f"  {f['case']:42} {f['function']}: {f['code']} borderline in {f['borderline_in']} of {f['runs']}")


# ---- false positives on good libraries --------------------------------------------------------


def package_files(module: str) -> tuple[Path, list[Path]]:
    """The installed source folder of ``module`` and its .py files."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{module} is not installed: pip install it to run the false-positive part")
    folder = Path(list(spec.submodule_search_locations)[0])
    return folder, sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def run_fp() -> dict:
    packages, findings, crashes = [], [], []
    for module in FP_PACKAGES:
        folder, files = package_files(module)
        base = folder.parent.parent if "." in module else folder.parent
        count = 0
        t0 = time.perf_counter()
        for path in files:  # one file at a time, so a crash names its file
            try:
                report = lint_paths([path])
            except Exception as e:
                crashes.append({"file": str(path.relative_to(base)), "error": f"{type(e).__name__}: {e}"})
                continue
            for d in report.diagnostics:
                count += 1
                findings.append({"package": module, "file": str(path.relative_to(base)), "line": d.location.line,
                                 "code": d.code, "message": d.message})
        packages.append({"package": module, "files": len(files), "findings": count, "seconds": time.perf_counter() - t0})
    return {"packages": packages, "findings": findings, "crashes": crashes}


def print_fp(results: dict) -> None:
    print("Static doctor on installed libraries (should stay quiet)")
    print(f"{'package':24} {'files':>6} {'findings':>9} {'per 100 files':>14} {'seconds':>8}")
    for p in results["packages"]:
        print(f"{p['package']:24} {p['files']:>6} {p['findings']:>9} {100 * p['findings'] / max(p['files'], 1):>14.2f} {p['seconds']:>8.1f}")
    files = sum(p["files"] for p in results["packages"])
    total = sum(p["findings"] for p in results["packages"])
    print(f"{'total':24} {files:>6} {total:>9} {100 * total / max(files, 1):>14.2f}")
    by_code = Counter(f["code"] for f in results["findings"])
    print("by code: " + (", ".join(f"{c} {n}" for c, n in sorted(by_code.items())) or "none"))
    print("\nEvery finding: file:line code message")
    for f in results["findings"]:
        print(f"  {f['file']}:{f['line']} {f['code']} {f['message']}")
    for c in results["crashes"]:
        print(f"  CRASH {c['file']}: {c['error']}")


# ---- command line -----------------------------------------------------------------------------


def fmt_ratio(x: float) -> str:
    return "n/a" if x != x else f"{x:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("static", "variants", "explain", "fp"), help="run one part only")
    parser.add_argument("--json", metavar="PATH", help="write every number and list to this file")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per explain call (default 5)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per runnable copy before giving up")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run explain this many times per case and count the findings that flip (default 1)")
    parser.add_argument("--run-one", metavar="RUN_PY", help=argparse.SUPPRESS)  # child process of the explain part
    args = parser.parse_args()

    if args.run_one:
        print(json.dumps(explain_one(Path(args.run_one), args.budget)))
        return

    cases = load_corpus()
    print(f"{len(cases)} cases in {CORPUS.relative_to(ROOT)} ({sum(c.run_path is not None for c in cases)} runnable)\n")
    out: dict = {"cases": len(cases)}
    if args.only in (None, "static"):
        static = run_static(cases)
        print_static(static)
        out["static"] = {form: {**score.to_dict(), "ms_median": statistics.median(t), "ms_max": max(t)}
                         for form, (score, t) in static.items()}
        print()
    if args.only in (None, "variants"):
        variants = run_variants(cases)
        print_variants(variants)
        out["variants"] = variants.to_dict()
        print()
    if args.only in (None, "explain"):
        explained = run_explain(cases, args.budget, args.timeout, args.repeat)
        print_explain(explained)
        out["explain"] = {**explained["score"].to_dict(), "budget": args.budget, "cases": explained["cases"],
                          "repeat": args.repeat, "flips": explained["flips"]}
        print()
    if args.only in (None, "fp"):
        fp = run_fp()
        print_fp(fp)
        out["fp"] = fp
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str))
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
