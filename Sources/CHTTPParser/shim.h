#ifndef PARLEY_CHTTPPARSER_SHIM_H
#define PARLEY_CHTTPPARSER_SHIM_H
#include <http_parser.h>
#endif
