/*
 * device_model.h - the device the emulator says it is: an H100 SXM (CUDA
 * calls it "NVIDIA H100 80GB HBM3"), compute capability 9.0.  Programs
 * size their grids from these figures (SMs x blocks per SM, as NVIDIA's
 * samples do), so each is what an H100 reports (tests/emu/programs/
 * device_h100.cu prints them; tests/gpu/device-emu-compare.sh compares
 * that with a GPU).  The SM count is a property only: how many OS threads
 * run blocks is CUEMU_THREADS (settings.cpp), whatever the SM count says.
 * Private to common/emu/src.
 */
#ifndef CUEMU_DEVICE_MODEL_H
#define CUEMU_DEVICE_MODEL_H

#include <stddef.h>

namespace cuemu {
namespace h100 {

/* Compute capability 9.0 (Hopper), as __CUDA_ARCH__ = 900 says. */
constexpr int CC_MAJOR = 9, CC_MINOR = 0;
/* SMs of an H100 SXM (the PCIe card has 114). */
constexpr int SMS = 132;
constexpr int WARP = 32;
/* Threads: per block, per block dimension, per SM; resident blocks per SM. */
constexpr int THREADS_PER_BLOCK = 1024, BLOCK_DIM_XY = 1024, BLOCK_DIM_Z = 64;
constexpr int THREADS_PER_SM = 2048, BLOCKS_PER_SM = 32;
/* Grid dimensions. */
constexpr int GRID_X = 0x7fffffff, GRID_YZ = 65535;
/* Shared memory: 48 KiB per block without opt-in, 227 KiB with
 * cudaFuncAttributeMaxDynamicSharedMemorySize, 228 KiB per SM, of which
 * the driver reserves 1 KiB for each resident block. */
constexpr size_t SHARED_PER_BLOCK = 48 * 1024, SHARED_OPTIN = 227 * 1024;
constexpr size_t SHARED_PER_SM = 228 * 1024, SHARED_RESERVED = 1024;
/* 64 Ki 32-bit registers per block and per SM. */
constexpr int REGS_PER_BLOCK = 65536, REGS_PER_SM = 65536;
/* 64 KiB of constant memory; 50 MiB of L2, of which 31.25 MiB may be set
 * aside for persisting accesses; access-policy windows up to 128 MiB. */
constexpr size_t CONST_MEM = 64 * 1024;
constexpr int L2_BYTES = 50 * 1024 * 1024, L2_PERSIST = 32768000;
constexpr int ACCESS_WINDOW = 128 * 1024 * 1024;
/* Clocks in kHz (1980 MHz SM boost, 2619 MHz HBM3) and the 5120-bit bus. */
constexpr int CLOCK_KHZ = 1980000, MEM_CLOCK_KHZ = 2619000, MEM_BUS_BITS = 5120;
/* Alignments and the pitch limit of cudaMallocPitch. */
constexpr size_t TEXTURE_ALIGN = 512, TEXTURE_PITCH_ALIGN = 32, MEM_PITCH = 0x7fffffff;
/* Copy engines: what an H100 says, though copies here are memcpy. */
constexpr int COPY_ENGINES = 3;

} // namespace h100
} // namespace cuemu

#endif /* CUEMU_DEVICE_MODEL_H */
