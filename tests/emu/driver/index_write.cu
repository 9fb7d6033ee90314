// Assigning a built-in index variable is an error, as with nvcc
// ("expression must be a modifiable lvalue"): the emulator declares them
// const, as CUDA does.
__global__ void moves(unsigned *out)
{
    threadIdx.x = 0;
    out[0] = threadIdx.x;
}
