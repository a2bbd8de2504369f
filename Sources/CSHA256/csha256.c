// SPDX-License-Identifier: Apache-2.0
//
// SHA-256 compression with SHA-NI. The instructions keep the eight working variables in two registers, lanes
// written high to low: ABEF = {A, B, E, F} and CDGH = {C, D, G, H}. SHA256RNDS2 runs two rounds: given CDGH,
// ABEF and two words W[t] + K[t] in the low half of its third operand, it returns the new ABEF; the old ABEF
// is then the new CDGH, so the two registers swap roles every two rounds and are back in place after four.
// SHA256MSG1 and SHA256MSG2 compute four words of the message schedule (§6.2.2 step 1) at a time.

#include "CSHA256.h"

// K0…K63 (FIPS 180-4 §4.2.2): the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *csha256_round_constants(void) { return round_constants; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int csha256_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;  // CPUID.(EAX=7, ECX=0):EBX bit 29
    return ssse3 && sse41 && sha;
}

// The attribute on a line of its own (clang-format 14 cannot break after it):
// clang-format off
__attribute__((target("sha,ssse3,sse4.1")))
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    // clang-format on
    // Each 32-bit word of a block is big-endian: reverse the bytes within each lane.
    const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    // H0…H7 as loaded are {D, C, B, A} and {H, G, F, E} (lanes high to low); rearrange into ABEF and CDGH.
    const __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);  // {C, D, A, B}
    const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);  // {E, F, G, H}
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for (; blocks > 0; blocks--, data += 64) {
        const __m128i saved_abef = abef, saved_cdgh = cdgh;
        __m128i w[4];  // the last sixteen schedule words, four per register, oldest in w[(group) % 4]
        for (int group = 0; group < 16; group++) {
            __m128i *words = &w[group % 4];
            if (group < 4) {
                *words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), big_endian);
            } else {
                // W[t..t+3] from W[t-16..t-13] (this register), W[t-12..t-9], W[t-8..t-5] and W[t-4..t-1].
                const __m128i w12 = w[(group + 1) % 4], w8 = w[(group + 2) % 4], w4 = w[(group + 3) % 4];
                __m128i next = _mm_sha256msg1_epu32(*words, w12);        // W[t-16] + σ0(W[t-15]), four lanes
                next = _mm_add_epi32(next, _mm_alignr_epi8(w4, w8, 4));  // + W[t-7]
                *words = _mm_sha256msg2_epu32(next, w4);                 // + σ1(W[t-2])
            }
            __m128i wk = _mm_add_epi32(*words, _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);  // rounds 4g, 4g+1: cdgh now holds ABEF
            wk = _mm_shuffle_epi32(wk, 0x0E);              // the upper two words to the low half
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);  // rounds 4g+2, 4g+3: back in place
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }

    // Back to {D, C, B, A} and {H, G, F, E}.
    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);  // {F, E, B, A}
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);  // {D, C, H, G}
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int csha256_available(void) { return 0; }

void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
    __builtin_trap();  // csha256_available() said no
}

#endif
