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
from ._diff import runs_to_diff as runs_to_diff
from ._export import export_csv as export_csv
from ._export import export_json as export_json
from ._pyperf import export_pyperf as export_pyperf
from ._pytest_benchmark import NotPytestBenchmark as NotPytestBenchmark
from ._pytest_benchmark import export_pytest_benchmark as export_pytest_benchmark
from ._pytest_benchmark import Imported as Imported
from ._pytest_benchmark import import_files as import_files
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
from ._diff import FAILED as FAILED
from ._diff import IMPROVEMENT as IMPROVEMENT
from ._diff import MISSING as MISSING
from ._diff import NO_CHANGE as NO_CHANGE
from ._diff import REGRESSION as REGRESSION
from ._export import WRITERS as WRITERS
from ._merge import Merged as Merged
from ._merge import prepare_merge as prepare_merge
from ._pytest_benchmark import MAX_IMPORT_BYTES as MAX_IMPORT_BYTES
from ._pytest_benchmark import converted as converted
from ._pytest_benchmark import imported_before as imported_before
from ._pytest_benchmark import record_imported as record_imported
from ._records import as_comparison as as_comparison
from ._records import params_key as params_key
from ._records import params_text as params_text
from ._records import result_doc as result_doc
from ._records import RUN_FAILED as RUN_FAILED
from ._records import RUN_INTERRUPTED as RUN_INTERRUPTED
from ._records import RUN_OK as RUN_OK
from ._records import RUN_PARTIAL as RUN_PARTIAL
from ._records import RUN_STATUSES as RUN_STATUSES
from ._records import run_status as run_status
from ._records import stopped_by as stopped_by
from ._records import workload_result as workload_result
