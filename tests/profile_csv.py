#!/usr/bin/env python3
"""profile_csv.py - ncu_csv.py (common/tools) on the kit's hand-made ncu CSV
samples (tests/data/ncu-*.csv, in the layout of `ncu --csv --page details`):
numbers with thousands separators, scaled units, n/a, the ==PROF== lines
and the program's output around the CSV, demangled kernel names, and a
row's sum, ratio, per-element and time-weighted values.  Run by
tests/profile.sh; exit 1 on a failure.
"""
import io
import os
import sys
import unittest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "common", "tools"))
import ncu_csv  # noqa: E402
import profile_metrics as pm  # noqa: E402

N = 1 << 24  # the samples' n


def sample(name):
    """The launches of one sample file."""
    with open(os.path.join(TOP, "tests", "data", name)) as f:
        return ncu_csv.launches(f.read())


class Numbers(unittest.TestCase):
    def test_grouped_and_plain(self):
        self.assertEqual(ncu_csv.number("1,048,576", ""), 1048576)
        self.assertEqual(ncu_csv.number("41.25", "%"), 41.25)
        self.assertEqual(ncu_csv.number("12,345.5", "byte"), 12345.5)

    def test_units_to_base(self):
        self.assertAlmostEqual(ncu_csv.number("118.40", "usecond"), 118400)
        self.assertEqual(ncu_csv.number("2", "Mbyte"), 2e6)

    def test_not_a_number(self):
        self.assertIsNone(ncu_csv.number("n/a", ""))
        self.assertIsNone(ncu_csv.number("", "byte"))

    def test_kernel_base_name(self):
        self.assertEqual(ncu_csv.base_name("void scan_sections<int, Sum>(const T1 *, T1 *)"),
                         "scan_sections")
        self.assertEqual(ncu_csv.base_name("reduce_blocks"), "reduce_blocks")


class Reports(unittest.TestCase):
    def test_launches_in_order(self):
        runs = sample("ncu-lab5-yours.csv")
        self.assertEqual([r["kernel"] for r in runs],
                         ["scan_sections", "scan_sections", "add_section_prefix"])
        self.assertEqual(runs[2]["metrics"]["dram__bytes_write.sum"], 67108864)

    def test_no_report(self):
        self.assertEqual(ncu_csv.launches("==PROF== No kernels were profiled.\n"), [])

    def test_sum_per_element_and_weighted(self):
        runs = sample("ncu-lab5-yours.csv")
        self.assertAlmostEqual(ncu_csv.row_value(runs, pm.ROW_TIME, N), 160.0)
        self.assertAlmostEqual(ncu_csv.row_value(runs, pm.ROW_DRAM_B, N),
                               268566528 / N)
        self.assertAlmostEqual(ncu_csv.row_value(runs, pm.ROW_DRAM_PCT, N), 80.5)

    def test_ratio_and_missing(self):
        ref = sample("ncu-lab4-ref.csv")
        self.assertAlmostEqual(ncu_csv.row_value(ref, pm.ROW_PASSES_LD, N), 5.0)
        self.assertIsNone(ncu_csv.row_value(ref, pm.ROW_PASSES_ST, N))  # n/a
        self.assertEqual(ncu_csv.row_value(ref, pm.ROW_CONFLICTS, N), 6291456)
        self.assertIsNone(ncu_csv.row_value([], pm.ROW_TIME, N))


class Table(unittest.TestCase):
    def test_every_row_is_complete(self):
        keys = {"label", "num", "den", "combine", "scale", "fmt", "means", "why"}
        for lab in list(pm.LABS) + ["lab7"]:
            for row in pm.rows_for(lab):
                self.assertEqual(set(row), keys, row["label"])
                self.assertIn(row["combine"], ("sum", "time"))
        self.assertEqual(pm.metrics_for("lab1")[0], "gpu__time_duration.sum")
        for lab in list(pm.EMU_LABS) + ["lab7"]:
            for row in pm.emu_rows_for(lab):
                self.assertEqual(set(row), keys, row["label"])

    def test_emulator_counts_as_rows(self):
        runs = [{"kernel": "k", "metrics": {"divergent": 12, "branches": 48, "blocks": 2,
                                            "barriers": 20, "wavefronts_ld": 16,
                                            "shared_loads": 2}}]
        self.assertEqual(ncu_csv.row_value(runs, pm.EROW_DIVERGENT, N), 6)
        self.assertEqual(ncu_csv.row_value(runs, pm.EROW_DIV_SHARE, N), 25)
        self.assertEqual(ncu_csv.row_value(runs, pm.EROW_PASSES_LD, N), 8)
        self.assertIn("kernel time", pm.gpu_only_labels("lab1"))
        self.assertNotIn("bank conflicts (ld + st)", pm.gpu_only_labels("lab4"))


if __name__ == "__main__":
    log = io.StringIO()  # unittest's report, shown only on a failure
    result = unittest.TextTestRunner(stream=log).run(
        unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    ok = result.wasSuccessful()
    if not ok:
        print(log.getvalue())
    print("%s profile_csv: %d checks of ncu_csv.py on the hand-made samples"
          % ("ok  " if ok else "FAIL", result.testsRun))
    sys.exit(0 if ok else 1)
