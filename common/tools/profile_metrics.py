"""profile_metrics.py - what `make profile LAB=labN` measures, in one place:
on a GPU with Nsight Compute (LABS), on the CPU emulator with its exact
counts (EMU_LABS, further down).

For each lab, the few rows of the side-by-side table, chosen from what that
lab's handout discusses: divergent warps and instruction issue (labs 1-2),
barriers and shared-memory bank conflicts (labs 3-4), DRAM traffic and
bandwidth (labs 2, 5, 6), the serial chain of look-back (lab 6).  A lab
without an entry (lab 7) gets DEFAULT_ROWS.

A row is a dict:
  label    what the table calls it
  num      Nsight Compute metrics (sm_90 names) whose values are added up,
           over every kernel of the launch and over the list
  den      None, "n" (the number of input elements) or a list of metrics
           added up the same way: the row shows num / den
  combine  "sum": add over the kernels (counters);  "time": a kernel-time
           weighted mean (percentages, which do not add)
  scale    the value is multiplied by it before printing (ns -> us)
  fmt      how the value is printed
  means    one phrase printed beside the numbers
  why      why this lab's table has it (for whoever edits the table)
"""

# Counters every row builds on.
TIME = "gpu__time_duration.sum"                       # ns, per kernel
INST = "smsp__inst_executed.sum"                      # warp instructions executed
LANES_ON = "smsp__thread_inst_executed_pred_on.sum"   # thread instructions not predicated off
DRAM_RD = "dram__bytes_read.sum"
DRAM_WR = "dram__bytes_write.sum"
DRAM_PCT = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
BRANCH_UNIFORM = "smsp__sass_average_branch_targets_threads_uniform.pct"
BARRIER_STALL = "smsp__warp_issue_stalled_barrier_per_warp_active.pct"
SHARED_LD = "smsp__sass_inst_executed_op_shared_ld.sum"    # warp-level shared loads
SHARED_ST = "smsp__sass_inst_executed_op_shared_st.sum"
WAVES_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"  # passes they took
WAVES_ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
CONFLICTS = ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]

ROW_TIME = dict(label="kernel time", num=[TIME], den=None, combine="sum", scale=1e-3,
                fmt="%.1f us", means="all kernels of one launch (ncu locks clocks to base)",
                why="the number every other row explains")
ROW_INST = dict(label="warp instructions / element", num=[INST], den="n", combine="sum",
                scale=1, fmt="%.3f", means="issue work per input element; the tree's cost",
                why="handouts 1-4 argue the trees are limited by instruction issue")
ROW_LANES = dict(label="useful lanes / warp instr.", num=[LANES_ON], den=[INST],
                 combine="sum", scale=1, fmt="%.1f of 32",
                 means="lanes doing work per issued instruction; 32 = no divergence",
                 why="a divergent warp issues for 32 lanes while few work; the `if` of "
                     "the interleaved tree is predicated, so this shows it and branches do not")
ROW_BRANCH = dict(label="branch uniformity", num=[BRANCH_UNIFORM], den=None, combine="time",
                  scale=1, fmt="%.1f %%",
                  means="branches all lanes of a warp took the same way",
                  why="the classic divergence measure; near 100 % when nvcc predicates the `if`")
ROW_DRAM_B = dict(label="DRAM bytes / element", num=[DRAM_RD, DRAM_WR], den="n",
                  combine="sum", scale=1, fmt="%.2f",
                  means="traffic per int32 element: 4 read for a reduction, 8 for a scan",
                  why="labs 5-6 count passes over memory: 16 (hierarchical), 12, 8 (one pass)")
ROW_DRAM_PCT = dict(label="DRAM throughput", num=[DRAM_PCT], den=None, combine="time",
                    scale=1, fmt="%.1f %% of peak",
                    means="how busy memory was; near peak = bandwidth-bound",
                    why="the handouts' fraction of a copy, seen from the memory side")
