/*
 * sym_models.h - the libc functions that symbolic mode models, as one list
 * (an X-macro) that both sides read: culprit-cc redirects a call to NAME,
 * in a unit built with --coverage=symbolic, to __culprit_sym_w_NAME
 * (src/cc/redirect.c), and the runtime defines each of those wrappers with
 * libc's signature (src/rt/sym_models*.c; culprit_sym.h says what they do).
 * Adding a model is adding its name here and its wrapper there.
 */
#ifndef CULPRIT_SYM_MODELS_H
#define CULPRIT_SYM_MODELS_H

#define CULPRIT_SYM_MODELS(X)                                                                                 \
    /* input */                                                                                               \
    X(read) X(fread) X(fgets) X(getc) X(fgetc) X(getchar) X(_IO_getc) X(getline) X(getdelim) X(ungetc)         \
    X(scanf) X(fscanf) X(sscanf) X(__isoc99_scanf) X(__isoc99_fscanf) X(__isoc99_sscanf)                       \
    /* which descriptors and streams read a declared source */                                                \
    X(open) X(open64) X(openat) X(fopen) X(fopen64) X(fdopen) X(close) X(fclose)                              \
    /* typed fields */                                                                                        \
    X(strtol) X(strtoul) X(strtoll) X(strtoull) X(atoi) X(atol) X(atoll)                                      \
    /* memory and strings */                                                                                  \
    X(memcpy) X(memmove) X(memset) X(memcmp) X(bcmp) X(strlen) X(strnlen) X(strcmp) X(strncmp) X(strchr)       \
    X(strrchr) X(strcpy) X(strncpy) X(strcat) X(strdup)                                                       \
    /* case conversion through glibc's tables (the is* macros read them inline) */                            \
    X(toupper) X(tolower)

#endif
