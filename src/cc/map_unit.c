/*
 * map_unit.c - what one unit reports to its program map (docs/collector.md
 * §2), read from LLVM IR: source files and locations, functions, blocks and
 * their lines, edges, branch outcomes grouped into conditions, and call
 * return classes, each with the counter it is given.  map_text.c owns the
 * text; this file finds what goes into it.  The edge and return records
 * number their counters here, then ask emit_counters.c for the code.
 *
 * Branch conditions are grouped (the map's `condition` field) by a simple
 * rule: a conditional branch whose condition is on the same file and line as
 * that of a conditional branch in the block it jumps to belongs to the same
 * decision.  That is the shape clang gives `a && b || c` (one block per
 * operand, chained), and it keeps separate statements on separate lines apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"

/* ---- source locations ----------------------------------------------------------------------------- */

/* Removes "." and "name/.." components and doubled slashes from an absolute path, in place. */
static void normalize_path(char *path)
{
    if (path[0] != '/')
        return;
    char *out = path;
    const char *in = path;
    while (*in) {
        while (*in == '/')
            in++;
        const char *end = in;
        while (*end && *end != '/')
            end++;
        size_t length = (size_t)(end - in);
        if (length == 1 && in[0] == '.') {
            /* skip */
        } else if (length == 2 && in[0] == '.' && in[1] == '.') {
            while (out > path && *--out != '/')
                ;
        } else if (length > 0) {
            *out++ = '/';
            memmove(out, in, length);
            out += length;
        }
        in = end;
    }
    if (out == path)
        *out++ = '/';
    *out = '\0';
}

static culprit_status file_index(unit *u, const char *directory, unsigned directory_length,
                                 const char *filename, unsigned filename_length, uint32_t *index,
                                 culprit_error *err)
{
    if (directory == u->cached_directory && filename == u->cached_filename && filename) {
        *index = u->cached_file;
        return CULPRIT_OK;
    }
    char *path = malloc((size_t)directory_length + filename_length + 2);
    if (!path)
        return culprit_fail_memory(err);
    if (filename_length > 0 && filename[0] == '/') {
        memcpy(path, filename, filename_length);
        path[filename_length] = '\0';
    } else if (directory_length == 0) {
        memcpy(path, filename, filename_length);
        path[filename_length] = '\0';
    } else {
        memcpy(path, directory, directory_length);
        path[directory_length] = '/';
        memcpy(path + directory_length + 1, filename, filename_length);
        path[directory_length + 1 + filename_length] = '\0';
    }
    normalize_path(path);
    culprit_status status = cc_map_add_file(&u->map, path, index, err);
    free(path);
    if (status == CULPRIT_OK) {
        u->cached_directory = directory;
        u->cached_filename = filename;
        u->cached_file = *index;
    }
    return status;
}

/* The location of an instruction; *found is false when it has none (or line 0, "compiler generated"). */
culprit_status cc_map_instruction_location(unit *u, LLVMValueRef instruction, cc_map_location *location,
                                           bool *found, culprit_error *err)
{
    *found = false;
    if (!LLVMIsAInstruction(instruction) || !LLVMInstructionGetDebugLoc(instruction))
        return CULPRIT_OK;
    unsigned line = LLVMGetDebugLocLine(instruction);
    if (line == 0)
        return CULPRIT_OK;
    unsigned directory_length = 0, filename_length = 0;
    const char *directory = LLVMGetDebugLocDirectory(instruction, &directory_length);
    const char *filename = LLVMGetDebugLocFilename(instruction, &filename_length);
    culprit_status status =
        file_index(u, directory ? directory : "", directory ? directory_length : 0, filename ? filename : "",
                   filename ? filename_length : 0, &location->file, err);
    if (status != CULPRIT_OK)
        return status;
    location->line = line;
    location->column = LLVMGetDebugLocColumn(instruction);
    *found = true;
    return CULPRIT_OK;
}

/* The unit's main file, for functions and branches that carry no location at all. */
static culprit_status fallback_file(unit *u, uint32_t *index, culprit_error *err)
{
    size_t length = 0;
    const char *name = LLVMGetSourceFileName(u->module, &length);
    return file_index(u, "", 0, name ? name : u->source,
                      name ? (unsigned)length : (unsigned)strlen(u->source), index, err);
}

