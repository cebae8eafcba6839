/*
 * test_concolic_inputs.c - the input model (src/concolic/inputs.c): the
 * value of each variable in an input, fields re-rendered in their kind,
 * edits applied from the end, and the inputs that cannot be re-rendered.
 */
#include "check.h"
#include "path_fixture.h"

static void set(culprit_input *input, uint32_t kind, uint32_t index, const char *text)
{
    culprit_error err;
    CHECK_INT(culprit_input_set(input, kind, index, text, strlen(text), &err), CULPRIT_OK);
}

static const char *text_of(const culprit_input *input, uint32_t kind, uint32_t index)
{
    static char buffer[256];
    const culprit_input_part *part = culprit_input_find(input, kind, index);
    if (!part || part->length >= sizeof buffer)
        return "(none)";
    memcpy(buffer, part->bytes, part->length);
    buffer[part->length] = '\0';
    return buffer;
}

static void test_render(void)
{
    char out[32];
    CHECK_INT(culprit_field_render((uint64_t)-42, CULPRIT_SYM_FIELD_DECIMAL, "7", 1, out, sizeof out), 3);
    CHECK_STR(out, "-42");
    CHECK_INT(culprit_field_render(UINT64_MAX, CULPRIT_SYM_FIELD_UNSIGNED, NULL, 0, out, sizeof out), 20);
    CHECK_STR(out, "18446744073709551615");
    culprit_field_render(255, CULPRIT_SYM_FIELD_HEX, "0x1F", 4, out, sizeof out);
    CHECK_STR(out, "0xff");
    culprit_field_render(255, CULPRIT_SYM_FIELD_HEX, "1f", 2, out, sizeof out);
    CHECK_STR(out, "ff");
    culprit_field_render(8, CULPRIT_SYM_FIELD_OCTAL, "017", 3, out, sizeof out);
    CHECK_STR(out, "010");
    culprit_field_render(8, CULPRIT_SYM_FIELD_OCTAL, "7", 1, out, sizeof out);
    CHECK_STR(out, "10");
    CHECK_INT(culprit_field_render(123456, CULPRIT_SYM_FIELD_DECIMAL, NULL, 0, out, 4), 0); /* does not fit */
}

/* stdin "  12 0x1f rest\n": x = field 0..4 (with its leading blanks),
 * h = hex field 5..9, c = byte 10 ('r'). */
static void sample(culprit_path *path, uint32_t *x, uint32_t *h, uint32_t *c)
{
    fixture_init(path);
    uint32_t in = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 15, 0, "");
    *x = fixture_field(path, in, 0, 4, CULPRIT_SYM_FIELD_DECIMAL);
    *h = fixture_field(path, in, 5, 4, CULPRIT_SYM_FIELD_HEX);
    *c = fixture_byte(path, in, 10);
}

static void test_values(void)
{
    culprit_path path;
    culprit_input input = {0};
    uint32_t x, h, c;
    uint64_t value = 0;
    sample(&path, &x, &h, &c);
    set(&input, CULPRIT_SYM_SOURCE_STDIN, 0, "  12 0x1f rest\n");
    CHECK(culprit_input_variable_value(&input, &path, x, &value) && value == 12);
    CHECK(culprit_input_variable_value(&input, &path, h, &value) && value == 31);
    CHECK(culprit_input_variable_value(&input, &path, c, &value) && value == 'r');
    uint32_t past = fixture_byte(&path, 0, 99);
    CHECK(culprit_input_variable_value(&input, &path, past, &value) && value == 0);
    CHECK(!culprit_input_variable_value(&input, &path, fixture_const(&path, 8, 1), &value));
    culprit_input_free(&input);
    CHECK(!culprit_input_variable_value(&input, &path, x, &value)); /* no stdin part */
    culprit_path_free(&path);
}

static culprit_status apply(const culprit_input *parent, const culprit_path *path, culprit_assignment *assignments,
                            size_t count, culprit_input *child, culprit_error *err)
{
    culprit_model model = {count, assignments};
    return culprit_input_apply(parent, path, &model, child, err);
}

