
/* The attack: a kernel with the name of the kit's witness mark
 * (common/witness_mark.h), launched once before the harness starts, so
 * that the witness's table has a mark for case 0 where the harness did not
 * put one: if the grader split the table by whatever is named so, the
 * kernels of one case could be counted as another's. */
extern "C" __global__ void kit_witness_mark(void) {}

__attribute__((constructor)) static void forge_a_mark(void)
{
    kit_witness_mark<<<1, 1>>>();
    cudaDeviceSynchronize();
}