/* ---- functions ------------------------------------------------------------------------------------ */

culprit_status cc_map_function(unit *u, function_walk *walk, culprit_error *err)
{
    uint32_t line = 0;
    culprit_status status = CULPRIT_OK;
    LLVMMetadataRef subprogram = LLVMGetSubprogram(walk->function);
    if (subprogram) {
        LLVMMetadataRef file = LLVMDIScopeGetFile(subprogram);
        unsigned directory_length = 0, filename_length = 0;
        const char *directory = file ? LLVMDIFileGetDirectory(file, &directory_length) : NULL;
        const char *filename = file ? LLVMDIFileGetFilename(file, &filename_length) : NULL;
        if (filename) {
            status = file_index(u, directory ? directory : "", directory ? directory_length : 0, filename,
                                filename_length, &walk->file, err);
            line = LLVMDISubprogramGetLine(subprogram);
        } else {
            status = fallback_file(u, &walk->file, err);
        }
    } else {
        status = fallback_file(u, &walk->file, err);
    }
    if (status != CULPRIT_OK)
        return status;
    return cc_map_add_function(&u->map, cc_ir_name(walk->function), walk->file, line, &walk->number, err);
}

/* ---- conditions ----------------------------------------------------------------------------------- */

static unsigned group_root(function_walk *walk, unsigned index)
{
    while (walk->group_parent[index] != index) {
        walk->group_parent[index] = walk->group_parent[walk->group_parent[index]];
        index = walk->group_parent[index];
    }
    return index;
}

static bool at_closing_brace(unit *u, cc_map_location at);

/* The location that decides a branch or switch: its condition's (the comparison's column tells apart
 * the operands of `a && b`, and the last operand of `if (a ||` / `b)` is on the second line, where
 * clang puts its branch on the `if`); else, for a condition without one (the phi joining the
 * operands of `&&` or `||`), the terminator's own: the `while` of `while (a && b)`.  But clang
 * places the branch ending `do { } while (a && b)` on the `}`, which is no line: that one goes to
 * the first of the phi's incoming values that has a location, on the `while` line.  The branch
 * records and the line model (place_block) both place it here. */
static culprit_status decision_location(unit *u, LLVMValueRef terminator, cc_map_location *location,
                                        bool *found, culprit_error *err)
{
    LLVMValueRef condition = LLVMGetInstructionOpcode(terminator) == LLVMBr ? LLVMGetCondition(terminator)
                                                                            : LLVMGetOperand(terminator, 0);
    culprit_status status = cc_map_instruction_location(u, condition, location, found, err);
    if (status != CULPRIT_OK || *found)
        return status;
    status = cc_map_instruction_location(u, terminator, location, found, err);
    if (status != CULPRIT_OK || !*found || !at_closing_brace(u, *location) || !LLVMIsAPHINode(condition))
        return status;
    cc_map_location own = *location;
    bool own_found = *found;
    *found = false;
    for (unsigned k = 0; k < LLVMCountIncoming(condition) && status == CULPRIT_OK && !*found; k++)
        status = cc_map_instruction_location(u, LLVMGetIncomingValue(condition, k), location, found, err);
    if (status == CULPRIT_OK && !*found) {
        *location = own;
        *found = own_found;
    }
    return status;
}

static culprit_status condition_location(unit *u, const function_walk *walk, LLVMValueRef terminator,
                                         cc_map_location *location, culprit_error *err)
{
    bool found = false;
    culprit_status status = decision_location(u, terminator, location, &found, err);
    if (status == CULPRIT_OK && !found)
        *location = (cc_map_location){.file = walk->file, .line = 0, .column = 0};
    return status;
}

