"""The HTML report of a GRU sweep in headless Chromium: no console errors, nothing fetched, every
plot drawn (measured through the DevTools protocol and checked on a screenshot), hostile names shown
as text. Skips when Chromium is not installed (CI installs it: see .ci/run; the client is tests/browser.py)."""

from __future__ import annotations

import base64
import io
import json

import pytest
from browser import chromium  # noqa: F401 (the fixture)
from test_doctor_run_store import made_up_audit
from test_store_fakes import ENV, gru_sweep, record, result

from levelbench import record_audit
from levelbench.report import html_report
from levelbench.store import open_store

pytestmark = pytest.mark.browser

EVIL = "<script>alert(1)</script>"
FIGURES_JS = """JSON.stringify([...document.querySelectorAll('figure')].map(f => {
  const r = f.getBoundingClientRect(), svg = f.querySelector('svg');
  const s = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const drawn = svg ? svg.querySelector('g').getBBox() : {width: 0, height: 0};
  return {id: f.id, cls: f.className, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
          svg_w: s.width, svg_h: s.height, drawn_w: drawn.width, drawn_h: drawn.height,
          paths: svg ? svg.querySelectorAll('path').length : 0};
}))"""


def test_gru_sweep_report_renders_in_chromium_with_every_plot_drawn(tmp_path, chromium):
    pil = pytest.importorskip("PIL.Image")
    with open_store(tmp_path / "r.db") as s:
        first = record(s, gru_sweep())
        second = record(s, [*gru_sweep(slowdown=1.2, seed=1), result(EVIL, {"numpy": ("numpy", 1e-3)})])
        page_html = html_report([s.run(first), s.run(second)])
    report = tmp_path / "report.html"
    report.write_text(page_html, encoding="utf-8")

    cdp = chromium
    for domain in ("Runtime", "Log", "Page", "Network"):
        cdp.call(f"{domain}.enable")
    cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    cdp.call("Page.navigate", url=report.as_uri())
    cdp.wait_for("Page.loadEventFired")

    figures = json.loads(cdp.evaluate(FIGURES_JS))
    kinds = [f["cls"].split("plot-")[-1] for f in figures]
    assert kinds == ["medians", "distributions", "cold-start", "sweep", "history",  # the GRU sweep
                     "medians", "distributions", "cold-start"]  # the workload named <script>...
    for f in figures:
        assert f["w"] > 200 and f["h"] > 150, f
        assert f["svg_w"] > 200 and f["svg_h"] > 100 and f["drawn_w"] > 100 and f["drawn_h"] > 50, f
        assert f["paths"] > 20, f

    assert cdp.evaluate("document.querySelectorAll('script').length") == 0
    assert cdp.evaluate(f"document.body.innerText.includes({json.dumps(EVIL)})")
    assert cdp.evaluate(f"[...document.querySelectorAll('h2')].some(h => h.textContent === {json.dumps(EVIL)})")

    shot = cdp.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    png = tmp_path / "report.png"
    png.write_bytes(base64.b64decode(shot["data"]))
    image = pil.open(io.BytesIO(png.read_bytes())).convert("L")
    assert image.width >= 1000 and image.height > max(f["y"] + f["h"] for f in figures) - 5
    assert image.getextrema()[0] < 100  # some dark pixels: not a blank page
    for f in figures:  # every plot's area on the screenshot has ink in it
        crop = image.crop((int(f["x"]), int(f["y"]), int(f["x"] + f["w"]), int(f["y"] + f["h"])))
        dark = sum(crop.histogram()[:200])
        assert dark > 0.01 * crop.width * crop.height, f"figure {f['id']} looks blank on the screenshot"

    cdp.call("Runtime.evaluate", expression="1")  # flush events that arrived meanwhile
    errors = [e for e in cdp.events if
              e.get("method") == "Runtime.exceptionThrown"
              or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "assert"))
              or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
    assert errors == [], errors
    assert not [e for e in cdp.events if e.get("method") == "Page.javascriptDialogOpening"]
    requested = [e["params"]["request"]["url"] for e in cdp.events if e.get("method") == "Network.requestWillBeSent"]
    assert requested == [report.as_uri()], requested


def test_a_doctor_run_report_draws_each_interval_as_a_timeline_in_chromium(tmp_path, chromium):
    with open_store(tmp_path / "r.db") as s:
        page_html = html_report(s.run(record_audit(s, made_up_audit(), environment=ENV).run_id))
    report = tmp_path / "audit.html"
    report.write_text(page_html, encoding="utf-8")
    cdp = chromium
    for domain in ("Runtime", "Log", "Page"):
        cdp.call(f"{domain}.enable")
    cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    cdp.call("Page.navigate", url=report.as_uri())
    cdp.wait_for("Page.loadEventFired")
    figures = json.loads(cdp.evaluate(FIGURES_JS))
    assert [f["cls"] for f in figures] == ["plot plot-timeline"] * 2
    for f in figures:
        assert f["svg_w"] > 600 and f["drawn_w"] > 300 and f["drawn_h"] > 50, f
    # The labels are text a reader sees (and can search), beside the bars they name.
    text = cdp.evaluate("document.body.innerText")
    assert "still running 1.98 s after the clock stopped" in text and "fair 42.1 ms" in text
    tail = json.loads(cdp.evaluate("JSON.stringify(document.querySelector('rect.pending').getBoundingClientRect())"))
    assert tail["width"] > 100  # the missed work is drawn, not only said
    # The second sample's dispatches and transfers: marks a reader sees, and their counts in words.
    assert "1,000 eager dispatches, 1 jitted call, 2 host-to-device transfers (8 MiB)" in text
    for mark in ("rect.dispatch", "path.to-device", "path.to-host"):
        box = json.loads(cdp.evaluate(f"JSON.stringify(document.querySelector('{mark}').getBoundingClientRect())"))
        assert box["width"] >= 8 and box["height"] >= 6, (mark, box)
    cdp.call("Runtime.evaluate", expression="1")
    errors = [e for e in cdp.events if e.get("method") == "Runtime.exceptionThrown"
              or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
    assert errors == [], errors
