"""Re-run the reliability probe of 2026-12-02 (../shared/research/reliability-probe-2026-12-02.md) and say,
defect by defect, whether any is back.

Each of the log's 38 defects is reproduced by the tests named below: each test runs the log's command (or
the same thing through the library) in a scratch folder and checks what a user should get instead. They
ran red before the fix and green after. This script runs them together and prints one line per defect:

    python tests/reliability/probe_log.py            # every defect, the slow ones too (a few minutes)
    python tests/reliability/probe_log.py --quick    # leave out the tests marked slow
    python tests/reliability/probe_log.py 1 12 31    # only these defects

Exit status: 0 when no defect is back, 1 when one is, 2 when the tests could not be run. A test skipped
here (no root for a tmpfs, no Ray) is shown as "not checked here", with pytest's reason.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# defect -> (what the log found, the tests that reproduce it)
DEFECTS: dict[int, tuple[str, tuple[str, ...]]] = {
    1: ("doctor --fix truncated the file, then wrote it: a full disk left it cut off", (
        "tests/reliability/test_user_files.py::test_fix_on_a_full_disk_leaves_the_script_whole_and_says_disk_full",
        "tests/reliability/test_user_files.py::test_a_full_disk_leaves_the_file_as_it_was",
    )),
    2: ("doctor --fix overwrote edits made while it ran", (
        "tests/reliability/test_user_files.py::test_an_edit_made_while_fixing_is_kept_and_said",
        "tests/reliability/test_user_files.py::test_replace_file_refuses_a_file_that_changed_since_it_was_read",
    )),
    3: ("export -o / report --html given the database's path replaced the database", (
        "tests/reliability/test_user_files.py::test_export_and_report_refuse_to_write_over_the_database",
    )),
    4: ("a merge while a run was in progress froze an incomplete copy that later merges skipped", (
        "tests/test_store_merge.py::test_a_run_still_being_recorded_here_is_left_out_and_merged_once_it_ends",
        "tests/test_store_merge.py::test_a_copy_taken_before_its_run_ended_is_brought_up_to_date",
        "tests/test_store_merge.py::test_a_run_of_a_process_that_died_here_is_merged_as_it_is",
    )),
    5: ("doctor --fix deleted the comments on the clock lines it rewrote, # noqa included", (
        "tests/test_doctor_fix.py::test_the_comments_on_the_clock_lines_stay_where_they_were",
        "tests/test_doctor_fix.py::test_a_file_pragma_after_the_start_clock_is_not_made_a_line_of_its_own",
        "tests/test_doctor_fix_proof.py::test_every_fix_parses_and_keeps_every_comment",
    )),
    6: ("SIGTERM during run --cluster ray exited 1 silently and recorded the run ok", (
        "tests/test_cluster.py::test_sigterm_and_sighup_stop_a_cluster_run_as_ctrl_c_does_and_say_which_came",
    )),
    7: ("a workload that ended well before --timeout was recorded as a timeout", (
        "tests/reliability/test_partial_timeout.py::test_rounds_stopped_because_the_timeout_is_near_are_a_whole_result_not_a_timeout",
    )),
    8: ("merge was not all-or-nothing: interrupted or refused merges left partial or empty outputs", (
        "tests/reliability/test_merge.py::test_a_source_that_cannot_be_merged_writes_nothing",
        "tests/reliability/test_merge.py::test_a_failure_half_way_rolls_the_whole_merge_back",
        "tests/reliability/test_merge.py::test_a_full_disk_half_way_leaves_the_output_as_it_was",
        "tests/reliability/test_merge.py::test_a_stop_signal_during_a_merge_writes_nothing_and_says_so",
        "tests/reliability/test_merge.py::test_a_stop_signal_while_the_merge_is_made_visible_says_it_was_written",
        "tests/reliability/test_merge.py::test_two_merges_into_one_output_at_once_keep_every_run_once",
        "tests/reliability/test_merge.py::test_a_new_output_created_by_another_merge_meanwhile_gets_this_merge_too",
    )),
    9: ("a cluster head that died under a unit hung the run 60 s and left it abandoned with no reason", (
        "tests/test_cluster.py::test_a_head_that_dies_under_a_unit_fails_it_with_the_reason_and_ends_the_run",
    )),
    10: ("a process a workload started survived a SIGKILL of the CLI", (
        "tests/reliability/test_signals.py::test_after_sigkill_a_process_the_workload_started_does_not_outlive_it_either",
    )),
    11: ("a relative -w on a cluster named the file where ray start ran: another file was timed", (
        "tests/test_cluster.py::test_a_relative_workload_path_names_the_file_in_the_drivers_folder_not_the_nodes",
        "tests/test_cluster.py::test_a_node_that_sees_another_file_or_none_refuses_the_unit_with_the_reason",
    )),
    12: ("a safe --fix broke working code (timed tuple assignments, timed lambdas)", (
        "tests/test_doctor_fix.py::test_lb104_leaves_other_statement_forms_for_a_manual_rewrite",
        "tests/test_doctor_fix.py::test_lb104_rewrites_the_forms_it_was_written_for_and_the_result_runs",
        "tests/test_doctor_fix.py::test_lb104_in_a_class_body_gets_no_fix",
        "tests/test_doctor_fix_cli.py::test_a_timed_tuple_assignment_is_left_for_a_manual_rewrite_and_the_file_still_runs",
        "tests/test_doctor_fix_proof.py::test_each_fixed_runnable_file_runs_and_prints_the_same",
        "tests/test_doctor_fix_proof.py::test_the_seeds_fixed_parse_and_keep_every_comment",
    )),
    13: ("explain said 'nothing found' for a function that raises, arguments that do not fit, a generator", (
        "tests/reliability/test_isolated_commands.py::test_a_call_that_does_not_run_is_one_line_and_exit_1",
        "tests/reliability/test_isolated_commands.py::test_a_jax_function_that_always_raises_is_a_failure",
        "tests/test_explain_diagnosis.py::test_a_function_that_always_raises_is_an_error_naming_the_exception_and_its_line",
        "tests/test_explain_diagnosis.py::test_example_arguments_that_do_not_fit_are_an_error_with_the_signature",
        "tests/test_explain_diagnosis.py::test_a_generator_or_async_function_is_an_error_saying_nothing_ran",
    )),
    14: ("pyperf compare_to could not test exported runs for significance", (
        "tests/test_store_interchange.py::test_pyperf_compare_to_tests_significance_whatever_the_sample_counts",
    )),
    15: ("measure(async_fn) timed creating a coroutine and leaked 'never awaited' warnings", (
        "tests/reliability/test_lazy_results.py::test_an_async_function_is_reported_and_its_coroutines_are_closed",
    )),
    16: ("import of 1M raw samples used 24 GB; a failure left an empty run", (
        "tests/test_bootstrap.py::test_drawing_the_resamples_in_blocks_gives_the_same_intervals",
        "tests/test_bootstrap.py::test_a_bootstrap_of_400000_samples_needs_no_more_than_100_mb_more",
        "tests/reliability/test_interchange_files.py::test_import_of_100000_raw_timings_needs_less_than_512_mb_more_than_the_cli_itself",
        "tests/reliability/test_interchange_files.py::test_import_of_a_million_raw_timings_as_probed_needs_less_than_1_gb_more",
        "tests/reliability/test_interchange_files.py::test_a_file_that_cannot_be_converted_records_nothing_not_even_the_files_before_it",
    )),
    17: ("a stale ray_current_cluster hung run --cluster ray for minutes, deaf to SIGTERM", (
        "tests/test_cluster.py::test_a_dead_head_named_by_the_last_ray_start_is_refused_at_once_too",
        "tests/test_cluster.py::test_sigterm_is_heard_while_ray_waits_for_an_address_that_is_no_ray_head",
    )),
    18: ("explain had no timeout: a function that never returns ran until killed", (
        "tests/reliability/test_isolated_commands.py::test_explain_stops_a_function_that_never_returns_at_the_timeout",
        "tests/reliability/test_isolated_commands.py::test_explain_stops_a_module_that_hangs_at_import_and_says_so",
        "tests/reliability/test_isolated_commands.py::test_explain_help_documents_the_timeout_and_its_default",
    )),
    19: ("measure had no bound on one call (-n 99999999999999999999, a 100 s statement)", (
        "tests/reliability/test_isolated_commands.py::test_measure_stops_a_slow_statement_at_the_timeout_and_kills_it",
        "tests/reliability/test_isolated_commands.py::test_measure_options_out_of_range_are_one_line_and_exit_2",
    )),
    20: ("import of a FIFO blocked forever", (
        "tests/reliability/test_interchange_files.py::test_import_of_a_fifo_or_a_device_is_refused_at_once_not_read",
        "tests/reliability/test_interchange_files.py::test_import_refuses_a_file_over_max_bytes_before_reading_it",
    )),
    21: ("doctor --fix on an unwritable file: a traceback, later files not written, no summary", (
        "tests/reliability/test_user_files.py::test_unwritable_files_are_named_and_the_others_still_fixed",
    )),
    22: ("import of deeply nested JSON printed a RecursionError traceback", (
        "tests/reliability/test_interchange_files.py::test_import_of_deeply_nested_json_is_one_line_and_exit_2",
    )),
    23: ("explain and measure ended with the user code's exit code and printed nothing", (
        "tests/reliability/test_isolated_commands.py::test_explain_reports_an_exit_or_a_crash_of_the_function_in_one_line",
        "tests/reliability/test_isolated_commands.py::test_explain_reports_an_exit_at_import",
        "tests/reliability/test_isolated_commands.py::test_measure_reports_an_exit_or_a_crash_in_one_line",
    )),
    24: ("measure/explain --format json on stdout did not parse when the user's code printed", (
        "tests/reliability/test_isolated_commands.py::test_measure_json_on_stdout_parses_when_the_code_prints",
        "tests/reliability/test_isolated_commands.py::test_explain_json_on_stdout_parses_when_the_function_prints",
    )),
    25: ("Ctrl-C gave click's 'Aborted!' and exit 1 (doctor --fix writing, explain, measure); SIGTERM a silent 143", (
        "tests/reliability/test_user_files.py::test_ctrl_c_while_writing_fixes_says_what_was_written_and_exits_130",
        "tests/reliability/test_signals.py::test_measure_and_explain_stop_on_a_signal_with_one_line_and_exit_130",
    )),
    26: ("LEVELBENCH_DB=/dev/null read as 'disk full'", (
        "tests/reliability/test_store_media.py::test_a_device_as_the_database_is_named_as_one_not_as_a_full_disk",
        "tests/reliability/test_store_media.py::test_a_named_pipe_as_the_database_is_refused_at_once",
    )),
    27: ("a disk that filled during run gave three contradicting lines on stdout", (
        "tests/reliability/test_run_state.py::test_a_disk_that_fills_up_mid_run_never_leaves_the_run_ok",
    )),
    28: ("--levelbench-save=feature/x refused as a test path", (
        "tests/test_pytest_plugin_sessions.py::test_a_run_name_with_a_slash_written_with_equals_is_a_name",
        "tests/test_pytest_plugin_sessions.py::test_contradictions_and_bad_values_are_usage_errors",
    )),
    29: ("hints named options the command does not have; a foreign merge source got 'no such table: meta'", (
        "tests/reliability/test_merge.py::test_an_output_that_is_not_a_results_database_is_refused_naming_o",
        "tests/reliability/test_merge.py::test_a_source_that_cannot_be_merged_writes_nothing",
        "tests/test_pytest_plugin_sessions.py::test_a_database_problem_names_levelbench_db_not_an_option_pytest_lacks",
    )),
    30: ("import accepted bad iterations and dates, imported one file twice, misnamed bad samples", (
        "tests/reliability/test_interchange_files.py::test_import_refuses_bad_values_naming_them_and_records_nothing",
        "tests/reliability/test_interchange_files.py::test_a_datetime_without_a_zone_is_utc_as_pytest_benchmark_wrote_it_and_none_is_the_time_of_import",
        "tests/reliability/test_interchange_files.py::test_the_same_file_imported_twice_is_recorded_once",
        "tests/reliability/test_interchange_files.py::test_a_file_imported_by_an_older_levelbench_is_known_as_merge_knows_it",
    )),
    31: ("doctor --fix DIR followed symbolic links out of DIR", (
        "tests/reliability/test_user_files.py::test_fix_does_not_follow_a_link_out_of_the_tree",
    )),
    32: ("emoji shortcodes in user text were rendered (:OK: as an emoji)", (
        "tests/reliability/test_hostile_input.py::test_emoji_codes_in_a_workload_path_are_shown_as_typed_in_the_progress_bar_too",
    )),
    33: ("'interrupted ()' with empty parentheses; a cluster run stopped by SIGHUP said Ctrl-C", (
        "tests/test_doctor_parts.py::test_a_signal_while_workers_check_a_long_script_stops_them_and_exits_130",
        "tests/test_cluster.py::test_sigterm_and_sighup_stop_a_cluster_run_as_ctrl_c_does_and_say_which_came",
    )),
    34: ("the fix summary miscounted files; --fix-only '' accepted; compact notebooks rewritten, BOMs dropped", (
        "tests/test_doctor_fix_cli.py::test_the_summary_counts_files_once_and_unreadable_files_as_unread",
        "tests/test_doctor_fix_cli.py::test_fix_only_naming_no_rule_is_a_usage_error",
        "tests/test_doctor_fix.py::test_fix_only_that_names_no_rule_is_refused",
        "tests/test_doctor_fix_cli.py::test_a_notebook_keeps_its_compact_layout_and_byte_order_mark",
        "tests/test_doctor_fix.py::test_a_compact_notebook_stays_compact_and_its_byte_order_mark_stays",
    )),
    35: ("# noqa: LB999 silently ignored; 'sub/**/bench.py' missed sub/bench.py; '[' accepted", (
        "tests/test_doctor_rules.py::test_lb118_a_suppression_naming_no_rule",
        "tests/test_doctor_rules.py::test_lb118_not_reported_for_real_codes_other_tools_and_strings",
        "tests/test_doctor_config.py::test_double_star_slash_also_stands_for_no_directory",
        "tests/test_doctor_config.py::test_a_bad_configuration_is_one_line_with_file_key_expected_got_and_exit_2",
    )),
    36: ("after a merge, history was not oldest first and latest was the last merged", (
        "tests/test_store_merge.py::test_history_and_latest_follow_start_times_whatever_the_merge_order",
        "tests/test_store_merge.py::test_diff_with_no_runs_named_compares_with_the_run_that_started_before",
    )),
    37: ("files written through -o were mode 0600", (
        "tests/reliability/test_user_files.py::test_exported_files_get_the_umask_mode",
        "tests/reliability/test_interchange_files.py::test_export_o_writes_a_new_file_with_the_mode_the_umask_gives",
        "tests/reliability/test_interchange_files.py::test_export_o_over_an_existing_file_keeps_that_files_mode",
        "tests/reliability/test_user_files.py::test_replace_file_keeps_the_mode_and_gives_a_new_file_the_umask",
    )),
    38: ("leftovers: schema table at v2, the cache warning's source line, a folder x.py 'does not exist', "
         "wording slips", (
        "tests/test_store.py::test_docs_schema_table_lists_every_version_the_code_writes",
        "tests/reliability/test_caches.py::test_the_peak_cache_warning_points_at_the_users_code",
        "tests/test_isolation.py::test_builder_mistakes_are_refused_with_the_fix",
        "tests/test_explain_cli.py::test_a_missing_name_in_a_module_of_private_functions_lists_them_and_how_to_name_one",
        "tests/test_ipython_magics.py::test_an_empty_statement_names_the_magic_typed_in_its_example",
        "tests/reliability/test_isolated_commands.py::test_explain_budget_nan_is_one_line_and_exit_2",
    )),
}
# No write path opens a user file itself: the grep, run with every re-run.
ALWAYS = ("tests/reliability/test_user_files.py::test_no_write_path_opens_a_user_file_with_w_directly",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("defects", nargs="*", type=int, help="only these defect numbers (default: all)")
    parser.add_argument("--quick", action="store_true", help="leave out the tests marked slow")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.defects) - set(DEFECTS))
    if unknown:
        parser.error(f"no defect {unknown} in the log's table: expected some of {sorted(DEFECTS)}")
    chosen = {n: DEFECTS[n] for n in (args.defects or sorted(DEFECTS))}
    tests = sorted({t for _, ts in chosen.values() for t in ts} | set(ALWAYS))
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "junit.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                   *(["-m", "not slow"] if args.quick else []), *tests]
        print(f"running {len(tests)} tests for {len(chosen)} defects ...", file=sys.stderr)
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL)
        if not report.exists():
            print("probe_log: pytest wrote no report: run the command by hand to see why:\n  " + " ".join(command),
                  file=sys.stderr)
            return 2
        outcomes = _outcomes(report)
    back = 0
    for number, (what, names) in chosen.items():
        results = [(name, _outcome_of(name, outcomes)) for name in names]
        failed = [n for n, (state, _) in results if state == "failed"]
        unchecked = [(n, why) for n, (state, why) in results if state in ("skipped", "missing")]
        if failed:
            back += 1
            verdict = "BACK: " + ", ".join(n.split("::")[-1] for n in failed)
        elif len(unchecked) == len(results):
            verdict = "not checked here: " + "; ".join(why for _, why in unchecked)
        else:
            verdict = "fixed" + (f" ({len(unchecked)} of its tests not checked here)" if unchecked else "")
        print(f"{number:>3}  {verdict:<12}  {what}")
    grep = [_outcome_of(name, outcomes)[0] for name in ALWAYS]
    print(f"  -  {'fixed' if grep == ['passed'] else 'BACK'}         no write path opens a user file itself")
    back += grep != ["passed"]
    print(f"\n{back} defect(s) back of {len(chosen)}" if back else f"\n0 defects: all {len(chosen)} hold")
    return 1 if back else 0


def _outcomes(report: Path) -> dict[str, tuple[str, str]]:
    """nodeid -> (passed | failed | skipped, reason) from pytest's JUnit XML."""
    found: dict[str, tuple[str, str]] = {}
    for case in ET.parse(report).iter("testcase"):
        module = case.get("classname", "").replace(".", "/") + ".py"
        nodeid = f"{module}::{case.get('name')}"
        state, why = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                state, why = "failed", child.get("message", "")
            elif child.tag == "skipped":
                state, why = "skipped", child.get("message", "")
        found[nodeid] = (state, why)
    return found


def _outcome_of(name: str, outcomes: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """A test's outcome; a parametrized name stands for all its cases."""
    cases = [v for k, v in outcomes.items() if k == name or k.startswith(name + "[")]
    if not cases:
        return "missing", f"{name} did not run (deselected, or renamed: update probe_log.py)"
    for state in ("failed", "passed"):
        if any(s == state for s, _ in cases):
            return state, ""
    return cases[0]


if __name__ == "__main__":
    sys.exit(main())
