# Makefile - builds the labs, the reference solutions, the grader and the
# kit's own tests.  `make help` lists everything.
#
# Backend: with an NVIDIA GPU and nvcc the labs build for the GPU; with no
# GPU (or EMU=1) they build for the CPU emulator in common/emu/.

TOP      := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD    := build
CC       ?= cc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -Wall -Wextra -Wno-format-truncation -D_POSIX_C_SOURCE=200809L -I common
PYTHON   ?= python3

# ---- finding nvcc and the GPU ------------------------------------------
CUDA_HOME ?= /usr/local/cuda
NVCC     ?= $(shell command -v nvcc 2>/dev/null || { test -x $(CUDA_HOME)/bin/nvcc && echo $(CUDA_HOME)/bin/nvcc; })
# Whether there is a GPU and its compute capability, asked of nvidia-smi
# (a good fraction of a second) unless the caller says.  The grader asks
# once (print-config) and passes both to every later make, so a batch's
# gradings do not queue behind nvidia-smi inside the kit's build lock.
ifeq ($(origin HAVE_GPU),undefined)
HAVE_GPU := $(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU' && echo 1)
endif
ifeq ($(origin GPU_CC),undefined)
GPU_CC   := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '. ')
endif
ARCH     ?= $(if $(GPU_CC),sm_$(GPU_CC),sm_90)
# What nvcc generates: one architecture, or make dist's list of -gencode flags.
GENCODE  ?= -arch=$(ARCH)
# Architectures every .cu is compile-checked for by `make test`.
CHECK_ARCHS ?= sm_75 sm_90

ifneq ($(wildcard common/emu/emu.mk),)
include common/emu/emu.mk
endif

ifeq ($(EMU),1)
BACKEND := emu
else ifeq ($(EMU),0)
BACKEND := gpu
else ifneq ($(and $(NVCC),$(HAVE_GPU)),)
BACKEND := gpu
else
BACKEND := emu
endif

ifeq ($(BACKEND),gpu)
CUDACC   := $(NVCC)
CUFLAGS  ?= -O3 -lineinfo
CUFLAGS  += -std=c++17 $(GENCODE) -I common -Xcompiler -Wall -diag-suppress 177
# NVVM's optimizer and ptxas on every core: lab 7's nvcc time on an H100
# machine of 16 cores went from 14.6 s to 6.9 s (docs/perf-notes.md); nvcc
# says the binary is the same but for "minimal (if any)" differences.
CUFLAGS  += --split-compile=0
else
CUDACC   := $(EMU_NVCC)
CUFLAGS  ?= -O2 -g
CUFLAGS  += -std=c++17 -I common
endif

