/* Out-of-bounds accesses the emulator must report (argv[1] picks one). */
#include "check.h"

__global__ void read_past_end(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[0] = in[i]; /* no bounds check: threads past n read beyond the end */
    (void)n;
}

__global__ void read_before_start(const int *in, int *out)
{
    out[0] = in[(int)threadIdx.x - 1];
}

__global__ void shared_past_end(int *out)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x + 1]; /* the last thread reads one past */
}

__global__ void through_null(int *p) { p[threadIdx.x] = 1; }

__global__ void use_after_free(int *p) { p[0] = 1; }

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "global";
    int n = 1000;
    int *in, *out;
    CUDA_OK(cudaMalloc(&in, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&out, 1024 * sizeof(int)));
    if (!strcmp(what, "global"))
        read_past_end<<<(n + 255) / 256, 256>>>(in, out, n);
    else if (!strcmp(what, "before"))
        read_before_start<<<1, 32>>>(out, in); /* out: 1024 ints, a whole page */
    else if (!strcmp(what, "shared"))
        shared_past_end<<<2, 64, 64 * sizeof(int)>>>(out);
    else if (!strcmp(what, "null"))
        through_null<<<1, 4>>>(NULL);
    else if (!strcmp(what, "freed")) {
        CUDA_OK(cudaFree(in));
        use_after_free<<<1, 1>>>(in);
    } else if (!strcmp(what, "host")) {
        /* Host code touching device memory past its end. */
        in[n] = 1;
    }
    CUDA_OK(cudaDeviceSynchronize());
    printf("no error detected\n");
    return 0;
}
