/*
 * test_fault_location.c - unit tests of src/collect/fault_location.c.
 *
 * A small program is written and compiled here with clang-14 (a declared
 * dependency: when it is missing these tests fail, they do not skip) in
 * several ways: -O0 non-PIE, -O2 PIE, as a shared object, with DWARF 4 and
 * 5, without debug information.  Run, it reports, for the module that holds
 * its functions, the load bias found with dl_iterate_phdr and link-time
 * addresses: a function's entry, a return address inside it, and so on.
 * The lookup must place them on the lines and columns the source has (found
 * by marker comments, so the source can change), or report "not found"
 * without an error where the tables cannot place them.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "collect/fault_location.h"

/* The program: report() prints the bias of the module holding target, the
 * module's name, and link-time addresses (run-time minus bias). */
static const char program_source[] =
    "#define _GNU_SOURCE\n"
    "#include <link.h>\n"
    "#include <stdint.h>\n"
    "#include <stdio.h>\n"
    "\n"
    "static uintptr_t returned;\n"
    "static volatile int sink;\n"
    "int zero(int x);\n"
    "\n"
    "struct module {\n"
    "    uintptr_t address, bias;\n"
    "    const char *name;\n"
    "};\n"
    "\n"
    "static int find_module(struct dl_phdr_info *info, size_t size, void *data)\n"
    "{\n"
    "    struct module *module = data;\n"
    "    (void)size;\n"
    "    for (int i = 0; i < info->dlpi_phnum; i++) {\n"
    "        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];\n"
    "        uintptr_t start = info->dlpi_addr + segment->p_vaddr;\n"
    "        if (segment->p_type == PT_LOAD && module->address - start < segment->p_memsz) {\n"
    "            module->bias = info->dlpi_addr;\n"
    "            module->name = info->dlpi_name;\n"
    "            return 1;\n"
    "        }\n"
    "    }\n"
    "    return 0;\n"
    "}\n"
    "\n"
    "__attribute__((noinline)) static void helper(void)\n"
    "{ /* helper-brace */\n"
    "    returned = (uintptr_t)__builtin_return_address(0); /* helper-body */\n"
    "    sink++;\n"
    "}\n"
    "\n"
    "__attribute__((noinline)) int target(int x) /* target-declaration */\n"
    "{ /* target-brace */\n"
    "    sink = x;\n"
    "    helper(); /* target-call */\n"
    "    return sink + 1;\n"
    "}\n"
    "\n"
    "void report(void)\n"
    "{\n"
    "    struct module module = {(uintptr_t)&target, 0, \"\"};\n"
    "    dl_iterate_phdr(find_module, &module);\n"
    "    target(1);\n"
    "    uintptr_t bias = module.bias;\n"
    "    printf(\"%lu %lu %lu %lu %lu [%s]\\n\", (unsigned long)bias, (unsigned long)((uintptr_t)&target - "
    "bias),\n"
    "           (unsigned long)(returned - 1 - bias), (unsigned long)((uintptr_t)&helper - bias),\n"
    "           (unsigned long)((uintptr_t)&zero - bias), module.name);\n"
    "}\n"
    "\n"
    "/* Last: the line numbers after this are made up. */\n"
    "#line 0\n"
    "__attribute__((noinline)) int zero(int x) {\n"
    "    sink = x;\n"
    "    return sink;\n"
    "}\n";

static const char main_source[] = "void report(void);\n"
                                  "\n"
                                  "int main(void)\n"
                                  "{\n"
                                  "    report();\n"
                                  "    return 0;\n"
                                  "}\n";

/* What the program printed: the bias, link-time addresses of target's
 * entry, of the call in target (return address - 1), of helper's entry and
 * of zero's entry, and the module's name ("" for the executable). */
typedef struct report {
    unsigned long bias, target, call, helper, zero;
    char name[512];
} report;

static char work[] = "/tmp/test_fault_location.XXXXXX";

enum { PATH_SIZE = 512 };

/* path = work/name. */
static void work_path(char path[PATH_SIZE], const char *name)
{
    snprintf(path, PATH_SIZE, "%s/%s", work, name);
}

static void write_text(const char *name, const char *text)
{
    char path[PATH_SIZE];
    work_path(path, name);
    FILE *file = fopen(path, "wb");
    if (!file || fputs(text, file) < 0 || fclose(file) != 0) {
        perror(name);
        exit(2);
    }
}

