#ifndef ROLODECK_CQRENCODE_SHIM_H
#define ROLODECK_CQRENCODE_SHIM_H
#include <qrencode.h>

/* Encodes `input` with the given mask pattern (0 to 7), or with the best of the eight by the
 * standard's penalty score when `mask` is negative, which is what QRcode_encodeInput does.
 * libqrencode exports it but leaves it out of qrencode.h; Debian's libqrencode4 lists it in its
 * symbols file (QRcode_encodeMask@Base 3.2.0), so it is part of the library's tracked ABI. */
extern QRcode *QRcode_encodeMask(QRinput *input, int mask);

#endif
