/*
 * tunables.h - every number that decides how long the grader waits and how
 * much it runs, each with its reason.  Change them here and nowhere else.
 */
#ifndef GRADER_TUNABLES_H
#define GRADER_TUNABLES_H

/* Limit per test run: generous next to any suite case (the largest take
 * well under a second on a GPU and a few seconds emulated); a kernel that
 * is still running after this is hung, not slow.  (30 s on a GPU made one
 * hanging student hold a class batch for 5 minutes.) */
#define LIMIT_RUN_GPU_S 10.0
#define LIMIT_RUN_EMU_S 60.0

/* The grader kills a run this long after the binary's own watchdog should
 * have ended it: time for the watchdog's report to be written. */
#define LIMIT_KILL_GRACE_S 10.0

/* The emulator reports a deadlock after this long without a block
 * finishing or a barrier opening.  Suite cases finish a block or open a
 * barrier every few milliseconds even on a loaded 2-core machine, so 3 s
 * of no progress is a deadlock; 30 s (the emulator's default for people's
 * own programs) made a lab 6 submission with six deadlocking cases take
 * 187 s to grade. */
#define LIMIT_EMU_STALL_S 3.0

/* Hung runs (timeouts and deadlocks) allowed per test group before the
 * group's remaining cases are marked hung without running: one hang is a
 * verdict, the next confirms it, more only make the student wait. */
#define LIMIT_HANGS_PER_GROUP 2

/* Cases per process.  One CUDA process start costs 0.3 s of driver time
 * (measured on an H200, docs/perf-notes.md), so the cases of a group run
 * in one process; the cap bounds the raw outputs on disk at once.  96
 * holds the largest group of the suites (lab 7's tuple, 93 cases) in one
 * process: lab 7's skeleton took 3.2 s to grade against 3.7 s with 64
 * (medians of six, H200, docs/device-runs/2026-11-29-h200-units/lab7-units.txt).  Smaller units in a batch, so that a
 * witness first in line would wait less for the runs already going, made a
 * class slower (3.69 s a student with 16, 3.14 s with 64) and the wait no
 * shorter: that wait is the witnessed program's own start. */
#define LIMIT_CASES_PER_UNIT 96

/* Correctness lanes on a GPU (correctness.h): groups run at once, one lane
 * per two cores, at most this many.  The suites have 2-8 groups; on an
 * H100 lab 7's four largest groups took 2.3-2.9 s each one after another,
 * while the GPU was busy a fraction of the time.  More is not faster:
 * with up to 8 lanes and groups cut into pieces of their own, labs 1-4's
 * correctness took 1.1-1.6 s against 0.9-1.1 s in 2-3 lanes of whole
 * groups, and labs 5-7's at most 0.5 s less (H200, 16 cores, 2026-11-28):
 * CUDA processes starting at once on one GPU slow each other down.  A
 * batch runs one lane per student: its students already fill the cores.
 * The groups' emulated cases ([emu] tests) get as many lanes again beside
 * these (lanes.h): they use no GPU. */
#define LANES_MAX 4

/* Speed tests: timed runs after warm-up.  The reference runs one round;
 * a submission with no witness (GRADE_WITNESS=off, or auto without ncu)
 * runs up to SPEED_ROUNDS rounds alternating student and reference (the
 * best median of each is compared, so a clock change during one round
 * cannot decide the grade).  A round is
 * run only while it could raise a score: once every test is within
 * SPEED_FULL_RATIO of the reference's time, the points are all given, and
 * a second round cost lab 7 six seconds on an H100 to change nothing. */
#define SPEED_REPS 50
#define SPEED_WARMUP 5
#define SPEED_ROUNDS 2
/* Full speed points up to this multiple of the reference's time, then
 * SPEED_FULL_RATIO / ratio (continuous there; CS149 jumps from 1 to 1/1.2). */
#define SPEED_FULL_RATIO 1.2
/* No speed points past this multiple of the reference's time (the curve
 * would still give 0.12 there): ten times slower is another algorithm than
 * the lab's, not a slower version of it, and a ratio that large is more
 * often a broken timing than a slow kernel. */
