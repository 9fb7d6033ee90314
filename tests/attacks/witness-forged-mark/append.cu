
/* The attack: a kernel with the name of the kit's witness mark
 * (common/witness_mark.h), launched by the lab's first run() of the
 * process, so that the witness's table has a mark for case 0 where the
 * harness did not put one: if the grader split the table by whatever is
 * named so, the kernels of one case could be counted as another's.  (From
 * a constructor, before the CUDA runtime has registered this file's
 * kernels, the launch fails and leaves an error that every case then
 * reports: no mark, and the attack would test nothing.) */
extern "C" __global__ void kit_witness_mark(void) {}

static void forge_a_mark(void)
{
    static int done;
    if (!done++)
        kit_witness_mark<<<1, 1>>>();
}
