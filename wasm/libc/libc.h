/* What PindropCore and the C layer use of the C library: libm, the string and memory functions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
