#ifndef ROLODECK_CQRENCODE_SHIM_H
#define ROLODECK_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
