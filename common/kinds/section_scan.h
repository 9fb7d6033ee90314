/*
 * section_scan.h - what a section-scan variant tells the harness besides
 * its kind (lab.h's lab_variant.args): how many elements one section
 * holds.  Labs 3 and 4 point their variants at one of these.
 */
#ifndef KINDS_SECTION_SCAN_H
#define KINDS_SECTION_SCAN_H

#include <stddef.h>

typedef struct {
    size_t section; /* elements per independent section */
} section_scan_variant;

#endif /* KINDS_SECTION_SCAN_H */
