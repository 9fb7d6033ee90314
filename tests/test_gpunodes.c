/* test_gpunodes.c - which GPU device nodes a sandboxed process is shown
 * (gpunodes.h), from fixture files of nvidia-smi's list and the driver's
 * information file: the parsing, the index-to-minor mapping (minors that
 * are not the indices), the child's rewritten CUDA_VISIBLE_DEVICES, and
 * the no-op cases. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpunodes.h"

/* A fixture file of tests/data/gpunodes/, whole. */
static char *fixture(const char *name)
{
    static char text[8192];
    char path[4200];
    snprintf(path, sizeof path, "%s/tests/data/gpunodes/%s", KIT_TOP, name);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    return text;
}

/* Four GPUs whose minors are not their indices (as on machines where the
 * driver numbered them in probe order). */
static int four(gpu_node *nodes)
{
    int n = gpunodes_parse_smi(fixture("smi-4.txt"), nodes, GPUNODES_MAX);
    static const int minors[] = {2, 0, 5, 1};
    for (int i = 0; i < n; i++)
        nodes[i].minor = minors[i];
    return n;
}

Test(gpunodes, bus_ids_become_the_drivers_names)
{
    char out[16];
    cr_assert_eq(gpunodes_bus("00000000:3A:00.0", out, sizeof out), 0);
    cr_assert_str_eq(out, "0000:3a:00.0");
    cr_assert_eq(gpunodes_bus(" 0000:3b:1f.7", out, sizeof out), 0);
    cr_assert_str_eq(out, "0000:3b:1f.7");
    cr_assert_eq(gpunodes_bus("GPU-0000", out, sizeof out), -1);
    cr_assert_eq(gpunodes_bus("0000:3b:00", out, sizeof out), -1);
}

Test(gpunodes, nvidia_smi_lines_are_parsed_and_warnings_skipped)
{
    gpu_node nodes[GPUNODES_MAX];
    int n = gpunodes_parse_smi(fixture("smi-4.txt"), nodes, GPUNODES_MAX);
    cr_assert_eq(n, 4);
    cr_assert_eq(nodes[3].index, 3);
    cr_assert_str_eq(nodes[3].bus, "0000:5d:00.0");
    cr_assert_str_eq(nodes[2].uuid, "GPU-3c4d5e6f-0000-1111-2222-333344445555");
    cr_assert_eq(nodes[0].minor, -1);
    n = gpunodes_parse_smi(fixture("smi-warning.txt"), nodes, GPUNODES_MAX);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(nodes[0].bus, "0000:18:00.0");
}

Test(gpunodes, the_device_minor_is_read_from_the_drivers_file)
{
    cr_assert_eq(gpunodes_parse_minor(fixture("information.txt")), 5);
    cr_assert_eq(gpunodes_parse_minor("Model: X\n"), -1);
    cr_assert_eq(gpunodes_parse_minor("Device Minor: \t \n"), -1);
}

Test(gpunodes, one_gpu_given_hides_the_others_by_their_minors)
{
    gpu_node nodes[GPUNODES_MAX];
    gpu_view v;
    char why[300];
    int n = four(nodes);
    cr_assert_eq(gpunodes_plan("2", nodes, n, &v, why, sizeof why), 0, "%s", why);
    cr_assert(v.active);
    cr_assert_eq(v.nhidden, 3);
    int seen[8] = {0};
    for (int i = 0; i < v.nhidden; i++)
        seen[v.hidden_minor[i]] = 1;
    cr_assert(seen[2] && seen[0] && seen[1] && !seen[5], "index 2 is minor 5: it stays");
    cr_assert_str_eq(v.hidden_bus[0], "0000:18:00.0");
    cr_assert_str_eq(v.visible, "0");
}

Test(gpunodes, several_gpus_keep_their_order_among_themselves)
{
    gpu_node nodes[GPUNODES_MAX];
    gpu_view v;
    char why[300];
    int n = four(nodes);
    cr_assert_eq(gpunodes_plan("3,1", nodes, n, &v, why, sizeof why), 0, "%s", why);
    cr_assert_eq(v.nhidden, 2);
    cr_assert_str_eq(v.visible, "1,0");
    cr_assert_eq(gpunodes_plan("GPU-4d5e,0", nodes, n, &v, why, sizeof why), 0, "%s", why);
    cr_assert_str_eq(v.visible, "1,0");
}

Test(gpunodes, nothing_is_hidden_without_a_mappable_request)
{
    gpu_node nodes[GPUNODES_MAX];
    gpu_view v;
    char why[300];
    int n = four(nodes);
    cr_assert_eq(gpunodes_plan(NULL, nodes, n, &v, why, sizeof why), 1);
    cr_assert_eq(gpunodes_plan("", nodes, n, &v, why, sizeof why), 1);
    cr_assert(!v.active);
    cr_assert_eq(gpunodes_plan("MIG-1234", nodes, n, &v, why, sizeof why), -1);
    cr_assert(!v.active && v.nhidden == 0, "%s", why);
    cr_assert_eq(gpunodes_plan("7", nodes, n, &v, why, sizeof why), -1);
    cr_assert_eq(gpunodes_plan("GPU-", nodes, n, &v, why, sizeof why), -1, "an ambiguous prefix");
    nodes[1].minor = -1; /* the driver's file unread */
    cr_assert_eq(gpunodes_plan("1", nodes, n, &v, why, sizeof why), -1);
    cr_assert(!v.active);
}

Test(gpunodes, a_machine_without_the_driver_is_left_alone)
{
    gpu_view v;
    char why[300];
    if (access("/dev/nvidiactl", F_OK) == 0)
        cr_skip_test("this machine has the NVIDIA driver");
    setenv("CUDA_VISIBLE_DEVICES", "0", 1);
    cr_assert_eq(gpunodes_here(&v, why, sizeof why), 1);
    cr_assert(!v.active);
    unsetenv("CUDA_VISIBLE_DEVICES");
}
