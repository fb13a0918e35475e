/* What PindropCore and the C layer use of the C library: libm, the string and memory functions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>  /* sbrk(0): the memory's size, for the C layer's out-of-memory checks */