#define SPEED_ZERO_RATIO 10.0
/* Outputs of large cases kept once checked (judge.c), so that a speed
 * test's later rounds compare instead of checking again: one per speed test
 * of the largest suite (three), each up to 512 MiB (2^26 int64). */
#define VERIFIED_KEEP 4
/* Outputs under this many words are not kept: checking them again costs
 * less than keeping and comparing them (1 Mi words, 4 MiB). */
#define VERIFIED_MIN_WORDS ((size_t)1 << 20)
/* What a run may write beyond two copies of its output (its result file)
 * and the guard bands: the harness's log and the JSON around the words,
 * a few lines each; past this a run is filling the box, and its file
 * size limit stops it there. */
#define CASE_FILE_SLACK_BYTES (16ULL << 20)
/* Lanes are balanced by each group's expected cost (correctness.c): a
 * process start costs about this on a GPU (ten CUDA process starts took
 * 3.0-3.3 s on an H200), and a case's bytes pass the host (made, written,
 * read back, checked) at about this rate in all. */
#define COST_PROCESS_START_S 0.3
#define COST_HOST_BYTES_PER_S 1e9

/* The grader's own helper commands (nvidia-modprobe, the sandbox's probe)
 * take well under a second; one that takes this long is stuck. */
#define LIMIT_HELPER_S 30

/* After killing a run's process group, how long its members are waited
 * for (reaped, so no zombie counts against the sandbox user's process
 * limit): a killed process goes in milliseconds. */
#define LIMIT_REAP_S 5.0

/* A sanitizer run may take this many times a test's usual time limit:
 * compute-sanitizer's tools instrument every access (racecheck every
 * shared-memory one) and add their own start, so an honest run takes
 * several times its plain time; a hang still ends. */
#define SANITIZE_SLOWDOWN 4.0

/* The scratch folder goes to /dev/shm when this much is free there: the
 * largest case writes two copies of 2^28 words (2 GiB) at once. */
#define SCRATCH_SHM_MIN_BYTES (6.0 * (1 << 30))

/* A build: nvcc on a large lab takes under a minute; ten is a hang. */
#define LIMIT_BUILD_S 600.0

/* Picking a lab's file from a submission (grader/pick.h): how deep below
 * the submission's root to look (a whole repository unpacked under a
 * folder of the student's name puts labs/<dir>/<file> at depth 4), and
 * how many files of that name to list when they are ambiguous. */
#define PICK_MAX_DEPTH 6
#define PICK_MAX_CANDIDATES 16

/* A speed run's time is believed only up to this multiple of a device
 * copy's throughput for the same bytes, the copy timed by the reference's
 * process (the student's process could lie about both).  The references
 * reach at most 1.03 of a copy (docs/perf-notes.md); a reduction only reads,
 * which can run a little faster than copying the same bytes, hence 1.25. */
#define SPEED_MAX_COPY_RATIO 1.25

/* The witness (witness.h): the student's speed case run once more under
 * ncu, outside the student's process, which times every kernel of it.
 * Over three witnessed runs of each lab 1-4 speed case, the mean kernel
 * time of the first 4 calls (the first launch included) differed by at
 * most 0.35 %, that of 11 calls by at most 0.32 % (H200,
 * tests/gpu/device-witness-spread.sh), so 4 calls: the first launch, no
 * warm-up, 3 timed.  Each call costs ncu about 6 ms (2 + 8 calls took
 * 0.07 s, 0 + 3 took 0.02 s: tests/gpu/device-witness-steps.sh); ncu's
 * own start (0.6 s) and its first launch (0.6-0.7 s) cost far more. */
#define WITNESS_WARMUP 0
#define WITNESS_REPS 3
/* The most speed cases one witness process runs (witness_unit): a suite
 * has at most three today; with more, each is witnessed alone. */
#define WITNESS_UNIT_MAX 8
/* A witness run's own time limit: ncu's start and its per-kernel work
 * come on top of the binary's, which the grader's usual limit is sized
 * for. */
