/* Found through -I; EXTRA comes from -D on the command line. */
#define OFFSET 100
#ifndef EXTRA
#define EXTRA 0
#endif
