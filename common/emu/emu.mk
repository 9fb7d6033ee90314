# common/emu/emu.mk - the CPU emulator's part of the build.  Included by the
# top Makefile, which defines TOP (the repository root, an absolute path).
#
#   EMU_NVCC      the nvcc-compatible driver (builds the runtime on first use)
#   EMU_DEPS      Debian packages the emulator and its tests need
#   emu-runtime   build build/emu/libcuemu.a now
#   test-emu      build and run the emulator's Criterion tests (tests/emu/),
#                 then tests/emu/missing-fence.sh (the weak memory mode) and
#                 tests/emu/counters.sh (counted builds, emu-nvcc --count)
#                 tests/emu/headers.sh (only the emulator's headers are read)
#                 tests/emu/math-table.sh (the README's generated math table)
#                 and tests/emu/math-sweep-stored.sh (the device math against
#                 an H200's stored output)

EMU_NVCC  := $(TOP)/common/emu/emu-nvcc
EMU_DEPS  := g++ gcc python3 libboost-context-dev libcriterion-dev

EMU_BUILD    := $(TOP)/build/emu
EMU_LIB      := $(EMU_BUILD)/libcuemu.a
EMU_RT_DEPS  := $(wildcard $(TOP)/common/emu/src/*.cpp $(TOP)/common/emu/src/*.h \
                  $(TOP)/common/emu/include/*/*.h \
                  $(TOP)/common/emu/include/*.h) $(EMU_NVCC)
EMU_TEST_DIR := $(TOP)/tests/emu
EMU_TEST_CU  := $(wildcard $(EMU_TEST_DIR)/programs/*.cu)
EMU_TEST_BIN := $(patsubst $(EMU_TEST_DIR)/programs/%.cu,$(EMU_BUILD)/tests/%,$(EMU_TEST_CU))
EMU_TEST_JOBS ?= 2

.PHONY: emu-runtime test-emu

emu-runtime: $(EMU_LIB)

$(EMU_LIB): $(EMU_RT_DEPS)
	$(EMU_NVCC) --build-runtime

# Each test program is an ordinary .cu file built by emu-nvcc.
$(EMU_BUILD)/tests/%: $(EMU_TEST_DIR)/programs/%.cu $(EMU_LIB)
	@mkdir -p $(@D)
	$(EMU_NVCC) -O2 -g -o $@ $<

$(EMU_BUILD)/tests/test_emu: $(EMU_TEST_DIR)/test_emu.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -g -Wall -D_POSIX_C_SOURCE=200809L -o $@ $< -lcriterion

test-emu: $(EMU_TEST_BIN) $(EMU_BUILD)/tests/test_emu
	cd $(TOP) && CUEMU_TEST_BIN=$(EMU_BUILD)/tests CUEMU_TEST_SRC=$(EMU_TEST_DIR) \
	  EMU_NVCC=$(EMU_NVCC) $(EMU_BUILD)/tests/test_emu --jobs $(EMU_TEST_JOBS)
	sh $(EMU_TEST_DIR)/missing-fence.sh
	sh $(EMU_TEST_DIR)/counters.sh
	sh $(EMU_TEST_DIR)/headers.sh
	sh $(EMU_TEST_DIR)/math-table.sh
	sh $(EMU_TEST_DIR)/math-sweep-stored.sh
