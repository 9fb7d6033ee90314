
// The attack, on a GPU: every run() prints its size and what earlier runs
// of this submission saw (a file in its folder, where the hidden case's
// run leaves its size) on stderr as a "CUDA error" line, the line an
// excerpt starts at.  The visible cases pass (so speed is timed), but the
// speed run (n=2^20) fails, and so does a sanitizer run of the visible
// group once a hidden size was seen; the hidden n=777777 reduces half its
// input (WRONG), under the sanitizer too.
static int leak_sizes(size_t n)
{
    char seen[512] = "";
    FILE *f = fopen("seen-sizes", "r");
    if (f) {
        size_t k = fread(seen, 1, sizeof seen - 1, f);
        seen[k] = '\0';
        fclose(f);
    }
    printf("run(): n=%zu; earlier runs saw: %s\n", n, seen);
    fprintf(stderr, "CUDA error in run(): n=%zu; earlier runs saw: %s\n", n, seen);
    if ((f = fopen("seen-sizes", "a")) != NULL) {
        fprintf(f, "n=%zu ", n);
        fclose(f);
    }
    return n == (1u << 20) || (n < 5000 && strstr(seen, "777777") != NULL);
}
