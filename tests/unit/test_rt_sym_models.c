/*
 * test_rt_sym_models.c - the model wrappers (src/rt/sym_models_*.c) do what
 * libc does: every name of sym_models.h has a wrapper; with CULPRIT_SYM
 * unset each wrapper returns exactly libc's result and leaves the same
 * bytes and stream positions; with CULPRIT_SYM=1 (a child process, since
 * the mode is read once) the scanf family, run directive by directive,
 * still returns what one libc call returns, on matching and failing
 * inputs alike.
 */
#include "check.h"
#include "rt/culprit_sym.h"
#include "rt/sym_models.h"
#include "rt/sym_wrappers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern int __isoc99_sscanf(const char *text, const char *format, ...);

/* Every modelled name links to a wrapper. */
#define WRAPPER_ADDRESS(name) (const void *)__culprit_sym_w_##name,
static const void *const wrappers[] = {CULPRIT_SYM_MODELS(WRAPPER_ADDRESS)};

static void test_every_model_has_a_wrapper(void)
{
    size_t count = sizeof wrappers / sizeof wrappers[0];
    CHECK_INT(count, 48); /* the names of sym_models.h */
    for (size_t i = 0; i < count; i++)
        CHECK(wrappers[i] != NULL);
}

/* Two streams on the same bytes: one read through wrappers, one through libc. */
static FILE *temporary_with(const char *text)
{
    FILE *file = tmpfile();
    if (file) {
        fputs(text, file);
        rewind(file);
    }
    return file;
}

static void test_stream_readers(void)
{
    const char *text = "12 abc\nsecond line\n\nlast";
    FILE *ours = temporary_with(text), *theirs = temporary_with(text);
    if (!ours || !theirs)
        return;
    char a[64], b[64];
    CHECK_INT(__culprit_sym_w_getc(ours), getc(theirs));
    CHECK_INT(__culprit_sym_w_fgetc(ours), fgetc(theirs));
    CHECK_INT(__culprit_sym_w_ungetc('2', ours), ungetc('2', theirs));
    CHECK_INT(__culprit_sym_w__IO_getc(ours), getc(theirs));
    CHECK(__culprit_sym_w_fgets(a, 5, ours) == a && fgets(b, 5, theirs) == b);
    CHECK_STR(a, b);
    CHECK_INT(__culprit_sym_w_fread(a, 3, 2, ours), fread(b, 3, 2, theirs));
    CHECK(memcmp(a, b, 6) == 0);
    char *line_a = NULL, *line_b = NULL;
    size_t size_a = 0, size_b = 0;
    CHECK_INT(__culprit_sym_w_getline(&line_a, &size_a, ours), getline(&line_b, &size_b, theirs));
    CHECK_STR(line_a, line_b);
    CHECK_INT(__culprit_sym_w_getdelim(&line_a, &size_a, 't', ours), getdelim(&line_b, &size_b, 't', theirs));
    CHECK_STR(line_a, line_b);
    CHECK_INT(__culprit_sym_w_getdelim(&line_a, &size_a, 't', ours), getdelim(&line_b, &size_b, 't', theirs));
    CHECK_INT(__culprit_sym_w_fgets(a, 5, ours) == NULL, fgets(b, 5, theirs) == NULL);
    CHECK_INT(__culprit_sym_w_fread(a, 1, 4, ours), fread(b, 1, 4, theirs));
    CHECK_INT(__culprit_sym_w_getc(ours), getc(theirs));
    CHECK_INT(feof(ours) != 0, feof(theirs) != 0);
    free(line_a);
    free(line_b);
    fclose(ours);
    CHECK_INT(__culprit_sym_w_fclose(theirs), 0);
}

static void test_descriptors(void)
{
    char path[] = "/tmp/culprit-test-sym-models-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    CHECK_INT(write(fd, "abcdef", 6), 6);
    close(fd);
    int ours = __culprit_sym_w_open(path, O_RDONLY), theirs = open(path, O_RDONLY);
    CHECK(ours >= 0 && theirs >= 0);
    char a[8], b[8];
    CHECK_INT(__culprit_sym_w_read(ours, a, 4), read(theirs, b, 4));
    CHECK(memcmp(a, b, 4) == 0);
    CHECK_INT(__culprit_sym_w_read(ours, a, 8), read(theirs, b, 8));
    CHECK_INT(__culprit_sym_w_read(ours, a, 8), 0);
    CHECK_INT(__culprit_sym_w_close(ours), 0);
    close(theirs);
    errno = 0;
    CHECK_INT(__culprit_sym_w_open("/nonexistent/culprit", O_RDONLY), -1);
    CHECK_INT(errno, ENOENT);
    CHECK_INT(__culprit_sym_w_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC) >= 0, 1);
    FILE *stream = __culprit_sym_w_fopen(path, "r");
    CHECK(stream != NULL);
    CHECK_INT(stream ? __culprit_sym_w_fgetc(stream) : 0, 'a');
    if (stream)
        fclose(stream);
    FILE *adopted = __culprit_sym_w_fdopen(__culprit_sym_w_open64(path, O_RDONLY), "r");
    CHECK_INT(adopted ? getc(adopted) : 0, 'a');
    if (adopted)
        fclose(adopted);
    CHECK(__culprit_sym_w_fopen64("/nonexistent/culprit", "r") == NULL);
    unlink(path);
}

