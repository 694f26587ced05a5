// SHA-256's compression function with the x86 SHA extensions (SHA-NI), for naming photos by
// their digest: every build hashes every photo it reads, and the plain Swift function hashed
// about 220 MB a second here. The rounds follow Intel's description of the instructions: the
// state is kept as ABEF and CDGH, each SHA256RNDS2 does two rounds, and SHA256MSG1/MSG2 extend
// the message schedule four words at a time.
#include "rolodeck_system.h"

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const unsigned int round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const unsigned int *rolodeck_sha256_round_constants(void) { return round_constants; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int rolodeck_sha256_hardware(void) {
    unsigned int a, b, c, d;
    // SSSE3 and SSE4.1 (leaf 1, ECX bits 9 and 19) for the shuffles, and SHA (leaf 7, EBX bit 29).
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 29)) != 0;
}

__attribute__((target("sha,sse4.1,ssse3")))
void rolodeck_sha256_blocks(unsigned int state[8], const unsigned char *data, size_t blocks) {
    // The message's words are big-endian: each 32-bit lane's bytes are reversed.
    const __m128i byte_order = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // state is A B C D E F G H; the instructions take A B E F and C D G H, highest lane first.
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xb1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1b);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        // The schedule's last four groups of four words, the group of round group i at i % 4.
        __m128i words[4];
        for (int i = 0; i < 4; i++) {
            words[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_order);
        }
#pragma clang loop unroll(full)
        for (int i = 0; i < 16; i++) {
            __m128i message = _mm_add_epi32(words[i % 4],
                                            _mm_loadu_si128((const __m128i *)&round_constants[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            if (i >= 3 && i <= 14) {
                // The next group's words: W[t-16] + s0 (from MSG1, done three groups before),
                // + W[t-7], then + s1 (MSG2).
                __m128i next = words[(i + 1) % 4];
                next = _mm_add_epi32(next, _mm_alignr_epi8(words[i % 4], words[(i + 3) % 4], 4));
                words[(i + 1) % 4] = _mm_sha256msg2_epu32(next, words[i % 4]);
            }
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0e));
            if (i >= 1 && i <= 12) {
                words[(i + 3) % 4] = _mm_sha256msg1_epu32(words[(i + 3) % 4], words[i % 4]);
            }
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    // Back to A B C D and E F G H.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int rolodeck_sha256_hardware(void) { return 0; }

void rolodeck_sha256_blocks(unsigned int state[8], const unsigned char *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

#endif