/* Unites conditional branches that jump to a conditional branch on the same source line (see the top). */
culprit_status cc_group_conditions(unit *u, function_walk *walk, culprit_error *err)
{
    for (unsigned i = 0; i < walk->block_total; i++) {
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[i]);
        if (!cc_is_conditional_branch(terminator))
            continue;
        cc_map_location here;
        culprit_status status = condition_location(u, walk, terminator, &here, err);
        if (status != CULPRIT_OK)
            return status;
        for (unsigned s = 0; s < 2 && here.line > 0; s++) {
            LLVMBasicBlockRef next = LLVMGetSuccessor(terminator, s);
            LLVMValueRef next_terminator = LLVMGetBasicBlockTerminator(next);
            if (!cc_is_conditional_branch(next_terminator))
                continue;
            cc_map_location there;
            status = condition_location(u, walk, next_terminator, &there, err);
            if (status != CULPRIT_OK)
                return status;
            if (there.file == here.file && there.line == here.line)
                walk->group_parent[group_root(walk, cc_find_slot(walk, next)->index)] = group_root(walk, i);
        }
    }
    return CULPRIT_OK;
}

static uint32_t condition_number(unit *u, function_walk *walk, unsigned block_index)
{
    unsigned root = group_root(walk, block_index);
    if (walk->group_condition[root] == UINT32_MAX)
        walk->group_condition[root] = u->next_condition++;
    return walk->group_condition[root];
}

/* ---- what is a line ------------------------------------------------------------------------------- */

/*
 * Which source lines are executable (the map's `line` records, docs/collector.md §2) is decided
 * here, instruction by instruction, and nowhere else.  The aim is gcov's model: a line is executable
 * when it holds a statement, a condition or a function's entry.  clang -O0 -g gives a debug location
 * to far more than that, and every such line used to count, tying with the faulty statement:
 *
 * - the jump that ends a block (an unconditional branch, a `ret`, `unreachable`) is placed on the
 *   `}` that closes the block, the `} else {` before an else, the `}` of a loop body, the `do {` of
 *   a loop, the `for` of `for (;;)`, the `}` of a function (its `ret`, with the load of the return
 *   value that feeds it).  Such a jump does nothing a test can tell apart from the statement before
 *   it: it belongs to that statement, the block's previous line, and makes no line of its own.  It
 *   is told by the source text at the jump's column: a brace or the keyword of a loop or selection
 *   statement (jump_makes_line);
 * - other jumps are statements: `break;`, `continue;`, `goto x;` and `return` (placed on their
 *   keyword), as gcov counts them, and a macro expanding to one of them (placed on its name);
 * - a value computed only to be used by an instruction of the same block on another line (the load
 *   of an argument on a continuation line of a call, the operands of a multi-line initializer or
 *   expression) is part of its user's statement: gcc gives such operands the statement's location,
 *   and a continuation line holding only operands is not a line.  Only instructions without side
 *   effects are operands (loads, address arithmetic, casts, comparisons, arithmetic other than
 *   division): a call or a store on a continuation line keeps its line, as gcov's does for calls;
 * - a conditional branch or a switch is a condition, on the line of the value it decides on (the
 *   branch records' location too): clang places the branch ending a `do { } while (a && b)` on the
 *   `}`, while `a && b` is on the next line;
 * - a function's entry block is also on the line of the function's header (the DISubprogram's line),
 *   where gcov counts the function's calls.
 *
 * Blocks are unchanged; their source ranges span the lines they hold (a block that only jumps holds
 * none and has the range 0 0 0 0, as blocks without locations always had).  Not matched: gcov also
 * counts `case` labels and labels of `goto`, which have no instruction in clang's IR, and counts calls
 * that are arguments of another call on the outer call's line.
 */

/* An instruction that only passes control on: an unconditional branch, a return, `unreachable`. */
static bool is_jump(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMBr:
        return !LLVMIsConditional(in);
    case LLVMRet:
    case LLVMUnreachable:
        return true;
    default:
        return false;
    }
}

/* An instruction whose only effect is its value (see the top of the section). */
static bool is_operand(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMLoad:
        return !LLVMGetVolatile(in);
    case LLVMGetElementPtr:
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMFPToUI:
    case LLVMFPToSI:
    case LLVMUIToFP:
    case LLVMSIToFP:
    case LLVMFPTrunc:
    case LLVMFPExt:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMICmp:
    case LLVMFCmp:
    case LLVMSelect:
    case LLVMExtractValue:
    case LLVMInsertValue:
    case LLVMExtractElement:
    case LLVMInsertElement:
    case LLVMShuffleVector:
    case LLVMFreeze:
    case LLVMFNeg:
    case LLVMAdd:
    case LLVMFAdd:
    case LLVMSub:
    case LLVMFSub:
    case LLVMMul:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFRem:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
        return true;
    default:
        return false;
    }
}

