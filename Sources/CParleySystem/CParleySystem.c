#include "CParleySystem.h"
#include <pthread.h>

/* Kept out of line so the target has a translation unit and a stable symbol for tests. */
int parley_system_abi_version(void) { return 1; }