ROW_BARRIER = dict(label="warps stalled at a barrier", num=[BARRIER_STALL], den=None,
                   combine="time", scale=1, fmt="%.1f %%",
                   means="share of warps waiting at __syncthreads() per cycle",
                   why="labs 3-4: two barriers per step and blocks of 1,024 threads")
ROW_PASSES_LD = dict(label="passes / shared load", num=[WAVES_LD], den=[SHARED_LD],
                     combine="sum", scale=1, fmt="%.2f",
                     means="1 = conflict-free; 8 = the 8-way conflict of a stride of 8",
                     why="lab 4 section 4.3: phase 1 of three-phase reads with stride 8")
ROW_PASSES_ST = dict(ROW_PASSES_LD, label="passes / shared store", num=[WAVES_ST],
                     den=[SHARED_ST], means="the same for stores")
ROW_CONFLICTS = dict(label="bank conflicts (ld + st)", num=CONFLICTS, den=None, combine="sum",
                     scale=1, fmt="%.0f", means="extra passes that bank conflicts cost",
                     why="ncu's own count, next to the passes it adds up to")

DEFAULT_ROWS = [ROW_TIME, ROW_DRAM_B, ROW_DRAM_PCT]

LABS = {
    # interleaved tree: idle and divergent warps, issue-bound (handout 1, section 7)
    "lab1": [ROW_TIME, ROW_INST, ROW_LANES, ROW_BRANCH, ROW_DRAM_PCT],
    # convergent tree, then coarsening up to copy bandwidth (handout 2, section 5)
    "lab2": [ROW_TIME, ROW_INST, ROW_LANES, ROW_DRAM_B, ROW_DRAM_PCT],
    # Kogge-Stone: instructions and barriers, not memory (handout 3, section 8)
    "lab3": [ROW_TIME, ROW_INST, ROW_BARRIER, ROW_PASSES_LD, ROW_DRAM_PCT],
    # Brent-Kung and three-phase: barriers, 8-way bank conflicts (handout 4, 4.3 and 7)
    "lab4": [ROW_TIME, ROW_INST, ROW_BARRIER, ROW_PASSES_LD, ROW_PASSES_ST, ROW_CONFLICTS],
    # hierarchical scans: passes over memory (handout 5, section 4)
    "lab5": [ROW_TIME, ROW_DRAM_B, ROW_DRAM_PCT],
    # single pass: 8 bytes per element, and the chain's latency (handout 6, 3.5 and 7)
    "lab6": [ROW_TIME, ROW_DRAM_B, ROW_DRAM_PCT, ROW_INST],
}

# ---- the emulator's rows (make profile without a GPU) ------------------------
# Exact counts the CPU emulator keeps in a counted build (emu-nvcc --count,
# common/emu/README.md "Counters"), one launch of the variant: the same row
# shape, but `num` and `den` name the counts of the emulator's report
# (branches, divergent, barriers, blocks, shared_loads, shared_stores,
# wavefronts_ld, wavefronts_st, conflicts_ld, conflicts_st) instead of ncu
# metrics.  Time and instructions have no emulator row: the emulator runs
# kernels on a CPU, so they would describe the CPU.  Global traffic has one
# (global_load_bytes + global_store_bytes): every access of device memory,
# where a GPU's DRAM bytes are what its caches let through.
EROW_DIVERGENT = dict(label="divergent branches / block", num=["divergent"], den=["blocks"],
                      combine="sum", scale=1, fmt="%.1f",
                      means="warp-level if/loop executions whose lanes went both ways",
                      why="labs 1-2: the interleaved tree diverges in every warp for the first "
                          "steps, the convergent one only in the last warp's five")
EROW_DIV_SHARE = dict(label="divergent / warp-level branch", num=["divergent"],
                      den=["branches"], combine="sum", scale=100, fmt="%.1f %%",
                      means="share of branches (conditions of if/for/while) that diverged",
                      why="the emulator's branch uniformity is 100 % minus this (a GPU's "
                          "predicated `if` is no branch there; here every condition counts)")