/* Does a jump at this location make a line of its own?  Not when the text there is a brace or the
 * keyword of the statement whose structure the jump belongs to (the `do` of `do {`, the `for` of
 * `for (;;)`, the `while` of `while (1)`); yes for anything else: `break`, `continue`, `goto`,
 * `return`, and a macro that expands to one of them.  A location whose line cannot be read makes
 * its line, as all did before. */
static bool jump_makes_line(unit *u, cc_map_location at)
{
    static const char *const structure[] = {"do", "else", "for", "if", "switch", "while"};
    const char *text;
    size_t length;
    if (!cc_map_source_line(&u->map, at.file, at.line, &text, &length) || at.column == 0 ||
        at.column > length)
        return true;
    const char *word = text + at.column - 1;
    size_t rest = length - (at.column - 1);
    if (word[0] == '}' || word[0] == '{')
        return false;
    size_t n = 0;
    while (n < rest && (word[n] == '_' || (word[n] >= 'a' && word[n] <= 'z') ||
                        (word[n] >= 'A' && word[n] <= 'Z') || (word[n] >= '0' && word[n] <= '9')))
        n++;
    for (size_t k = 0; k < sizeof structure / sizeof *structure; k++)
        if (n == strlen(structure[k]) && memcmp(word, structure[k], n) == 0)
            return false;
    return true;
}

/* Is the text at the location a `}`? */
static bool at_closing_brace(unit *u, cc_map_location at)
{
    const char *text;
    size_t length;
    return cc_map_source_line(&u->map, at.file, at.line, &text, &length) && at.column > 0 &&
           at.column <= length && text[at.column - 1] == '}';
}

/* One instruction of a block and the statement it belongs to. */
typedef struct placed {
    LLVMValueRef instruction;
    cc_map_location at; /* the statement's location; line 0: on no line of its own */
} placed;

/* An open-addressing table from instruction to its entry in a block's list (place_block). */
typedef struct placed_table {
    const placed **slots;
    size_t mask;
} placed_table;

