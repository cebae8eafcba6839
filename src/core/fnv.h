/*
 * fnv.h - FNV-1a, 64 bits: the hash culprit uses where a key only needs to
 * tell things apart, not to be secret or stable across versions (a
 * condition's site, a path prefix, a similarity key).  One definition, so
 * that the constants are written once.
 *
 *     uint64_t hash = culprit_fnv1a(CULPRIT_FNV1A_START, text, strlen(text));
 */
#ifndef CULPRIT_CORE_FNV_H
#define CULPRIT_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define CULPRIT_FNV1A_START UINT64_C(0xcbf29ce484222325)

/* hash extended with size bytes of data. */
static inline uint64_t culprit_fnv1a(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ bytes[i]) * UINT64_C(0x100000001b3);
    return hash;
}

#endif
