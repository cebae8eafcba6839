/*
 * sym_wrappers.h - the prototypes of the model wrappers, one per name of
 * sym_models.h: __culprit_sym_w_NAME has exactly libc's NAME's signature
 * (culprit-cc redirects calls to them in symbolic mode).  They are defined
 * in sym_models_input.c, sym_models_scanf.c, sym_models_string.c and
 * sym_table.c (toupper, tolower).
 */
#ifndef CULPRIT_SYM_WRAPPERS_H
#define CULPRIT_SYM_WRAPPERS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* input */
ssize_t __culprit_sym_w_read(int fd, void *buffer, size_t size);
size_t __culprit_sym_w_fread(void *data, size_t size, size_t count, FILE *stream);
char *__culprit_sym_w_fgets(char *text, int size, FILE *stream);
int __culprit_sym_w_getc(FILE *stream);
int __culprit_sym_w_fgetc(FILE *stream);
int __culprit_sym_w_getchar(void);
int __culprit_sym_w__IO_getc(FILE *stream);
ssize_t __culprit_sym_w_getline(char **line, size_t *size, FILE *stream);
ssize_t __culprit_sym_w_getdelim(char **line, size_t *size, int delimiter, FILE *stream);
int __culprit_sym_w_ungetc(int character, FILE *stream);
int __culprit_sym_w_scanf(const char *format, ...);
int __culprit_sym_w_fscanf(FILE *stream, const char *format, ...);
int __culprit_sym_w_sscanf(const char *text, const char *format, ...);
int __culprit_sym_w___isoc99_scanf(const char *format, ...);
int __culprit_sym_w___isoc99_fscanf(FILE *stream, const char *format, ...);
int __culprit_sym_w___isoc99_sscanf(const char *text, const char *format, ...);

/* files */
int __culprit_sym_w_open(const char *path, int flags, ...);
int __culprit_sym_w_open64(const char *path, int flags, ...);
int __culprit_sym_w_openat(int directory, const char *path, int flags, ...);
FILE *__culprit_sym_w_fopen(const char *path, const char *mode);
FILE *__culprit_sym_w_fopen64(const char *path, const char *mode);
FILE *__culprit_sym_w_fdopen(int fd, const char *mode);
int __culprit_sym_w_close(int fd);
int __culprit_sym_w_fclose(FILE *stream);

/* typed fields */
long __culprit_sym_w_strtol(const char *text, char **end, int base);
unsigned long __culprit_sym_w_strtoul(const char *text, char **end, int base);
long long __culprit_sym_w_strtoll(const char *text, char **end, int base);
unsigned long long __culprit_sym_w_strtoull(const char *text, char **end, int base);
int __culprit_sym_w_atoi(const char *text);
long __culprit_sym_w_atol(const char *text);
long long __culprit_sym_w_atoll(const char *text);

/* memory and strings */
void *__culprit_sym_w_memcpy(void *destination, const void *source, size_t size);
void *__culprit_sym_w_memmove(void *destination, const void *source, size_t size);
void *__culprit_sym_w_memset(void *destination, int byte, size_t size);
int __culprit_sym_w_memcmp(const void *a, const void *b, size_t size);
int __culprit_sym_w_bcmp(const void *a, const void *b, size_t size);
size_t __culprit_sym_w_strlen(const char *text);
size_t __culprit_sym_w_strnlen(const char *text, size_t limit);
int __culprit_sym_w_strcmp(const char *a, const char *b);
int __culprit_sym_w_strncmp(const char *a, const char *b, size_t limit);
char *__culprit_sym_w_strchr(const char *text, int character);
char *__culprit_sym_w_strrchr(const char *text, int character);
char *__culprit_sym_w_strcpy(char *destination, const char *source);
char *__culprit_sym_w_strncpy(char *destination, const char *source, size_t size);
char *__culprit_sym_w_strcat(char *destination, const char *source);
char *__culprit_sym_w_strdup(const char *text);

/* case conversion */
int __culprit_sym_w_toupper(int character);
int __culprit_sym_w_tolower(int character);

#endif
