"""Reports: grouping into workloads and sweeps, the self-contained HTML, escaping, Markdown, the CLI."""

from __future__ import annotations

import re

import pytest
from test_store_fakes import ENV, gru_sweep, record, result

from levelbench._results.workload import WorkloadResult
from levelbench.report import html_report, markdown_report, sections
from levelbench.store import open_store
from conftest import levelbench_cli

pytest.importorskip("matplotlib")

EVIL = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of a GRU sweep (seq 200, 25, 100, 50 as given on the command line), then a plain workload."""
    with open_store(tmp_path_factory.mktemp("report") / "r.db") as s:
        first = record(s, gru_sweep(seqs=(200, 25, 100, 50)))
        second = record(s, [*gru_sweep(seqs=(200, 25, 100, 50), slowdown=1.3, seed=1),
                            result("matmul", {"numpy": ("numpy", 2e-3), "torch": ("torch", 1.9e-3)}, params={"n": 500})],
                        environment={**ENV, "packages": {**ENV["packages"], "jax": "0.10.3"}})
        yield [s.run(first), s.run(second)]


def test_a_sweep_is_one_section_sorted_along_the_swept_parameter(runs):
    gru, matmul = sections(runs)
    assert (gru.name, gru.run.id, gru.varying, gru.axis, gru.is_sweep) == ("gru", 2, ("seq",), "seq", True)
    assert [p.params["seq"] for p in gru.points] == [25, 50, 100, 200]
    assert gru.headline.params["seq"] == 200 and gru.has_history
    assert gru.candidates == ["jax_scan", "jax_loop", "torch", "numpy"]
    assert (matmul.is_sweep, matmul.has_history, matmul.axis) == (False, False, None)
    assert matmul.candidates == ["torch", "numpy"]  # ordered by framework: jax, torch, numpy


@pytest.fixture(scope="module")
def page(runs):
    return html_report(runs)


def test_html_has_a_table_and_every_plot_inline(page):
    gru = page[page.index('id="workload-1"'):page.index('id="workload-2"')]
    kinds = re.findall(r'<figure class="plot plot-([a-z-]+)"', gru)
    assert kinds == ["medians", "distributions", "cold-start", "sweep", "history"]
    assert gru.count("<svg ") == 5 and gru.count("</svg>") == 5
    assert gru.count("<tr><td>seq=") == 16  # 4 points x 4 candidates
    matmul = page[page.index('id="workload-2"'):]
    assert re.findall(r'<figure class="plot plot-([a-z-]+)"', matmul) == ["medians", "distributions", "cold-start"]
    assert "LB003" in gru and "noisy measurement" in gru
    assert "packages.jax: &#x27;0.10.2&#x27; -&gt; &#x27;0.10.3&#x27;" in page


def test_html_is_self_contained_with_unique_ids(page):
    assert "<script" not in page.lower()
    assert not re.search(r'(?:src|href)="(?!#)', page), "a reference outside the file"
    assert "@import" not in page and "url(http" not in page
    assert 'http-equiv="Content-Security-Policy" content="default-src \'none\'' in page
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)) > 50
    for ref in set(re.findall(r'(?:href="#|url\(#)([^")]+)', page)):
        assert ref in ids, f"dangling reference #{ref}"


def test_user_text_is_escaped_everywhere(tmp_path):
    with open_store(tmp_path / "r.db") as s:
        run = s.run(record(s, [
            result(EVIL, {"<img src=x onerror=alert(2)>": ("numpy", 1e-3), "cost $5 and $6": ("jax", 2e-3),
                          "_hidden": ("torch", 1e-3)}, params={"mode": "a|b", "seed": 0}),
            WorkloadResult(EVIL, {"mode": "</td><script>alert(3)</script>", "seed": 0}, "failed", None,
                           "<b>not bold</b>"),
        ], argv=("--workload", EVIL)))
    page = html_report(run, title="<i>title</i>")
    assert "<script" not in page and "<img" not in page and "<b>" not in page and "<i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page and "&lt;b&gt;not bold&lt;/b&gt;" in page
    assert "<title>&lt;i&gt;title&lt;/i&gt;</title>" in page
    text = markdown_report(run)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script" not in text and "<img" not in text
    assert "mode=a\\|b" in text and "\\_hidden" in text


def test_markdown_has_tables_per_workload_with_history(runs):
    text = markdown_report(runs)
    assert text.startswith("# levelbench report\n")
    gru = text[text.index("## gru"):text.index("## matmul")]
    assert "Run 2, 4 point(s), swept over seq." in gru
    assert "| point | candidate | framework | median | 95% CI | vs baseline | verdict |" in gru
    table = [line for line in gru.splitlines() if line.startswith("| seq=")]
    assert [line.split("|")[1].strip() for line in table[::4]] == ["seq=25", "seq=50", "seq=100", "seq=200"]
    history = gru[gru.index("History"):]
    assert "| run | point | jax\\_scan | jax\\_loop | torch | numpy |" in history
    assert len([line for line in history.splitlines() if re.match(r"\| [12] \| seq=", line)]) == 8
    assert "- **LB003** seq=50: jax\\_loop: noisy measurement" in gru
    assert "packages.jax: '0.10.2' -&gt; '0.10.3'" in text  # GitHub shows ->


def test_cli_report_html_and_markdown(tmp_path):
    path = str(tmp_path / "r.db")
    with open_store(path) as s:
        record(s, [result("matmul", {"numpy": ("numpy", 2e-3)})])
        record(s, [result("matmul", {"numpy": ("numpy", 2e-3)}, seed=1)])
    out = tmp_path / "report.html"
    p = levelbench_cli("report", "2", "latest", "--html", str(out), "--db", path)
    assert p.returncode == 0, p.stderr
    assert p.stderr.strip() == f"wrote {out} (1 run(s))"  # 2 and latest are the same run
    assert out.read_text().count("<figure") == 3
    p = levelbench_cli("report", "1", "2", "--format", "md", "--db", path)
    assert p.returncode == 0 and "## matmul" in p.stdout and "History" in p.stdout
    p = levelbench_cli("report", "9", "--db", path)
    assert p.returncode == 2 and p.stderr.startswith("levelbench report: no run 9 in ")


def test_a_workload_without_a_successful_result_has_a_table_and_no_plots(tmp_path):
    with open_store(tmp_path / "r.db") as s:
        run = s.run(record(s, [WorkloadResult("w", {"seed": 0}, "timeout", None, "no result after 5 s")]))
    page = html_report(run)
    assert "<figure" not in page and "timeout: no result after 5 s" in page
