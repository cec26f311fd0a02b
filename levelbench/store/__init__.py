"""Results that last: every run recorded in an SQLite database, with history, diffs and exports.

    >>> from levelbench.store import open_store, diff_runs
    >>> store = open_store()                          # $LEVELBENCH_DB or ./.levelbench/results.db
    >>> d = diff_runs(store.run("latest~1"), store.run("latest"))   # doctest: +SKIP
    >>> [c.verdict for c in d.changes]                                # doctest: +SKIP
    ['no change', 'regression']
"""

from ._diff import CandidateChange as CandidateChange
from ._diff import RunDiff as RunDiff
from ._diff import diff_runs as diff_runs
from ._diff import mann_whitney_u as mann_whitney_u
from ._diff import previous_run as previous_run
from ._export import export_csv as export_csv
from ._export import export_json as export_json
from ._pyperf import export_pyperf as export_pyperf
from ._pytest_benchmark import NotPytestBenchmark as NotPytestBenchmark
from ._pytest_benchmark import export_pytest_benchmark as export_pytest_benchmark
from ._pytest_benchmark import import_pytest_benchmark as import_pytest_benchmark
from ._pytest_benchmark import load_pytest_benchmark as load_pytest_benchmark
from ._pytest_benchmark import read_pytest_benchmark as read_pytest_benchmark
from ._records import Run as Run
from ._records import StoredResult as StoredResult
from ._schema import SCHEMA_VERSION as SCHEMA_VERSION
from ._open import StoreError as StoreError
from ._open import default_path as default_path
from ._store import Store as Store
from ._store import detect_git_commit as detect_git_commit
from ._store import open_store as open_store
