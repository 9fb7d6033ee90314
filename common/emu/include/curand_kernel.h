/* curand_kernel.h - part of the cuemu CPU emulator, which does not provide cuRAND:
 * a build that includes it stops here with one line saying so, rather
 * than reading the system toolkit's header (README: Headers). */
#error "cuemu: cuRAND (curand_kernel.h) is not supported by the CPU emulator (common/emu); generate random numbers with your own device function, or build with nvcc on a GPU"
