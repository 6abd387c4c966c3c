#ifndef PARLEY_CEXPAT_SHIM_H
#define PARLEY_CEXPAT_SHIM_H

// expat's API has no variadic functions or macros Swift needs, so the header is enough.
// ParleyXMPP's XMLStreamParser is the only user; it installs handlers that refuse DTDs,
// entity declarations, comments and processing instructions.
#include <expat.h>

#endif