OUT      := $(BUILD)/$(BACKEND)
C_SRCS   := $(wildcard common/*.c common/kinds/*.c)
CU_SRCS  := $(wildcard common/*.cu)
HEADERS  := $(wildcard common/*.h common/*.cuh common/kinds/*.h)
HOST_OBJS := $(patsubst common/%.c,$(BUILD)/host/%.o,$(C_SRCS))
HARNESS_OBJS := $(patsubst common/%.cu,$(OUT)/common/%.o,$(CU_SRCS))

LABS     := $(sort $(foreach d,$(wildcard labs/lab*-*),$(firstword $(subst -, ,$(notdir $(d))))))


.PHONY: draw
.PHONY: help solutions test deps deps-check dist bench plots clean backend-check bin grader grader-deps batch $(LABS) \
        test-unit test-compile test-labs print-backend print-arch print-config prebuild
.DEFAULT_GOAL := help

help:
	@echo "Targets:"
	@echo "  make labN            build your copy of lab N (labs/labN-*/) into $(OUT)/labN"
	@echo "  make solutions       build every reference solution into $(OUT)/ref/"
	@echo "  make grader          build the grader ($(BUILD)/grader); ./grade does it for you"
	@echo "  make batch           build the batch driver (./grade --batch DIR labN)"
	@echo "  make test            run the kit's own tests (unit tests, compile checks, emulator)"
	@echo "  make deps            install missing packages (apt-get; root or sudo)"
	@echo "  make bench LAB=labN  time your kernels and the reference over sizes (build/bench/)"
	@echo "  make plots LAB=labN  draw the bench: GB/s against n, with the copy and CUB"
	@echo "  make profile LAB=labN  ncu on your kernels and the reference: the handout's metrics"
	@echo "                       side by side ([VARIANT=name] [N=2^24]; with a GPU: ncu; without:"
	@echo "                       the emulator's exact counts of divergence, barriers, bank conflicts)"
	@echo "  make draw LAB=labN   pictures of your kernel's run and the reference's on the emulator:"
	@echo "                       phases, elements, what each thread read and wrote ([VARIANT=name] [N=16])"
	@echo "  make dist            build/dist/reduce-scan-kit.tar.gz: a student's copy, no solutions"
	@echo "                       (references prebuilt for DIST_ARCHS=\"$(DIST_ARCHS)\"; needs nvcc)"
	@echo "  make clean           remove $(BUILD)/"
	@echo "Variables:"
	@echo "  ARCH=sm_90           GPU architecture (now: $(ARCH); detected from nvidia-smi)"
	@echo "  EMU=1 | EMU=0        force the CPU emulator / the GPU (now: $(BACKEND))"
	@echo "  NVCC=path            nvcc to use (now: $(or $(NVCC),not found)); CUDA_HOME also works"
	@echo "Labs found: $(LABS)"

# ---- backend sanity --------------------------------------------------------
backend-check:
ifeq ($(BACKEND),gpu)
	@test -n "$(NVCC)" || { echo "error: nvcc not found (PATH, CUDA_HOME=$(CUDA_HOME))." >&2; exit 1; }
else
	@test -n "$(EMU_NVCC)" || { \
	  echo "error: no NVIDIA GPU here, and the CPU emulator (common/emu/emu.mk) is missing." >&2; exit 1; }
	@# the emulator compiles with g++ through a Python driver: set them up if missing
	@command -v g++ >/dev/null && command -v python3 >/dev/null || sh common/tools/deps.sh g++ python3
endif

# ---- host objects (plain C, shared by harness, grader and tests) ------------
$(BUILD)/host/%.o: common/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

# On the emulator an object also depends on the emulator's headers: a stale
# harness.o built against an older cuda_runtime.h links, then crashes.
$(OUT)/common/%.o: common/%.cu $(HEADERS) $(if $(filter emu,$(BACKEND)),$(EMU_RT_DEPS)) | backend-check
	@mkdir -p $(@D)
	$(CUDACC) $(CUFLAGS) -c -o $@ $<

# ---- labs and solutions --------------------------------------------------------
# One rule per lab: the student's copy, and the reference solution.
define LAB_RULES
# build/labN: the binary of whichever backend built last, so that one
# command works on a GPU and on the emulator alike.
$(1): $(OUT)/$(1)
	@ln -sfn $(BACKEND)/$(1) $(BUILD)/$(1)
$(OUT)/$(1): $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) | backend-check
	@mkdir -p $$(@D)
	$$(CUDACC) $$(CUFLAGS) -o $$@ $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
	@echo "built $$@ ($(BACKEND)); run it as build/$(1) --help, grade it with ./grade $(1)"
$(OUT)/ref/$(1): $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) | backend-check
	@mkdir -p $$(@D)
	$$(CUDACC) $$(CUFLAGS) -o $$@ $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
endef
$(foreach l,$(LABS),$(eval $(call LAB_RULES,$(l))))

ifneq ($(wildcard solutions),)
solutions: $(foreach l,$(LABS),$(OUT)/ref/$(l))
else
solutions:
	@echo "make solutions: no solutions/ in this copy of the kit (a student's copy)" >&2; exit 2
endif

