/* uses_fake.cu - includes a header only a (fake) CUDA toolkit provides;
 * tests/emu/headers.sh makes one and checks the build refuses to read it. */
#include <cuda_fake_extra.h>

int main(void) { return 0; }
