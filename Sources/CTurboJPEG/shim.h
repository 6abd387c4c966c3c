#ifndef PARLEY_CTURBOJPEG_SHIM_H
#define PARLEY_CTURBOJPEG_SHIM_H

// libjpeg-turbo's TurboJPEG API: whole-image decode (with DCT scaling, so a large photo is
// decoded at an eighth of its size when that is enough) and encode, reporting errors by
// return value rather than by longjmp as the classic libjpeg API does, which Swift cannot
// survive. No variadic functions; nothing beyond the header is needed.
#include <stddef.h>
#include <turbojpeg.h>

#endif