/* The 1-based line of program_source holding marker. */
static uint32_t line_of(const char *marker)
{
    const char *at = strstr(program_source, marker);
    uint32_t line = 1;
    for (const char *c = program_source; at && c < at; c++)
        line += *c == '\n';
    return at ? line : 0;
}

/* The 1-based column of text on the line holding marker. */
static uint32_t column_of(const char *marker, const char *text)
{
    const char *at = strstr(program_source, marker);
    if (!at)
        return 0;
    while (at > program_source && at[-1] != '\n')
        at--;
    const char *found = strstr(at, text);
    return found ? (uint32_t)(found - at + 1) : 0;
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t length = text ? strlen(text) : 0, suffix_length = strlen(suffix);
    return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

/* Runs a shell command in work; a failure is a failed check. */
static bool shell(const char *format, ...) __attribute__((format(printf, 1, 2)));
static bool shell(const char *format, ...)
{
    char command[2048];
    int length = snprintf(command, sizeof command, "cd '%s' && ", work);
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(command + length, sizeof command - (size_t)length, format, arguments);
    va_end(arguments);
    int status = system(command);
    CHECK_RECORD(status == 0, "command failed (status %d): %s", status, command);
    return status == 0;
}

/* Builds program from source (prog.c, named as the compiler is to see
 * it) and main.c with clang-14 and flags. */
static bool build(const char *program, const char *source, const char *flags)
{
    return shell("clang-14 %s -x c '%s' main.c -o %s", flags, source, program);
}

/* Runs program (in work) and reads its report. */
static bool run_report(const char *program, report *result)
{
    char command[PATH_SIZE + 2];
    snprintf(command, sizeof command, "'%s'", program);
    FILE *pipe = popen(command, "r");
    if (!pipe) {
        CHECK_RECORD(false, "cannot run %s", program);
        return false;
    }
    memset(result, 0, sizeof *result);
    int fields = fscanf(pipe, "%lu %lu %lu %lu %lu [%511[^]]]", &result->bias, &result->target, &result->call,
                        &result->helper, &result->zero, result->name);
    int status = pclose(pipe);
    CHECK_RECORD(status == 0 && fields >= 5, "%s: exit status %d, %d fields read", program, status, fields);
    return status == 0 && fields >= 5;
}

/* Looks address up in module, which must succeed; returns *found. */
static bool locate(const char *module, unsigned long address, culprit_fault_location *location)
{
    culprit_error err;
    bool found = true;
    err.message[0] = '\0';
    culprit_status status = culprit_fault_locate(module, address, location, &found, &err);
    CHECK_RECORD(status == CULPRIT_OK, "locating %#lx in %s failed: %s", address, module, err.message);
    return status == CULPRIT_OK && found;
}

/* address in module must be at line:column of prog.c. */
static void check_place(const char *module, unsigned long address, uint32_t line, uint32_t column)
{
    culprit_fault_location location;
    bool found = locate(module, address, &location);
    CHECK_RECORD(found, "%#lx in %s: not found, expected prog.c:%u:%u", address, module, line, column);
    if (!found)
        return;
    CHECK_RECORD(location.line == line && location.column == column,
                 "%#lx in %s: at %s:%u:%u, expected prog.c:%u:%u", address, module, location.path,
                 location.line, location.column, line, column);
    char source[PATH_SIZE];
    work_path(source, "prog.c");
    CHECK_STR(location.path, source);
    CHECK(ends_with(location.path, "/prog.c"));
    CHECK_STR(location.unit_name, source);
    culprit_fault_location_free(&location);
    CHECK(location.path == NULL && location.unit_name == NULL);
}

/* address in module must not be found, without an error. */
static void check_not_found(const char *module, unsigned long address)
{
    culprit_fault_location location;
    bool found = locate(module, address, &location);
    CHECK_RECORD(!found, "%#lx in %s: found at %s:%u, expected not found", address, module, location.path,
                 location.line);
    CHECK(location.path == NULL && location.unit_name == NULL);
    culprit_fault_location_free(&location);
}

/* target's first row is the line of its opening brace (the declaration is
 * on the line before), column 0; the call returns to a row of its own
 * line, at the call's column. */
static void check_target(const char *module, const report *result)
{
    check_place(module, result->target, line_of("target-brace"), 0);
    check_place(module, result->call, line_of("target-call"), column_of("target-call", "helper();"));
    CHECK(line_of("target-brace") == line_of("target-declaration") + 1);
}

/* Builds program (in work) from source and runs it. */
static bool build_and_run(const char *program, const char *source, const char *flags, char module[PATH_SIZE],
                          report *result)
{
    work_path(module, program);
    return build(program, source, flags) && run_report(module, result);
}

/* -O0 non-PIE: bias 0, the executable's own addresses. */
static void test_no_pie(const char *program, const char *source, const char *flags)
{
    report result;
    char module[PATH_SIZE];
    if (!build_and_run(program, source, flags, module, &result))
        return;
    CHECK_INT(result.bias, 0);
    CHECK_STR(result.name, "");
    check_target(module, &result);
    check_place(module, result.helper, line_of("helper-brace"), 0);
    /* #line 0 puts zero's brace, its first row, on line 0. */
    CHECK(result.zero != 0);
    check_not_found(module, result.zero);
    check_not_found(module, 0);
}

static void test_dwarf_versions(void)
{
    test_no_pie("o0_dwarf5", "prog.c", "-g -gdwarf-5 -gcolumn-info -O0 -no-pie");
    /* Named by its absolute path: DW_AT_name is used as it is. */
    char source[PATH_SIZE];
    work_path(source, "prog.c");
    test_no_pie("o0_dwarf4", source, "-g -gdwarf-4 -gcolumn-info -O0 -no-pie");
}

/* -O2 PIE: the program reports addresses minus a non-zero bias. */
static void test_pie(const char *program, const char *flags)
{
    report result;
    char module[PATH_SIZE];
    if (!build_and_run(program, "prog.c", flags, module, &result))
        return;
    CHECK(result.bias != 0);
    CHECK_STR(result.name, "");
    check_target(module, &result);
    /* helper has two rows at its entry, the brace's and the first
     * statement's: the last one covers the address. */
    check_place(module, result.helper, line_of("helper-body"),
                column_of("helper-body", "__builtin_return_address"));
    check_not_found(module, result.target + result.bias);
}

/* The same code in a shared object, linked to by the program. */
static void test_shared_object(void)
{
    report result;
    char library[PATH_SIZE], program[PATH_SIZE];
    work_path(library, "libprog.so");
    work_path(program, "so_main");
    if (!shell("clang-14 -g -gcolumn-info -O2 -fPIC -shared prog.c -o libprog.so") ||
        !shell("clang-14 -O2 main.c -L. -lprog -Wl,-rpath,'%s' -o so_main", work) ||
        !run_report(program, &result))
        return;
    CHECK(result.bias != 0);
    CHECK(ends_with(result.name, "/libprog.so"));
    check_target(library, &result);
    check_not_found(program, result.target);
}

/* Without -g, or in files that are not ELF modules, nothing is found. */
static void test_not_found(void)
{
    report result;
    char module[PATH_SIZE];
    if (build_and_run("no_debug", "prog.c", "-g0 -O0 -no-pie", module, &result)) {
        CHECK(result.target != 0);
        check_not_found(module, result.target);
    }
    work_path(module, "missing");
    check_not_found(module, 0x401000);
    work_path(module, "prog.c");
    check_not_found(module, 0x401000);
    check_not_found(work, 0x401000);
    if (build_and_run("far", "prog.c", "-g -O0 -no-pie", module, &result)) {
        check_place(module, result.target, line_of("target-brace"), 0);
        check_not_found(module, result.target + 0x10000000);
        check_not_found(module, UINT64_MAX);
    }
}

int main(void)
{
    if (!mkdtemp(work))
        return 2;
    write_text("prog.c", program_source);
    write_text("main.c", main_source);
    int clang = system("command -v clang-14 >/dev/null");
    CHECK_RECORD(clang == 0,
                 "clang-14 is not installed: it is a declared dependency (scripts/install-deps.sh)");
    if (clang == 0) {
        test_dwarf_versions();
        test_pie("o2_pie_dwarf5", "-g -gdwarf-5 -gcolumn-info -O2 -fPIE -pie");
        test_pie("o2_pie_dwarf4", "-g -gdwarf-4 -gcolumn-info -O2 -fPIE -pie");
        /* A section per function: the unit has DW_AT_ranges (a range list in
         * DWARF 4, rnglists in DWARF 5) and a sequence per function. */
        test_pie("o2_sections_dwarf5", "-g -gdwarf-5 -gcolumn-info -O2 -ffunction-sections -fPIE -pie");
        test_pie("o2_sections_dwarf4", "-g -gdwarf-4 -gcolumn-info -O2 -ffunction-sections -fPIE -pie");
        test_shared_object();
        test_not_found();
    }
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", work);
    if (system(command) != 0)
        return 2;
    return check_report("test_fault_location");
}
