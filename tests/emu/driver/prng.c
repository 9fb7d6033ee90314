/* Plain C11, compiled by gcc. */
#include <stdint.h>
uint32_t next_value(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 16;
}
