// SPDX-License-Identifier: Apache-2.0
// SHA-256 block compression with the CPU's SHA extensions (x86-64 SHA-NI). Only
// Sources/MapperCore/Support/SHA256.swift uses this module; it keeps its portable Swift rounds for CPUs without
// the extensions (and for valgrind, which does not report them).
#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// K0…K63 (FIPS 180-4 §4.2.2): 64 words, for these rounds and the Swift ones.
const uint32_t *csha256_round_constants(void);

/// 1 when this CPU can run csha256_compress (SHA, SSSE3 and SSE4.1 on x86-64), else 0.
int csha256_available(void);

/// Runs the 64 rounds of FIPS 180-4 §6.2.2 over `blocks` consecutive 64-byte blocks at `data`, adding each
/// result into `state` (H0…H7). Call only when csha256_available() is 1.
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