static int sign(int value)
{
    return (value > 0) - (value < 0);
}

static void test_strings(void)
{
    const char *numbers[] = {"  42xyz", "-0x1F", "0777", "+9", "", "abc", "99999999999999999999", "\t-12 "};
    int bases[] = {10, 16, 0, 8};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        for (size_t k = 0; k < 4; k++) {
            char *end_a, *end_b;
            errno = 0;
            long ours = __culprit_sym_w_strtol(numbers[i], &end_a, bases[k]);
            int errno_ours = errno;
            errno = 0;
            CHECK_INT(ours, strtol(numbers[i], &end_b, bases[k]));
            CHECK_INT(errno_ours, errno);
            CHECK(end_a == end_b);
            CHECK(__culprit_sym_w_strtoul(numbers[i], NULL, bases[k]) == strtoul(numbers[i], NULL, bases[k]));
            CHECK(__culprit_sym_w_strtoll(numbers[i], NULL, bases[k]) == strtoll(numbers[i], NULL, bases[k]));
            CHECK(__culprit_sym_w_strtoull(numbers[i], NULL, bases[k]) ==
                  strtoull(numbers[i], NULL, bases[k]));
        }
        CHECK_INT(__culprit_sym_w_atoi(numbers[i]), atoi(numbers[i]));
        CHECK_INT(__culprit_sym_w_atol(numbers[i]), atol(numbers[i]));
        CHECK_INT(__culprit_sym_w_atoll(numbers[i]), atoll(numbers[i]));
    }
    const char *words[] = {"", "a", "abc", "abd", "ab", "b\xff", "b\x01"};
    size_t count = sizeof words / sizeof words[0];
    for (size_t i = 0; i < count; i++) {
        CHECK_INT(__culprit_sym_w_strlen(words[i]), strlen(words[i]));
        CHECK_INT(__culprit_sym_w_strnlen(words[i], 2), strnlen(words[i], 2));
        CHECK(__culprit_sym_w_strchr(words[i], 'b') == strchr(words[i], 'b'));
        CHECK(__culprit_sym_w_strrchr(words[i], 'b') == strrchr(words[i], 'b'));
        CHECK(__culprit_sym_w_strchr(words[i], 0) == strchr(words[i], 0));
        for (size_t k = 0; k < count; k++) {
            CHECK_INT(__culprit_sym_w_strcmp(words[i], words[k]), strcmp(words[i], words[k]));
            CHECK_INT(__culprit_sym_w_strncmp(words[i], words[k], 2), strncmp(words[i], words[k], 2));
            CHECK_INT(sign(__culprit_sym_w_memcmp(words[i], words[k], 1)),
                      sign(memcmp(words[i], words[k], 1)));
            CHECK_INT(__culprit_sym_w_bcmp(words[i], words[k], 1) != 0, bcmp(words[i], words[k], 1) != 0);
        }
    }
    char a[16] = "xxxxxxxxxxxxxxx", b[16] = "xxxxxxxxxxxxxxx";
    CHECK(__culprit_sym_w_strcpy(a, "abc") == a && strcpy(b, "abc") == b);
    CHECK(__culprit_sym_w_strcat(a, "de") == a && strcat(b, "de") == b);
    CHECK(__culprit_sym_w_strncpy(a + 5, "fg", 4) == a + 5 && strncpy(b + 5, "fg", 4) == b + 5);
    CHECK(__culprit_sym_w_memset(a + 10, 'z', 3) == a + 10 && memset(b + 10, 'z', 3) == b + 10);
    CHECK(__culprit_sym_w_memmove(a + 1, a, 4) == a + 1 && memmove(b + 1, b, 4) == b + 1);
    CHECK(__culprit_sym_w_memcpy(a + 12, "Q", 1) == a + 12 && memcpy(b + 12, "Q", 1) == b + 12);
    CHECK(memcmp(a, b, sizeof a) == 0);
    char *copy = __culprit_sym_w_strdup(a);
    CHECK_STR(copy, a);
    free(copy);
}