static size_t placed_hash(LLVMValueRef instruction, size_t mask)
{
    uintptr_t key = (uintptr_t)instruction;
    return (size_t)((key >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 17) & mask;
}

static void placed_insert(placed_table *table, const placed *entry)
{
    size_t k = placed_hash(entry->instruction, table->mask);
    while (table->slots[k])
        k = (k + 1) & table->mask;
    table->slots[k] = entry;
}

static const placed *placed_find(const placed_table *table, LLVMValueRef instruction)
{
    for (size_t k = placed_hash(instruction, table->mask); table->slots[k]; k = (k + 1) & table->mask)
        if (table->slots[k]->instruction == instruction)
            return table->slots[k];
    return NULL;
}

/* The statement location of an operand: its users', when they are all later in the block and all
 * on one line (or all on none); else its own. */
static cc_map_location operand_location(LLVMValueRef in, LLVMBasicBlockRef block, cc_map_location own,
                                        const placed_table *placed_so_far)
{
    bool any = false;
    cc_map_location shared = {0};
    for (LLVMUseRef use = LLVMGetFirstUse(in); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        if (!LLVMIsAInstruction(user) || LLVMGetInstructionParent(user) != block ||
            LLVMGetInstructionOpcode(user) == LLVMPHI)
            return own;
        const placed *found = placed_find(placed_so_far, user);
        if (!found)
            return own;
        if (any && (found->at.file != shared.file || found->at.line != shared.line))
            return own;
        if (!any)
            shared = found->at;
        any = true;
    }
    return any ? shared : own;
}

/*
 * Places every instruction of the block (debug markers aside) on its statement (see the top of the
 * section), last to first so that an operand's users are placed before it.  *list is in block
 * order; instructions without a location have line 0.
 */
static culprit_status place_block(unit *u, LLVMBasicBlockRef block, placed **list, size_t *count,
                                  culprit_error *err)
{
    *list = NULL;
    *count = 0;
    size_t total = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        total += !cc_ir_is_debug_intrinsic(in);
    size_t slots = 16;
    while (slots < 2 * total)
        slots *= 2;
    placed *order = calloc(total + 1, sizeof *order);
    placed_table table = {.slots = calloc(slots, sizeof *table.slots), .mask = slots - 1};
    if (!order || !table.slots) {
        free(order);
        free(table.slots);
        return culprit_fail_memory(err);
    }
    culprit_status status = CULPRIT_OK;
    size_t n = total;
    for (LLVMValueRef in = LLVMGetLastInstruction(block); in && status == CULPRIT_OK;
         in = LLVMGetPreviousInstruction(in)) {
        if (cc_ir_is_debug_intrinsic(in))
            continue;
        cc_map_location own = {0};
        bool found;
        status = cc_map_instruction_location(u, in, &own, &found, err);
        cc_map_location at = own;
        if (status != CULPRIT_OK || !found)
            at = (cc_map_location){0};
        else if (is_jump(in))
            at = jump_makes_line(u, own) ? own : (cc_map_location){0};
        else if (cc_is_conditional_branch(in) || LLVMGetInstructionOpcode(in) == LLVMSwitch)
            status = decision_location(u, in, &at, &found, err);
        else if (is_operand(in))
            at = operand_location(in, block, own, &table);
        order[--n] = (placed){.instruction = in, .at = at};
        placed_insert(&table, &order[n]);
    }
    free(table.slots);
    if (status != CULPRIT_OK) {
        free(order);
        return status;
    }
    *list = order;
    *count = total;
    return CULPRIT_OK;
}

/* ---- blocks --------------------------------------------------------------------------------------- */

/* The block record and its `line` facts, from the statements its instructions belong to. */
culprit_status cc_map_block_lines(unit *u, const function_walk *walk, LLVMBasicBlockRef block,
                                  uint32_t counter, culprit_error *err)
{
    cc_map_block record = {.counter = counter, .function = walk->number, .file = walk->file};
    culprit_status status = CULPRIT_OK;
    LLVMMetadataRef subprogram = LLVMGetSubprogram(walk->function);
    if (block == LLVMGetEntryBasicBlock(walk->function) && subprogram && LLVMDISubprogramGetLine(subprogram))
        status = cc_map_add_line(&u->map, walk->file, LLVMDISubprogramGetLine(subprogram), counter, err);
    placed *list = NULL;
    size_t count = 0;
    if (status == CULPRIT_OK)
        status = place_block(u, block, &list, &count, err);
    bool any = false;
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        cc_map_location at = list[i].at;
        if (at.line == 0)
            continue;
        status = cc_map_add_line(&u->map, at.file, at.line, counter, err);
        if (any && at.file != record.file)
            continue;
        if (!any || at.line < record.first_line ||
            (at.line == record.first_line && at.column < record.first_column)) {
            record.first_line = at.line;
            record.first_column = at.column;
        }
        if (!any || at.line > record.last_line ||
            (at.line == record.last_line && at.column > record.last_column)) {
            record.last_line = at.line;
            record.last_column = at.column;
        }
        record.file = at.file;
        any = true;
    }
    free(list);
    if (status != CULPRIT_OK)
        return status;
    return cc_map_add_block(&u->map, &record, err);
}

/* ---- edges and branches --------------------------------------------------------------------------- */

static culprit_status outcome_text(LLVMValueRef terminator, unsigned successor, char *buffer, size_t size)
{
    if (LLVMGetInstructionOpcode(terminator) == LLVMBr)
        snprintf(buffer, size, "%s", successor == 0 ? "true" : "false");
    else if (successor == 0)
        snprintf(buffer, size, "default");
    else
        snprintf(buffer, size, "case %lld",
                 LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * successor)));
    return CULPRIT_OK;
}

