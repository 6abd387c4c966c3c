// LMDB (Debian's liblmdb-dev), for ParleyLog's LMDB implementation of its message log.
#include <lmdb.h>
