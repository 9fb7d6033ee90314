/* A program that includes Thrust: emu-nvcc must stop with one clear line
 * (the emulator does not support Thrust or CUB). */
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

int main()
{
    thrust::device_vector<int> v(10, 1);
    printf("%d\n", thrust::reduce(v.begin(), v.end()));
    return 0;
}
