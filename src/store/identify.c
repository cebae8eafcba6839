/*
 * identify.c - is this file a culprit store, and of which schema version?
 *
 * culprit_store_open asks these questions before it writes anything, so that
 * a mistyped --store pointing at someone else's file (a text file, another
 * program's SQLite database, a store from a newer culprit) is reported and
 * left exactly as it was.  The file's first bytes are checked by hand, so
 * SQLite never even opens a file that is not an SQLite database; SQLite
 * databases are then examined over a read-only connection.
 */
#include "store/store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "culprit/error.h"

/* Every SQLite 3 database file starts with these 16 bytes (the NUL included). */
static const char sqlite_magic[16] = "SQLite format 3";

static culprit_status not_sqlite(const char *path, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a culprit store (not an SQLite database)", path);
}

/* Reads up to size bytes, retrying short reads; returns the count or -1. */
static ssize_t read_prefix(int descriptor, unsigned char *buffer, size_t size)
{
    size_t done = 0;
    while (done < size) {
        ssize_t got = read(descriptor, buffer + done, size - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

/* Reads the first bytes of an open file into header; *got is how many. */
static culprit_status read_header(const char *path, int descriptor, unsigned char *header, size_t size,
                                  ssize_t *got, culprit_error *err)
{
    struct stat info;
    if (fstat(descriptor, &info) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot stat: %s", path, strerror(errno));
    if (!S_ISREG(info.st_mode))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a culprit store (not a regular file)", path);
    *got = read_prefix(descriptor, header, size);
    if (*got < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot read: %s", path, strerror(errno));
    return CULPRIT_OK;
}

/* The database header's big-endian 32-bit field at offset. */
static int64_t header_field(const unsigned char *header, size_t offset)
{
    uint32_t value = (uint32_t)header[offset] << 24 | (uint32_t)header[offset + 1] << 16 |
                     (uint32_t)header[offset + 2] << 8 | header[offset + 3];
    return (int32_t)value;
}

culprit_status culprit_store_check_file(const char *path, bool *exists, bool *empty, int *header_version,
                                        culprit_error *err)
{
    /* The header's fields (sqlite.org/fileformat.html, 1.3): the user
     * version at offset 60, the application id at 68, in 100 bytes. */
    enum { HEADER_SIZE = 100, USER_VERSION_AT = 60, APPLICATION_ID_AT = 68 };
    *exists = false;
    *empty = false;
    *header_version = -1;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return CULPRIT_OK;
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot open: %s", path, strerror(errno));
    }
    unsigned char header[HEADER_SIZE];
    ssize_t got = 0;
    culprit_status status = read_header(path, descriptor, header, sizeof header, &got, err);
    close(descriptor);
    if (status != CULPRIT_OK)
        return status;
    *exists = true;
    *empty = got == 0;
    if (got != 0 &&
        ((size_t)got < sizeof sqlite_magic || memcmp(header, sqlite_magic, sizeof sqlite_magic) != 0))
        return not_sqlite(path, err);
    if (got == HEADER_SIZE && header_field(header, APPLICATION_ID_AT) == CULPRIT_STORE_APPLICATION_ID)
        *header_version = (int)header_field(header, USER_VERSION_AT);
    return CULPRIT_OK;
}

/* The facts identification goes by. */
typedef struct database_identity {
    int64_t application_id;
    int64_t user_version;
    int64_t table_count;
} database_identity;

static culprit_status read_identity(const culprit_store *store, database_identity *identity,
                                    culprit_error *err)
{
    culprit_status status =
        culprit_store_query_integer(store, "PRAGMA application_id", &identity->application_id, err);
    if (status == CULPRIT_OK)
        status = culprit_store_query_integer(store, "PRAGMA user_version", &identity->user_version, err);
    /* Reading the schema table also makes SQLite parse it, which is where a
     * damaged first page shows up. */
    if (status == CULPRIT_OK)
        status = culprit_store_query_integer(store, "SELECT count(*) FROM sqlite_master",
                                             &identity->table_count, err);
    return status;
}

static culprit_status foreign(const culprit_store *store, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a culprit store (foreign SQLite database)",
                        store->path);
}

culprit_status culprit_store_identify(const culprit_store *store, int *version, culprit_error *err)
{
    database_identity identity;
    culprit_status status = read_identity(store, &identity, err);
    if (status != CULPRIT_OK)
        return status;
    if (identity.application_id == 0) {
        /* Nobody has claimed an empty database yet (culprit writes its id
         * in the same transaction as its first tables), so it is ours to
         * initialise; anything with content or a version is someone else's. */
        if (identity.table_count > 0 || identity.user_version != 0)
            return foreign(store, err);
        *version = 0;
        return CULPRIT_OK;
    }
    if (identity.application_id != CULPRIT_STORE_APPLICATION_ID)
        return foreign(store, err);
    if (identity.user_version > CULPRIT_STORE_SCHEMA_VERSION)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: store schema version %lld is newer than this culprit supports (%d)",
                            store->path, (long long)identity.user_version, CULPRIT_STORE_SCHEMA_VERSION);
    if (identity.user_version < 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: schema version %lld",
                            store->path, (long long)identity.user_version);
    *version = (int)identity.user_version;
    if (*version == CULPRIT_STORE_SCHEMA_VERSION)
        return culprit_store_check_tables(store, err);
    return CULPRIT_OK;
}