#define WITNESS_TIMEOUT_S 180.0
/* The longest key witness_cache.h keeps: the reference's path, the GPU's
 * name, ncu's path and the case's options fit in a few hundred bytes; a
 * longer one (a kit in a very deep folder) is not kept, only measured. */
#define WITNESS_CACHE_KEY_MAX 2048
/* 1: the witness runs hold the GPU alone (gpulock.h), like the speed
 * rounds.  ncu's kernel durations include any time another process's
 * kernels take the GPU from them, and its kernels would slow another
 * worker's timed runs; a shared GPU costs fairness in both directions. */
#define WITNESS_GPU_ALONE 1
/* How long a batch keeps the reference's timed round for the other graders
 * of its GPU (ref_round.h): timing it for every student cost 0.4 s of lab
 * 6's 3.0 s alone on the GPU (H200, a class of 41); a class of 200 takes
 * about ten minutes, so the reference is timed again some five times
 * during it, and no student is held against a time of another GPU state
 * more than two minutes old. */
#define REF_ROUND_MAX_AGE_S 120.0

/* Size of the private /tmp and /dev/shm a sandboxed build or run gets
 * (fsview.h).  nvcc, g++ and the lab binaries write into the scratch
 * folder (TMPDIR), not there; these tmpfs count against memory, so they
 * are bounded, at a size no tool of the kit comes near. */
#define SANDBOX_TMPFS_SIZE "256m"

/* The student's box (work/box) as a whole, as root a tmpfs of this much
 * for the builds (boxfs.h) plus what the suite's cases may write at once
 * (computed from them: boxfs_bytes).  A build there writes the sources,
 * the objects and two binaries, with nvcc's temporary files (TMPDIR is
 * the box): lab 7's emulator build took 9 MiB, a GPU build some tens of
 * MiB; 1 GiB leaves a wide margin and still stops a run that fills it. */
#define BOX_BUILD_BYTES (1ULL << 30)

/* A prebuild (harness objects and, emulated, the emulator's runtime, as
 * the grader's own user before any student's build): the emulator's
 * runtime takes a few minutes on a 2-core machine, so fifteen. */
#define LIMIT_PREBUILD_S 900.0

/* Asking make which backend and architecture it picks: a second; a
 * minute is a hang (a Makefile waiting on a broken nvidia-smi). */
#define LIMIT_MAKE_QUERY_S 60.0

/* The largest submitted file, in bytes.  A lab's file is some tens of KiB;
 * a larger one is refused unread (FORBIDDEN), never passed on unscanned:
 * padding a file past the text scan's reach was a way around it. */
#define SUBMISSION_FILE_MAX_BYTES (1 << 20)

/* On the emulator, where speed is not graded, each speed test's line says
 * how much global memory the student's kernels moved per element, from one
 * run of the test's input cut to this many elements (--traffic): enough
 * blocks and tiles for every pass of a design to show (2^16 int32 is 64
 * sections of lab 3, 8 tiles of lab 6), about half a second emulated. */
#define EMU_TRAFFIC_N ((size_t)1 << 16)

/* The seed of every speed test's input: fixed, so that the student's
 * binary and the reference time the very same bytes. */
#define SPEED_SEED 7

/* A sandboxed build or run (sandbox.h): the largest file it may write
 * (the raw output of 2^28 words is 1 GiB, two copies fit), and how many
 * processes its user may have (nvcc starts a dozen; a fork bomb stops
 * here and is killed with its group). */
#define SANDBOX_MAX_FILE_BYTES (4ULL << 30)
#define SANDBOX_MAX_PROCS 4096

/* The batch driver (grader/batch/): wall-clock limit per student by
 * default (the slowest lab grades in well under a minute on a GPU and a
 * few minutes emulated; half an hour is a hang, not a slow student). */
#define BATCH_LIMIT_STUDENT_S 1800.0

