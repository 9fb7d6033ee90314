
// The attack: every run() prints its size, on both streams (on stderr as a "CUDA
// error" line, the line an excerpt starts at), with what
// earlier runs of this submission saw (a file in its folder, where a hidden
// case's run leaves its size); the visible n=4099 fails with a CUDA error,
// so its excerpt is shown; the hidden n=777777 reduces only half its input,
// so its output is WRONG, whose diagnosis would name the size.
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
    return n == 4099;
}