/* Edge records for every successor; branch records and counters for decisions. */
culprit_status cc_map_and_count_edges(unit *u, function_walk *walk, unsigned block_index, uint32_t counter,
                                      culprit_error *err)
{
    LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[block_index]);
    unsigned successors = LLVMGetNumSuccessors(terminator);
    if (u->coverage == CC_COVERAGE_LINES)
        return CULPRIT_OK; /* lines mode has blocks only: no edge, branch or return records */
    bool branching = cc_branching_edges(terminator) > 0;
    bool split = cc_splits_edges(terminator);
    uint32_t first_edge = u->next_edge;
    cc_map_location decided_at = {0};
    uint32_t condition = 0;
    if (branching) {
        culprit_status status = condition_location(u, walk, terminator, &decided_at, err);
        if (status != CULPRIT_OK)
            return status;
        condition = condition_number(u, walk, block_index);
    }
    uint32_t edge_counters[2] = {0, 0};
    for (unsigned s = 0; s < successors; s++) {
        uint32_t to = cc_find_slot(walk, LLVMGetSuccessor(terminator, s))->counter;
        /* Own counters are numbered in successor order; the others count with their destination. */
        int64_t edge_counter = cc_edge_has_counter(terminator, s) ? (int64_t)u->next_edge++
                               : branching                        ? (int64_t)to
                                                                  : -1;
        if (split)
            edge_counters[s] = (uint32_t)edge_counter;
        culprit_status status = cc_map_add_edge(&u->map, edge_counter, counter, to, err);
        if (status == CULPRIT_OK && branching) {
            char outcome[64];
            outcome_text(terminator, s, outcome, sizeof outcome);
            status = cc_map_add_branch(&u->map, (uint32_t)edge_counter, decided_at, outcome, condition, err);
        }
        if (status != CULPRIT_OK)
            return status;
    }
    if (split)
        cc_split_edges(u, terminator, edge_counters);
    else if (u->next_edge > first_edge)
        cc_instrument_edges(u, terminator, first_edge);
    return CULPRIT_OK;
}

/* ---- return classes ------------------------------------------------------------------------------- */

static const char *const boolean_classes[] = {"false", "true"};

static const char *const integer_classes[] = {"negative", "zero", "positive"};

static const char *const pointer_classes[] = {"null", "nonnull"};

static const char *const float_classes[] = {"zero", "nonzero"};

static const char *class_name(value_class kind, unsigned which)
{
    switch (kind) {
    case CLASS_BOOLEAN:
        return boolean_classes[which];
    case CLASS_INTEGER:
        return integer_classes[which];
    case CLASS_POINTER:
        return pointer_classes[which];
    default:
        return float_classes[which];
    }
}

/* Return records and counters for the block's calls whose result is used. */
culprit_status cc_map_and_count_returns(unit *u, LLVMBasicBlockRef block, uint32_t counter,
                                        culprit_error *err)
{
    if (u->coverage == CC_COVERAGE_LINES)
        return CULPRIT_OK;
    /* Collect first: the selects inserted after a call would make its result "used". */
    size_t total = 0, count = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        total += cc_call_result_class(in) != CLASS_NONE;
    if (total == 0)
        return CULPRIT_OK;
    LLVMValueRef *calls = calloc(total, sizeof *calls);
    if (!calls)
        return culprit_fail_memory(err);
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        if (cc_call_result_class(in) != CLASS_NONE)
            calls[count++] = in;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        value_class kind = cc_call_result_class(calls[i]);
        LLVMValueRef callee = cc_ir_called_value(calls[i]);
        const char *name = LLVMIsAFunction(callee) ? cc_ir_name(callee) : "*";
        cc_map_location at = {0};
        bool found;
        status = cc_map_instruction_location(u, calls[i], &at, &found, err);
        uint32_t first = u->next_return;
        for (unsigned c = 0; c < cc_class_count(kind) && status == CULPRIT_OK; c++)
            status = cc_map_add_return(&u->map, first + c, counter, at, class_name(kind, c), name, err);
        u->next_return += cc_class_count(kind);
        if (status == CULPRIT_OK)
            cc_instrument_return(u, calls[i], kind, first);
    }
    free(calls);
    return status;
}