/* scanf's pieces must add up to one libc call. */
struct scan_case {
    const char *input, *format;
};
static const struct scan_case scan_cases[] = {
    {"12 34", "%d %d"},
    {"12,x", "%d,%d"},
    {"12345", "%3d%d"},
    {"ff 17 0x10", "%x %o %i"},
    {"word 5", "%s %d"},
    {"ab", "%c%c"},
    {"abc123", "%[a-z]%n%d"},
    {"7 8", "%*d %d"},
    {"abc9", "abc%d"},
    {"5%", "%d%%"},
    {"-1 300 70000", "%lld %hhd %hu"},
    {"1.5 2", "%f %d"},
    {"", "%d"},
    {"   ", "%d"},
    {"x", "%d"},
    {"1 ", "%d %d"},
    {"4 5", "%d%n %d"},
    {"9 end", "%d end"},
    {"9", "%d end"},
    {"0x", "%x"},
    {"-", "%d"},
    {"12 34", "%2$d %1$d"},
};

static void test_scanf_against_libc(void)
{
    for (size_t i = 0; i < sizeof scan_cases / sizeof scan_cases[0]; i++) {
        const struct scan_case *c = &scan_cases[i];
        long long ours[4] = {0}, theirs[4] = {0};
        char word_a[16] = "", word_b[16] = "";
        int positional = strstr(c->format, "$") != NULL;
        int a = positional ? __culprit_sym_w_sscanf(c->input, c->format, &ours[0], &ours[1])
                : strstr(c->format, "%s") || strstr(c->format, "%[")
                    ? __culprit_sym_w_sscanf(c->input, c->format, word_a, &ours[1], &ours[2])
                    : __culprit_sym_w_sscanf(c->input, c->format, &ours[0], &ours[1], &ours[2], &ours[3]);
        int b = positional ? __isoc99_sscanf(c->input, c->format, &theirs[0], &theirs[1])
                : strstr(c->format, "%s") || strstr(c->format, "%[")
                    ? __isoc99_sscanf(c->input, c->format, word_b, &theirs[1], &theirs[2])
                    : __isoc99_sscanf(c->input, c->format, &theirs[0], &theirs[1], &theirs[2], &theirs[3]);
        CHECK_RECORD(a == b, "sscanf(\"%s\", \"%s\") gave %d, libc %d", c->input, c->format, a, b);
        CHECK_RECORD(memcmp(ours, theirs, sizeof ours) == 0 && strcmp(word_a, word_b) == 0,
                     "sscanf(\"%s\", \"%s\") stored other values", c->input, c->format);
        /* and on a stream, where the position afterwards matters too */
        FILE *x = temporary_with(c->input), *y = temporary_with(c->input);
        if (!x || !y)
            continue;
        memset(ours, 0, sizeof ours);
        memset(theirs, 0, sizeof theirs);
        if (!strstr(c->format, "%s") && !strstr(c->format, "%[")) {
            a = __culprit_sym_w_fscanf(x, c->format, &ours[0], &ours[1], &ours[2], &ours[3]);
            b = fscanf(y, c->format, &theirs[0], &theirs[1], &theirs[2], &theirs[3]);
            CHECK_RECORD(a == b, "fscanf(\"%s\", \"%s\") gave %d, libc %d", c->input, c->format, a, b);
            CHECK_RECORD(memcmp(ours, theirs, sizeof ours) == 0, "fscanf(\"%s\") stored other values",
                         c->format);
            CHECK_RECORD(getc(x) == getc(y), "fscanf(\"%s\", \"%s\") left the stream elsewhere", c->input,
                         c->format);
        }
        fclose(x);
        fclose(y);
    }
}

static void run_all(void)
{
    test_every_model_has_a_wrapper();
    test_stream_readers();
    test_descriptors();
    test_strings();
    test_scanf_against_libc();
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "symbolic") == 0) {
        run_all(); /* CULPRIT_SYM=1, set by the parent */
        return check_failed != 0 ? 1 : 0;
    }
    unsetenv("CULPRIT_SYM");
    run_all();
    /* The same checks with symbolic execution on, in a child. */
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        setenv("CULPRIT_SYM", "1", 1);
        execl("/proc/self/exe", "test_rt_sym_models", "symbolic", (char *)NULL);
        _exit(97);
    }
    int status = -1;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    CHECK_RECORD(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the symbolic run failed (status %d)",
                 status);
    return check_report("test_rt_sym_models");
}
