#ifndef ROLODECK_CCMARK_SHIM_H
#define ROLODECK_CCMARK_SHIM_H
#include <cmark.h>
#endif
