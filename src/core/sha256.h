/*
 * sha256.h - SHA-256 (FIPS 180-4), internal to libculprit.
 *
 * The store names programs by the SHA-256 of their element tables
 * (program_hash.c), so that spectra of a rebuilt program are never mixed
 * with older ones.  Written here rather than pulled from a crypto library
 * because it is the only digest culprit needs and the dependency would cost
 * more than these hundred lines.
 */
#ifndef CULPRIT_SHA256_H
#define CULPRIT_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum { CULPRIT_SHA256_DIGEST_SIZE = 32, CULPRIT_SHA256_BLOCK_SIZE = 64 };

/* A running hash: feed it with update, read it once with final. */
typedef struct culprit_sha256 {
    uint32_t state[8];
    uint64_t total_bytes;                             /* message length so far */
    unsigned char pending[CULPRIT_SHA256_BLOCK_SIZE]; /* a partial block */
    size_t pending_bytes;
} culprit_sha256;

void culprit_sha256_init(culprit_sha256 *context);
void culprit_sha256_update(culprit_sha256 *context, const void *data, size_t size);
/* Pads the message, writes the digest; the context must be re-initialised
 * before it is used again. */
void culprit_sha256_final(culprit_sha256 *context, unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE]);

/* Writes digest as 64 lowercase hex digits and a terminating NUL. */
void culprit_sha256_hex(const unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE], char hex[65]);

#endif
