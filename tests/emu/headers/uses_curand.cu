/* uses_curand.cu - cuRAND is not provided: the build must stop, naming the emulator. */
#include <curand_kernel.h>

int main(void) { return 0; }
