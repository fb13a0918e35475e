#ifndef PINDROP_CGEOS_SHIM_H
#define PINDROP_CGEOS_SHIM_H
#include <geos_c.h>
#endif