# What a graded binary links beside the lab's objects (see bin, and the
# rules below); defined before bin, whose prerequisites they are.
GRADED_HARNESS := $(OUT)/common/graded-harness.o
GRADED_PARTS := $(filter-out %/cub_baseline.o,$(HARNESS_OBJS)) $(OUT)/common/cub_baseline-none.o \
                $(HOST_OBJS)
OBJCOPY ?= objcopy
COPY_COUNT_SYMS := common/graded/copy_count.syms
COPY_COUNT_OBJ := $(if $(filter gpu,$(BACKEND)),$(OUT)/common/graded/copy_count.o)

# Build any folder of lab sources (used by the grader): make bin SRC_DIR=... BIN=...
# LAB_DEFINES: tuning macros on top of the backend's flags (the tests build
# lab 7 with small tiles; see tests/lib.sh).
#
# This is the graded link: the lab's files are compiled apart (into
# BIN.objs/), their objects must hold no CUB or Thrust code
# (common/tools/no_algorithms.sh), and they link GRADED_HARNESS, in which
# only main and kit.c's contract helpers are global: a submission that calls
# the harness's reference, checker, input generator or CUB baseline does not
# link.  `make labN` (a student's own self-check) keeps the whole harness.
bin: $(GRADED_HARNESS) $(COPY_COUNT_OBJ) | backend-check
	@test -n "$(SRC_DIR)" -a -n "$(BIN)" || { echo "usage: make bin SRC_DIR=dir BIN=path" >&2; exit 2; }
	@mkdir -p $(dir $(BIN)) $(BIN).objs
	$(foreach f,$(wildcard $(SRC_DIR)/*.cu),$(CUDACC) $(CUFLAGS) $(LAB_DEFINES) -c \
	  -o $(BIN).objs/$(basename $(notdir $(f))).o $(f) &&) true
	@sh common/tools/no_algorithms.sh $(BIN).objs/*.o
	@test -z "$(COPY_COUNT_OBJ)" || for o in $(BIN).objs/*.o; do \
	  $(OBJCOPY) --redefine-syms=$(COPY_COUNT_SYMS) "$$o" || exit 1; done
	$(CUDACC) $(CUFLAGS) $(LAB_DEFINES) -o $(BIN) $(BIN).objs/*.o $(GRADED_HARNESS) $(COPY_COUNT_OBJ)

# The harness of a graded binary (see bin): every harness object, with
# cub_baseline.cu built without CUB, as one object of local symbols but
# main and kit.o's (common/tools/graded_harness.sh; $(GRADED_HARNESS).local
# lists the names made local, for the grader's message).
# In the grader's build view the harness's sources are absent (only
# common's headers are shown: grader/isolation.c), so there the prebuilt
# graded harness (make prebuild) is linked as it is, with no rule to remake it.
ifneq ($(wildcard common/harness.cu),)
$(OUT)/common/cub_baseline-none.o: common/cub_baseline.cu $(HEADERS) \
    $(if $(filter emu,$(BACKEND)),$(EMU_RT_DEPS)) | backend-check
	@mkdir -p $(@D)
	$(CUDACC) $(CUFLAGS) -DKIT_NO_CUB -c -o $@ $<
$(GRADED_HARNESS): $(GRADED_PARTS) common/tools/graded_harness.sh
	sh common/tools/graded_harness.sh $@ $(BUILD)/host/kit.o $(GRADED_PARTS)
endif

# On a GPU, the submission's copy and fill calls are counted
# (common/copy_count.h): its objects' references to them are renamed to the
# counting versions of common/graded/copy_count.cu (copy_count.syms lists
# them), which the graded link adds.  The emulator watches every store
# itself, so there the object is absent.  Like the harness, its source is
# absent from the grader's build view: there the prebuilt object is linked.
ifneq ($(wildcard common/graded/copy_count.cu),)
$(OUT)/common/graded/copy_count.o: common/graded/copy_count.cu common/copy_count.h | backend-check
	@mkdir -p $(@D)
	$(CUDACC) $(CUFLAGS) -c -o $@ $<
endif

print-backend:
	@echo $(BACKEND)

# The grader's one question before it builds: after the backend's check,
# "BACKEND ARCH HAVE_GPU GPU_CC" ("-" for an empty value).
print-config: backend-check
	@echo "$(BACKEND) $(ARCH) $(or $(HAVE_GPU),-) $(or $(GPU_CC),-)"

# The grader passes it to students' sandboxed builds, where nvidia-smi is
# not what should decide it.
print-arch:
	@echo $(ARCH)

# What every lab binary links, built ahead of students' sandboxed builds.
prebuild: $(HARNESS_OBJS) $(HOST_OBJS) $(GRADED_HARNESS) $(COPY_COUNT_OBJ) $(if $(filter emu,$(BACKEND)),emu-runtime)

# ---- grader --------------------------------------------------------------------
# The libraries the grader and the batch driver use (each from one file:
# cJSON in grader/jval.c, libarchive in grader/batch/archive.c) and the
# Debian packages that bring them.  The lab binaries link neither.
GRADER_LIBS := -lcjson
BATCH_LIBS  := -lcjson -larchive
GRADER_DEPS := libcjson-dev libarchive-dev
# Installed with apt-get as root; without root, the same packages unpacked
# into build/deps/ (common/tools/grader_deps.sh), whose -I, -L and rpath
# flags build/deps/flags holds, read when a recipe runs (after this).
grader-deps:
	@CC="$(CC)" sh common/tools/grader_deps.sh $(BUILD) $(GRADER_DEPS)
DEPS_FLAGS = $$(cat $(BUILD)/deps/flags 2>/dev/null)

GRADER_SRCS := $(wildcard grader/*.c)
GRADER_OBJS := $(patsubst grader/%.c,$(BUILD)/host/grader-obj/%.o,$(GRADER_SRCS))
GRADER_LIB  := $(filter-out $(BUILD)/host/grader-obj/main.o,$(GRADER_OBJS))

$(BUILD)/host/grader-obj/%.o: grader/%.c $(HEADERS) $(wildcard grader/*.h) | grader-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I grader $(DEPS_FLAGS) -c -o $@ $<

# Linked under a temporary name, then renamed: several ./grade started at
# once (a batch) never run a half-written grader.
$(BUILD)/grader: $(GRADER_OBJS) $(HOST_OBJS)
	$(CC) -o $@.tmp$$$$ $^ $(DEPS_FLAGS) $(GRADER_LIBS) -lm -lpthread && mv -f $@.tmp$$$$ $@

grader: $(BUILD)/grader

# The batch driver (./grade --batch): one grader process per student.  It
# shares the grader's process layer (spawn.c), JSON reader (jval.c), text
# cleaning (text.c) and tree removal (rmtree.c).
BATCH_SRCS := $(wildcard grader/batch/*.c) grader/spawn.c grader/jval.c grader/text.c grader/rmtree.c
$(BUILD)/batch: $(BATCH_SRCS) $(wildcard grader/batch/*.h) grader/spawn.h grader/jval.h grader/text.h \
  grader/rmtree.h grader/tunables.h | grader-deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I grader -o $@.tmp$$$$ $(BATCH_SRCS) $(DEPS_FLAGS) $(BATCH_LIBS) -lm && mv -f $@.tmp$$$$ $@
batch: $(BUILD)/batch

# ---- the kit's own tests ---------------------------------------------------------
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

$(BUILD)/tests/fake_lab: tests/fake_lab.c $(HOST_OBJS) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(HOST_OBJS) -lm

$(BUILD)/tests/%: tests/%.c $(HOST_OBJS) $(GRADER_LIB) $(HEADERS) | $(BUILD)/tests/fake_lab
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I grader -DKIT_TOP='"$(TOP)"' -o $@ $< $(GRADER_LIB) $(HOST_OBJS) -lcriterion $(DEPS_FLAGS) $(GRADER_LIBS) -lm -lpthread

# runs `grade --sandbox-exec --gate` itself
$(BUILD)/tests/test_witness_gate: | $(BUILD)/grader

# Builds of the tests and the compile check use every core.
CHECK_JOBS := $(shell nproc 2>/dev/null || echo 2)
test: deps-check
	@test -d tests || { echo "make test: the kit's own tests are not in this copy of the kit" \
	  "(a student's copy: they need the solutions); grade a lab with ./grade labN" >&2; exit 2; }
	@s=$$(date +%s); $(MAKE) --no-print-directory -j$(CHECK_JOBS) test-unit && \
	  echo "time: test-unit took $$(( $$(date +%s) - s )) s"
	@python3 common/tools/house.py common grader labs solutions
	@s=$$(date +%s); $(MAKE) --no-print-directory test-compile && \
	  echo "time: test-compile took $$(( $$(date +%s) - s )) s"
	@s=$$(date +%s); $(MAKE) --no-print-directory -j$(CHECK_JOBS) test-emu && \
	  echo "time: test-emu took $$(( $$(date +%s) - s )) s"
	@$(MAKE) --no-print-directory test-labs
	@echo "make test: passed; a SKIPPED line above names a check that could not run here"

# Debian packages: Criterion for the tests, the grader's libraries
# (GRADER_DEPS) and the emulator's own (EMU_DEPS);
# pydeps.sh adds matplotlib (for plots) to whichever python3 is on PATH.
DEPS := libcriterion-dev pkg-config python3-markdown $(GRADER_DEPS) $(EMU_DEPS)
deps-check:
	@sh common/tools/deps.sh $(DEPS)
	@sh common/tools/pydeps.sh --warn

test-unit: $(TEST_BINS)
	@for t in $(TEST_BINS); do echo "== $$t"; $$t --jobs 2 || exit 1; done

# Every .cu of the tree must compile with the real nvcc (for each CHECK_ARCHS),
# even here without a GPU: a kernel that does not compile fails CI.
CHECKED_CU := $(wildcard common/*.cu labs/*/*.cu solutions/*/*.cu)
# One nvcc per file for every arch (the host side is compiled once), files
# side by side on every core.
CHECK_GENCODE := $(foreach a,$(CHECK_ARCHS),-gencode arch=compute_$(subst sm_,,$(a)),code=$(a))
test-compile:
ifeq ($(NVCC),)
	@echo "test-compile: SKIPPED: nvcc not found, so the .cu files were not compile-checked"
else
	@echo "nvcc $(CHECK_GENCODE) -c: $(words $(CHECKED_CU)) files, $(CHECK_JOBS) at a time"
	@printf '%s\n' $(CHECKED_CU) | xargs -P $(CHECK_JOBS) -I{} sh -c \
	  '$(NVCC) -std=c++17 $(CHECK_GENCODE) -I common -Xcompiler -Wall -diag-suppress 177 -c -o /dev/null {} || { echo "test-compile: FAILED: {}"; exit 1; }'
endif

# Lab binaries through the grader, on this machine's backend.  Without a GPU
# that is the emulator, under each of its schedules: a race or a reliance on
# block order shows up under at least one of them.  The skeletons (which
# must build and score 0, whatever the order) are graded under the first.
# The other two grade the solutions' cases of n <= LABS_MAX_N (each group
# still graded; tests/labs.sh says what this gives up): a block's threads are
# reordered at any n, and 2^17+1 is still many blocks of every lab (lab 1-4:
# 65537 is 33 to 65 blocks; lab 6: 9 tiles; lab 7: 5 tiles of int32, 9 of
# int64 and 7 at 100003; lab 5's recursion keeps its smallest size, 2^22+1).
# None reaches lab 6's or lab 7's older look-back windows on the emulator's
# few workers, nor did 2^20+1: tests/lab6-lookback.sh and lab7-lookback.sh
# do, with small tiles on 64 workers.  The
# cases with their own schedule= (n=300007) run under it whatever
# CUEMU_SCHEDULE says, so the first run grades them as these would.  At
# 2^20+1 the two runs took ~140 CPU seconds, at 2^17+1 ~65.
LABS_MAX_N := 2^17+1
test-labs:
ifeq ($(BACKEND),emu)
	@echo "== CUEMU_SCHEDULE=inorder"; CUEMU_SCHEDULE=inorder sh tests/timed.sh sh tests/labs.sh
	@for s in reverse random:7; do echo "== CUEMU_SCHEDULE=$$s (solutions, n <= $(LABS_MAX_N))"; \
	  CUEMU_SCHEDULE=$$s WHO=solution MAX_N='$(LABS_MAX_N)' sh tests/timed.sh sh tests/labs.sh || exit 1; done
else
	@sh tests/timed.sh sh tests/labs.sh
endif
	@sh tests/timed.sh sh tests/bad-submissions.sh
	@sh tests/timed.sh sh tests/attacks.sh
	@sh tests/timed.sh sh tests/sandbox.sh
	@sh tests/timed.sh sh tests/noroot.sh
	@sh tests/timed.sh sh tests/similarity.sh
	@sh tests/timed.sh sh tests/missing-barrier.sh
	@sh tests/timed.sh sh tests/draw.sh
	@sh tests/timed.sh sh tests/lab6-lookback.sh
	@sh tests/timed.sh sh tests/lab7-lookback.sh
	@sh tests/timed.sh sh tests/lab7-stages.sh
	@sh tests/timed.sh sh tests/witness-input.sh
	@sh tests/timed.sh sh tests/witness-window.sh
	@sh tests/timed.sh sh tests/emu-pace.sh
	@sh tests/timed.sh sh tests/host-memory.sh
	@sh tests/timed.sh sh tests/nvidia-smi-calls.sh
	@sh tests/timed.sh sh tests/copy-count-link.sh
	@sh tests/timed.sh sh tests/corpus-script.sh
	@sh tests/timed.sh sh tests/mufu-selftest.sh
	@sh tests/timed.sh python3 tests/keys.py
	@sh tests/timed.sh python3 tests/lab6-tile.py
	@mkdir -p $(BUILD) && python3 tests/gpu/lab7/probe.py solutions/lab7-scan-at-work/scan.cu \
	  $(BUILD)/lab7-probed.cu && echo "probe.py: every anchor found in lab 7's reference"
	@sh tests/timed.sh sh tests/handouts.sh
	@sh tests/timed.sh sh tests/dist.sh
	@sh tests/timed.sh sh tests/bench.sh
	@sh tests/timed.sh sh tests/profile.sh
	@sh tests/timed.sh sh tests/batch/run.sh
	@sh tests/timed.sh sh tests/batch/slurm.sh

# ---- benchmarks and plots (self-learners) ----------------------------------------
# make bench LAB=labN: your kernels and the reference over a range of sizes,
# next to the device copy and CUB (build/bench/labN.csv); make plots LAB=labN
# draws it (build/bench/labN.png).  On the emulator the times are CPU times.
BENCH_SIZES ?= $(if $(filter gpu,$(BACKEND)),2^16 2^18 2^20 2^22 2^24 2^26 2^28,2^10 2^12 2^14 2^16)
REPS ?= 20
# Which variants (and options) make bench runs: every variant by default;
# lab 7 adds its highest order and tuple size, the settings its goals name.
BENCH_VARIANTS ?= $(BENCH_VARIANTS_$(LAB))
BENCH_VARIANTS_lab7 := compact-3step,compact,decode,decode --order 8,decode --tuple 8
BENCH_REF = $(if $(wildcard solutions),$(OUT)/ref/$(LAB),$(if $(and $(filter gpu,$(BACKEND)),$(wildcard refbin/$(LAB))),refbin/$(LAB)))
bench:
	@case " $(LABS) " in *" $(LAB) "*) ;; *) echo "usage: make bench LAB=labN (one of: $(LABS))" \
	  "[BENCH_SIZES=\"2^20 2^24\"] [REPS=20]" >&2; exit 2;; esac
	@$(MAKE) --no-print-directory $(LAB) $(if $(wildcard solutions),$(OUT)/ref/$(LAB))
	$(PYTHON) common/tools/bench.py --yours $(OUT)/$(LAB) $(if $(BENCH_REF),--ref $(BENCH_REF)) \
	  --sizes "$(BENCH_SIZES)" --reps $(REPS) $(if $(BENCH_VARIANTS),--variants "$(BENCH_VARIANTS)") \
	  -o $(BUILD)/bench/$(LAB).csv
plots:
	@test -f $(BUILD)/bench/$(LAB).csv || { echo "make plots: run make bench LAB=$(or $(LAB),labN) first" >&2; exit 2; }
	$(PYTHON) common/tools/plot_bench.py $(BUILD)/bench/$(LAB).csv -o $(BUILD)/bench/$(LAB).png --title $(LAB)

# make profile LAB=labN [VARIANT=name] [N=2^24]: Nsight Compute's counters
# for the metrics the lab's handout discusses (common/tools/profile_metrics.py),
# your kernels next to the reference's.  The GPU and ncu are checked before
# anything is built: without them it says why and fails (profile_lab.py
# exits 3 or 4; make itself then exits 2).  PROFILE_SAVE=dir keeps ncu's CSVs.
#
# On the CPU emulator (no GPU, or EMU=1) it counts instead: counted builds
# (emu-nvcc --count) of your lab and of the reference go to $(COUNT_DIR)/,
# apart from $(OUT)/, and the table shows the emulator's exact counts of
# divergent branches, barriers and bank conflicts (default N=2^16).
PROFILE_REF = $(if $(wildcard solutions),$(OUT)/ref/$(LAB),$(wildcard refbin/$(LAB)))
COUNT_DIR := $(BUILD)/count
PROFILE_ARGS = $(if $(VARIANT),--variant "$(VARIANT)") $(if $(N),-n "$(N)")
profile:
	@case " $(LABS) " in *" $(LAB) "*) ;; *) echo "usage: make profile LAB=labN (one of: $(LABS))" \
	  "[VARIANT=name] [N=2^24]" >&2; exit 2;; esac
	@$(PYTHON) common/tools/profile_lab.py --preflight --lab $(LAB) --backend $(BACKEND)
ifeq ($(BACKEND),emu)
	@$(MAKE) --no-print-directory $(COUNT_DIR)/$(LAB) $(if $(wildcard solutions),$(COUNT_DIR)/ref/$(LAB))
	$(PYTHON) common/tools/profile_lab.py --backend emu --lab $(LAB) --yours $(COUNT_DIR)/$(LAB) \
	  $(if $(wildcard solutions),--ref $(COUNT_DIR)/ref/$(LAB)) $(PROFILE_ARGS)
else
	@$(MAKE) --no-print-directory $(LAB) $(if $(wildcard solutions),$(OUT)/ref/$(LAB))
	$(PYTHON) common/tools/profile_lab.py --lab $(LAB) --yours $(OUT)/$(LAB) \
	  $(if $(PROFILE_REF),--ref $(PROFILE_REF)) $(PROFILE_ARGS) \
	  $(if $(PROFILE_SAVE),--save "$(PROFILE_SAVE)")
endif

# Counted emulator builds of a lab (yours, and the reference), for make
# profile; they link the same harness objects as $(OUT)/labN.
define COUNT_RULES
$(COUNT_DIR)/$(1): $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) $(EMU_RT_DEPS) | backend-check
	@mkdir -p $$(@D)
	$$(EMU_NVCC) --count $$(CUFLAGS) -o $$@ $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
$(COUNT_DIR)/ref/$(1): $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) $(EMU_RT_DEPS) | backend-check
	@mkdir -p $$(@D)
	$$(EMU_NVCC) --count $$(CUFLAGS) -o $$@ $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
endef
ifeq ($(BACKEND),emu)
$(foreach l,$(LABS),$(eval $(call COUNT_RULES,$(l))))
endif

# make draw LAB=labN [VARIANT=name] [N=16] [ARGS="-x -t float32 -s 3"]: pictures of what your kernel did
# and what the reference did with the same input, drawn from the emulator's
# recorder (common/tools/draw_lab.py, draw.py): one row per phase between
# barriers, one column per element, an arrow from each element a thread read
# to the one it wrote; lab 6, the tiles over time.  Always on the emulator
# (counted builds, which know every __shared__ array), into $(DRAW_DIR)/;
# lab 6 with tiles of 512 elements (DRAW_DEFINES_lab6), so that a small run
# has several tiles, each long enough to overlap the next on four workers.  Picture: $(DRAW_DIR)/labN[-VARIANT].png (DRAW_EXT=svg).
# ARGS: more options of the lab binary (the case: seed, dtype, op, exclusive).
DRAW_DIR := $(BUILD)/draw
DRAW_DEFINES_lab6 := -DTILE_THREADS=32 -DROWS=4
DRAW_N = $(or $(N),$(if $(filter lab6,$(LAB)),4096,16))
DRAW_EXT ?= png
DRAW_OUT = $(DRAW_DIR)/$(LAB)$(if $(VARIANT),-$(VARIANT)).$(DRAW_EXT)
draw:
	@case " $(LABS) " in *" $(LAB) "*) ;; *) echo "usage: make draw LAB=labN (one of: $(LABS))" \
	  "[VARIANT=name] [N=16]" >&2; exit 2;; esac
	@$(MAKE) --no-print-directory EMU=1 $(DRAW_DIR)/$(LAB) $(if $(wildcard solutions),$(DRAW_DIR)/ref/$(LAB))
	$(if $(filter lab6,$(LAB)),CUEMU_THREADS=4) $(PYTHON) common/tools/draw_lab.py --lab $(LAB) --yours $(DRAW_DIR)/$(LAB) \
	  $(if $(wildcard solutions),--ref $(DRAW_DIR)/ref/$(LAB)) $(if $(VARIANT),--variant "$(VARIANT)") \
	  -n "$(DRAW_N)" $(if $(filter lab6,$(LAB)),--timeline) -o $(DRAW_OUT) $(if $(ARGS),-- $(ARGS))

define DRAW_RULES
$(DRAW_DIR)/$(1): $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) $(EMU_RT_DEPS) | backend-check
	@mkdir -p $$(@D)
	$$(EMU_NVCC) --count $$(CUFLAGS) $(DRAW_DEFINES_$(1)) -o $$@ $(wildcard labs/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
$(DRAW_DIR)/ref/$(1): $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS) $(EMU_RT_DEPS) | backend-check
	@mkdir -p $$(@D)
	$$(EMU_NVCC) --count $$(CUFLAGS) $(DRAW_DEFINES_$(1)) -o $$@ $(wildcard solutions/$(1)-*/*.cu) $(HARNESS_OBJS) $(HOST_OBJS)
endef
ifeq ($(BACKEND),emu)
$(foreach l,$(LABS),$(eval $(call DRAW_RULES,$(l))))
endif

# A student's copy: no solutions/ or tests/, each lab's reference prebuilt
# (for DIST_ARCHS) so that speed is still graded.  Needs nvcc, not a GPU.
DIST_ARCHS ?= $(ARCH)
dist:
	@sh common/tools/dist.sh $(BUILD)/dist/reduce-scan-kit.tar.gz "$(DIST_ARCHS)"

deps:
	@sh common/tools/deps.sh $(DEPS)
	@sh common/tools/pydeps.sh

clean:
	rm -rf $(BUILD)
