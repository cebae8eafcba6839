/*
 * program_hash.c - culprit_spectra_program_hash: a program's identity in the
 * store (docs/store.md, "Programs").
 *
 * The hash covers the file table and the element table, never the tests: two
 * runs of the same build must land on the same program, and a rebuilt
 * program whose elements moved must not.  The bytes hashed are a canonical
 * serialisation in which every variable-length field carries its length and
 * every optional field a presence byte, so no two different tables can
 * serialise to the same bytes (a name "a" + path "bc" never collides with
 * "ab" + "c", a NULL name never collides with "").  Kinds are hashed by name,
 * like the store keeps them, so renumbering the enum changes no hash.
 *
 * Changing this serialisation changes every program's identity: bump the
 * version tag and say so in docs/store.md.
 */
#include "core/sha256.h"
#include "culprit/spectra.h"

#include <string.h>

static const char serialisation_tag[] = "culprit program v1";

enum {
    FIELD_ABSENT = 0,
    FIELD_PRESENT = 1,
    FIELD_BAD_FILE_INDEX = 2, /* an element whose file index is outside the file table */
};

static void hash_u64(culprit_sha256 *context, uint64_t value)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(value >> (8 * i)); /* little-endian, whatever the host */
    culprit_sha256_update(context, bytes, sizeof bytes);
}

static void hash_byte(culprit_sha256 *context, unsigned char value)
{
    culprit_sha256_update(context, &value, 1);
}

static void hash_string(culprit_sha256 *context, const char *text)
{
    size_t length = strlen(text);
    hash_u64(context, length);
    culprit_sha256_update(context, text, length);
}

static void hash_optional_string(culprit_sha256 *context, const char *text)
{
    if (!text) {
        hash_byte(context, FIELD_ABSENT);
        return;
    }
    hash_byte(context, FIELD_PRESENT);
    hash_string(context, text);
}

static void hash_element(culprit_sha256 *context, const culprit_spectra *spectra,
                         const culprit_element *element)
{
    hash_string(context, culprit_kind_name(element->kind));
    if (element->file == CULPRIT_NO_FILE) {
        hash_byte(context, FIELD_ABSENT);
    } else if (element->file < spectra->file_count) {
        hash_byte(context, FIELD_PRESENT);
        hash_string(context, spectra->files[element->file]);
    } else {
        hash_byte(context, FIELD_BAD_FILE_INDEX);
        hash_u64(context, element->file);
    }
    hash_u64(context, element->line);
    hash_u64(context, element->column);
    hash_optional_string(context, element->name);
}

void culprit_spectra_program_hash(const culprit_spectra *spectra, char hex[65])
{
    culprit_sha256 context;
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, serialisation_tag, sizeof serialisation_tag); /* with its NUL */
    hash_u64(&context, spectra->file_count);
    for (size_t i = 0; i < spectra->file_count; i++)
        hash_string(&context, spectra->files[i]);
    hash_u64(&context, spectra->element_count);
    for (size_t i = 0; i < spectra->element_count; i++)
        hash_element(&context, spectra, &spectra->elements[i]);
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
}
