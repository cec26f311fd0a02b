"""Reports of recorded runs: one self-contained HTML file with plots, or Markdown for an issue.

    >>> from levelbench.store import open_store
    >>> from levelbench.report import html_report, markdown_report
    >>> store = open_store()                                                  # doctest: +SKIP
    >>> open("report.html", "w").write(html_report(store.run("latest")))      # doctest: +SKIP

matplotlib (``pip install 'levelbench[plot]'``) is needed for HTML only, and imported only then.
"""

from ._html import html_report as html_report
from ._markdown import markdown_report as markdown_report
from ._model import WorkloadSection as WorkloadSection
from ._model import sections as sections