EROW_BARRIERS = dict(label="barriers / block", num=["barriers"], den=["blocks"],
                     combine="sum", scale=1, fmt="%.1f",
                     means="__syncthreads() each block crossed; every warp waits at each",
                     why="labs 3-4: two barriers per Kogge-Stone step against one per "
                         "Brent-Kung level; labs 1-2: one per tree step")
EROW_PASSES_LD = dict(label="wavefronts / shared load", num=["wavefronts_ld"],
                      den=["shared_loads"], combine="sum", scale=1, fmt="%.2f",
                      means="1 = conflict-free; 8 = the 8-way conflict of a stride of 8",
                      why="lab 4 section 4.3: phase 1 of three-phase reads with stride 8; "
                          "Nsight Compute's passes per request, counted exactly")
EROW_PASSES_ST = dict(EROW_PASSES_LD, label="wavefronts / shared store", num=["wavefronts_st"],
                      den=["shared_stores"], means="the same for stores")
EROW_CONFLICTS = dict(label="bank conflicts (ld + st)", num=["conflicts_ld", "conflicts_st"],
                      den=None, combine="sum", scale=1, fmt="%.0f",
                      means="wavefronts beyond the fewest the bytes need",
                      why="what ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared counts")

EROW_GLOBAL_B = dict(label="global bytes / element",
                     num=["global_load_bytes", "global_store_bytes"], den="n", combine="sum",
                     scale=1, fmt="%.2f",
                     means="device memory the threads loaded and stored per int32 element",
                     why="the emulator's side of ncu's DRAM bytes: every access counted, no "
                         "cache merging them (common/tools/traffic.py has each design's minimum)")

EMU_DEFAULT_ROWS = [EROW_BARRIERS, EROW_DIVERGENT, EROW_CONFLICTS, EROW_GLOBAL_B]

EMU_LABS = {
    "lab1": [EROW_DIVERGENT, EROW_DIV_SHARE, EROW_BARRIERS],
    "lab2": [EROW_DIVERGENT, EROW_DIV_SHARE, EROW_BARRIERS, EROW_GLOBAL_B],
    "lab3": [EROW_BARRIERS, EROW_PASSES_LD, EROW_PASSES_ST, EROW_CONFLICTS],
    "lab4": [EROW_BARRIERS, EROW_PASSES_LD, EROW_PASSES_ST, EROW_CONFLICTS],
}

# Emulator runs are slower than a GPU's by about a thousand: a smaller n,
# still many blocks (2^16 int32 is 64 sections of lab 3 and lab 4).
EMU_DEFAULT_N = "2^16"


def emu_rows_for(lab):
    """The emulator table's rows for a lab."""
    return EMU_LABS.get(lab, EMU_DEFAULT_ROWS)


def gpu_only_labels(lab):
    """The lab's GPU rows that the emulator cannot count (time,
    instructions, lanes, DRAM): named under the emulator's table."""
    counted = {"branch uniformity": EROW_DIV_SHARE, "passes / shared load": EROW_PASSES_LD,
               "passes / shared store": EROW_PASSES_ST,
               "bank conflicts (ld + st)": EROW_CONFLICTS, "DRAM bytes / element": EROW_GLOBAL_B}
    return [row["label"] for row in rows_for(lab) if row["label"] not in counted]


# Variants whose largest n is below the default (or the N asked for): lab
# 1's single block takes at most 2 * 512 elements.
VARIANT_MAX_N = {("lab1", "single-block"): 1024}


def rows_for(lab):
    """The table's rows for a lab (DEFAULT_ROWS where it has none)."""
    return LABS.get(lab, DEFAULT_ROWS)


def metrics_for(lab):
    """Every ncu metric the lab's rows need, each once, in a stable order."""
    names = [TIME]
    for row in rows_for(lab):
        for m in row["num"] + (row["den"] if isinstance(row["den"], list) else []):
            if m not in names:
                names.append(m)
    return names