/* A class on Slurm (grader/batch/slurm.c).  Students per array task by
 * default: one student's grading is seconds to minutes, and a task costs
 * the scheduler a slot and a start-up; four keeps the array short without
 * one task holding a GPU for long.  A task's time limit is its students'
 * limits plus this margin (the batch's own start and the suite's check);
 * the merge job hashes every submission and writes the gradebook: minutes
 * for a large class.  Array tasks as root run their students as uids
 * 65100 + (task mod this) (+ worker): tasks on one node then rarely share
 * a process limit, and the range stays inside Debian's unassigned 65000-65533. */
#define SLURM_PER_TASK 4
#define SLURM_TASK_MARGIN_MIN 10
#define SLURM_MERGE_TIME_MIN 30
#define SLURM_UID_SPREAD 256

/* A submission's archive (grader/batch/archive.c): a lab is a handful of
 * files, so more members than this, or more bytes unpacked than this, is
 * an archive bomb or the wrong upload, refused before it fills the disk.
 * The bytes are what the batch writes for one student's archive, counted
 * as written (a sparse member's holes included): 256 MiB is a whole
 * repository with its history, and 10 workers at once stay under 3 GiB. */
#define UNPACK_MAX_MEMBERS 10000
#define UNPACK_MAX_BYTES (256LL << 20)

/* A wrong output is described (diagnose.h: which elements are wrong, and
 * how) up to this many elements: the description needs the expected
 * output as doubles, 8 bytes an element (128 MiB here), and every suite
 * shows its mistakes well below 2^24 already. */
#define DIAGNOSE_MAX_N ((size_t)1 << 24)
/* How far back from a wrong sum the diagnosis looks for the one input it
 * lacks or doubles: a Kogge-Stone or Brent-Kung step's partner is at most a
 * section away, a carry at most a tile, both far below this. */
#define DIAGNOSE_MAX_SEARCH 65536

/* HOST-WRITTEN on a GPU (common/copy_count.h counts the lab's copies in
 * run(), per call).  Bytes a call may copy from the host into `out`: one
 * element of the widest type, the starting value of an accumulator that
 * the kernels then fold into (lab 1 copies the identity into out before
 * its atomics); a host-computed scan copies the whole output.  Fills
 * (cudaMemset*) of `out` per call: a zeroing, or a count set to 0 (lab 7
 * at n = 0); a host answer written a fill at a time needs thousands.
 * The share of the input a call may copy to the host: a lab never reads
 * its input back (none of the kit's does), and an answer computed on the
 * host needs all of it; a small share leaves room for nothing but a
 * mistake. */
#define HOST_OUT_INIT_BYTES 8
#define HOST_OUT_FILLS_MAX 2
#define HOST_IN_READ_SHARE 0.0625

/* Folders nftw keeps open at once while it walks a tree (remove_tree,
 * chown, hashing, picking files): one per level up to this depth, deeper
 * levels reopen their parents; a submission is a few levels deep. */
#define TREE_WALK_FDS 16

/* What of a run's log a student reads (logtext.c, launch.c).  An excerpt
 * is a few lines of a test's detail (whose buffer holds 1 KiB beside the
 * verdict's own words), enough for an emulator's deadlock report cut to
 * its first line and its hint.  It is
 * taken from the log's first 16 KiB (the first diagnostic comes early; a
 * deadlock report of every block of a large grid runs on far past it), and
 * compute-sanitizer's first report from its first 64 KiB (its banner and
 * a backtrace come before the summary line).  A unit's process writes
 * every case's lines into one log: its last 1 MiB is read, where the case
 * it died in wrote, and its progress file (two short lines a case) up to
 * 64 KiB, far more than a unit's cases write. */
#define EXCERPT_BYTES 700
#define LOG_HEAD_BYTES 16384
#define SANITIZER_HEAD_BYTES 65536
#define UNIT_LOG_TAIL_BYTES (1 << 20)
#define UNIT_PROGRESS_BYTES (1 << 16)

/* GRADE_TRACE names the checks of outputs that took longer than this: the
 * slow ones (seconds at 2^28), not the hundreds of fast ones. */
#define TRACE_SLOW_CHECK_S 0.05

#endif /* GRADER_TUNABLES_H */