static void test_apply(void)
{
    culprit_path path;
    culprit_input parent = {0}, child = {0};
    culprit_error err;
    uint32_t x, h, c;
    sample(&path, &x, &h, &c);
    set(&parent, CULPRIT_SYM_SOURCE_STDIN, 0, "  12 0x1f rest\n");
    set(&parent, CULPRIT_SYM_SOURCE_ARGV, 1, "-v");
    /* Both fields grow; the byte stays in place relative to the text after. */
    culprit_assignment changes[] = {{x, (uint64_t)-12345}, {h, 0xabcde}, {c, 'R'}};
    CHECK_INT(apply(&parent, &path, changes, 3, &child, &err), CULPRIT_OK);
    CHECK_STR(text_of(&child, CULPRIT_SYM_SOURCE_STDIN, 0), "  -12345 0xabcde Rest\n");
    CHECK_STR(text_of(&child, CULPRIT_SYM_SOURCE_ARGV, 1), "-v");
    CHECK(!culprit_input_equal(&parent, &child));
    CHECK(culprit_input_hash(&parent) != culprit_input_hash(&child));
    culprit_input_free(&child);
    /* A value the parent already has is no edit. */
    culprit_assignment same[] = {{x, 12}, {h, 31}};
    CHECK_INT(apply(&parent, &path, same, 2, &child, &err), CULPRIT_OK);
    CHECK(culprit_input_equal(&parent, &child));
    CHECK_INT(culprit_input_hash(&parent), culprit_input_hash(&child));
    culprit_input_free(&child);
    /* A byte past the end grows the part (zeros in between). */
    uint32_t far = fixture_byte(&path, 0, 17);
    culprit_assignment grow[] = {{far, 'z'}};
    CHECK_INT(apply(&parent, &path, grow, 1, &child, &err), CULPRIT_OK);
    const culprit_input_part *part = culprit_input_find(&child, CULPRIT_SYM_SOURCE_STDIN, 0);
    CHECK_INT(part->length, 18);
    CHECK_INT(part->bytes[15], 0);
    CHECK_INT(part->bytes[17], 'z');
    culprit_input_free(&child);
    culprit_input_free(&parent);
    culprit_path_free(&path);
}

static void test_cannot_render(void)
{
    culprit_path path;
    culprit_input parent = {0}, child = {0};
    culprit_error err;
    uint32_t x, h, c;
    sample(&path, &x, &h, &c);
    set(&parent, CULPRIT_SYM_SOURCE_STDIN, 0, "  12 0x1f rest\n");
    uint32_t inside = fixture_byte(&path, 0, 6);
    culprit_assignment overlap[] = {{h, 1}, {inside, 'y'}};
    CHECK_INT(apply(&parent, &path, overlap, 2, &child, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "cannot re-render the field at byte 5 of stdin: its text overlaps the changed byte "
                           "at byte 6");
    CHECK_INT(child.part_count, 0);
    uint32_t wide = fixture_field(&path, 0, 3, 4, CULPRIT_SYM_FIELD_DECIMAL); /* "12 0": overlaps h */
    culprit_assignment fields[] = {{h, 1}, {wide, 5}};
    CHECK_INT(apply(&parent, &path, fields, 2, &child, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "cannot re-render the field at byte 3 of stdin: its text overlaps the changed field "
                           "at byte 5");
    uint32_t beyond = fixture_field(&path, 0, 12, 9, CULPRIT_SYM_FIELD_DECIMAL);
    culprit_assignment out[] = {{beyond, 5}};
    CHECK_INT(apply(&parent, &path, out, 1, &child, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "cannot re-render the field at byte 12 of stdin: its text (9 bytes) ends past the "
                           "input's end (15 bytes)");
    uint32_t argv_source = fixture_source(&path, CULPRIT_SYM_SOURCE_ARGV, 2, 3, 0, "");
    set(&parent, CULPRIT_SYM_SOURCE_ARGV, 2, "abc");
    uint32_t argv_byte = fixture_byte(&path, argv_source, 1);
    culprit_assignment nul[] = {{argv_byte, 0}};
    CHECK_INT(apply(&parent, &path, nul, 1, &child, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "cannot re-render the byte at byte 1 of argv[2]: it would be a NUL byte, which an "
                           "argument cannot hold");
    culprit_assignment not_variable[] = {{fixture_const(&path, 8, 3), 1}};
    CHECK_INT(apply(&parent, &path, not_variable, 1, &child, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "which is not an input variable");
    culprit_input_free(&parent);
    culprit_path_free(&path);
}

static void test_parts(void)
{
    culprit_input input = {0}, copy = {0};
    culprit_error err;
    set(&input, CULPRIT_SYM_SOURCE_ARGV, 2, "b");
    set(&input, CULPRIT_SYM_SOURCE_FILE, 0, "file");
    set(&input, CULPRIT_SYM_SOURCE_STDIN, 0, "in");
    set(&input, CULPRIT_SYM_SOURCE_ARGV, 1, "a");
    CHECK_INT(input.part_count, 4);
    CHECK_INT(input.parts[0].kind, CULPRIT_SYM_SOURCE_STDIN);
    CHECK_INT(input.parts[1].kind, CULPRIT_SYM_SOURCE_FILE);
    CHECK_INT(input.parts[2].index, 1);
    CHECK_INT(input.parts[3].index, 2);
    set(&input, CULPRIT_SYM_SOURCE_STDIN, 0, "replaced");
    CHECK_INT(input.part_count, 4);
    CHECK_STR(text_of(&input, CULPRIT_SYM_SOURCE_STDIN, 0), "replaced");
    CHECK_INT(culprit_input_copy(&input, &copy, &err), CULPRIT_OK);
    CHECK(culprit_input_equal(&input, &copy));
    set(&copy, CULPRIT_SYM_SOURCE_ARGV, 1, "A");
    CHECK(!culprit_input_equal(&input, &copy));
    culprit_input_free(&copy);
    culprit_input_free(&input);
}

int main(void)
{
    test_render();
    test_values();
    test_apply();
    test_cannot_render();
    test_parts();
    return check_report("test_concolic_inputs");
}
