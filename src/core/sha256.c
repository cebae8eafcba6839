/*
 * sha256.c - SHA-256 as specified in FIPS 180-4 (see sha256.h for why it
 * lives here).  Straightforward and portable rather than fast: it hashes
 * element tables of a few megabytes, once per program.
 */
#include "core/sha256.h"

#include <string.h>

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
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

static uint32_t rotate_right(uint32_t value, unsigned bits)
{
    return (value >> bits) | (value << (32 - bits));
}

static uint32_t load_big_endian_32(const unsigned char *bytes)
{
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | (uint32_t)bytes[3];
}

static void store_big_endian_32(unsigned char *bytes, uint32_t value)
{
    bytes[0] = (unsigned char)(value >> 24);
    bytes[1] = (unsigned char)(value >> 16);
    bytes[2] = (unsigned char)(value >> 8);
    bytes[3] = (unsigned char)value;
}

/* The message schedule W0..W63 of one block (FIPS 180-4 §6.2.2 step 1). */
static void expand_schedule(const unsigned char block[CULPRIT_SHA256_BLOCK_SIZE], uint32_t schedule[64])
{
    for (int t = 0; t < 16; t++)
        schedule[t] = load_big_endian_32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t w15 = schedule[t - 15], w2 = schedule[t - 2];
        uint32_t sigma0 = rotate_right(w15, 7) ^ rotate_right(w15, 18) ^ (w15 >> 3);
        uint32_t sigma1 = rotate_right(w2, 17) ^ rotate_right(w2, 19) ^ (w2 >> 10);
        schedule[t] = schedule[t - 16] + sigma0 + schedule[t - 7] + sigma1;
    }
}

/* Folds one 64-byte block into the state (FIPS 180-4 §6.2.2 steps 2-4). */
static void compress_block(uint32_t state[8], const unsigned char block[CULPRIT_SHA256_BLOCK_SIZE])
{
    uint32_t schedule[64];
    expand_schedule(block, schedule);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t temporary1 = h + sum1 + choose + round_constants[t] + schedule[t];
        uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t temporary2 = sum0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + temporary1;
        d = c;
        c = b;
        b = a;
        a = temporary1 + temporary2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void culprit_sha256_init(culprit_sha256 *context)
{
    /* FIPS 180-4 §5.3.3: the fractional parts of the square roots of the
     * first eight primes. */
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(context->state, initial, sizeof initial);
    context->total_bytes = 0;
    context->pending_bytes = 0;
}

void culprit_sha256_update(culprit_sha256 *context, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    context->total_bytes += size;
    if (context->pending_bytes > 0) {
        size_t room = CULPRIT_SHA256_BLOCK_SIZE - context->pending_bytes;
        size_t taken = size < room ? size : room;
        memcpy(context->pending + context->pending_bytes, bytes, taken);
        context->pending_bytes += taken;
        bytes += taken;
        size -= taken;
        if (context->pending_bytes < CULPRIT_SHA256_BLOCK_SIZE)
            return;
        compress_block(context->state, context->pending);
        context->pending_bytes = 0;
    }
    /* Whole blocks straight from the caller's buffer, no copy. */
    for (; size >= CULPRIT_SHA256_BLOCK_SIZE;
         bytes += CULPRIT_SHA256_BLOCK_SIZE, size -= CULPRIT_SHA256_BLOCK_SIZE)
        compress_block(context->state, bytes);
    memcpy(context->pending, bytes, size);
    context->pending_bytes = size;
}

void culprit_sha256_final(culprit_sha256 *context, unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE])
{
    /* FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 bytes into a block, then
     * the message length in bits as a big-endian 64-bit number. */
    uint64_t total_bits = context->total_bytes * 8;
    context->pending[context->pending_bytes++] = 0x80;
    if (context->pending_bytes > CULPRIT_SHA256_BLOCK_SIZE - 8) {
        memset(context->pending + context->pending_bytes, 0,
               CULPRIT_SHA256_BLOCK_SIZE - context->pending_bytes);
        compress_block(context->state, context->pending);
        context->pending_bytes = 0;
    }
    memset(context->pending + context->pending_bytes, 0,
           CULPRIT_SHA256_BLOCK_SIZE - 8 - context->pending_bytes);
    store_big_endian_32(context->pending + 56, (uint32_t)(total_bits >> 32));
    store_big_endian_32(context->pending + 60, (uint32_t)total_bits);
    compress_block(context->state, context->pending);
    for (int i = 0; i < 8; i++)
        store_big_endian_32(digest + 4 * i, context->state[i]);
}

void culprit_sha256_hex(const unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE], char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < CULPRIT_SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 0xf];
    }
    hex[64] = '\0';
}
