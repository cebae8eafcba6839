/*
 * sym_format.h - the binary layout of a run's path constraint: the
 * optional trailer of a dump (dump_format.h) that a program built with
 * `culprit-cc --coverage=symbolic` writes when CULPRIT_SYM is set
 * (docs/symbolic.md).  Shared by the writer (src/rt/sym_dump.c) and the
 * reader (src/concolic/path_read.c).
 *
 * Depends on <stdint.h> only (the runtime links nothing but libc).  As in
 * the dump, integers are little-endian and records are packed:
 *
 *   trailer     magic[8] version source_count node_count constraint_count
 *               (8 + 4 * 4 bytes)
 *   source      kind(u32) index(u32) length(u64) flags(u32) name_length(u32)
 *               name[name_length]
 *   node        op(u8) bits(u8) flags(u16) a(u32) b(u32) c(u32) value(u64)   (24 bytes)
 *   constraint  kind(u32) expression(u32) unit(u32) block(u32) value(u64)     (24 bytes)
 *   statistics  CULPRIT_SYM_STAT_COUNT x u64
 *   switches    switch_count(u32), then per switch site:           (version 2)
 *               unit(u32) block(u32) case_count(u32) value[case_count](u64)
 *
 * Version 2 added the switch section: the case values of every switch
 * site that a SWITCH constraint names, once per site, in any order of
 * sites, each site's values distinct and ascending (as unsigned numbers of
 * the switch's width).  A switch without an entry (a unit built before
 * version 2, or the runtime's case pool full) is negated as "any other
 * value".  Readers take versions 1 and 2; version 1 ends at the
 * statistics.
 * Version 3 added trace mode's TAG nodes and SPEC constraints (below,
 * docs/symbolic.md §6); a trailer without them reads as before.
 * The trailer follows the dump's output records and ends the file.  Nodes
 * are numbered from 1 in the order written (0 is "concrete", never a node)
 * and a node's operands are always earlier nodes, so a reader builds the
 * DAG in one pass and can reject cycles by construction.  Only the nodes
 * the constraints reach are written.
 */
#ifndef CULPRIT_SYM_FORMAT_H
#define CULPRIT_SYM_FORMAT_H

#include <stdint.h>

#define CULPRIT_SYM_MAGIC "CULPSYM1"
#define CULPRIT_SYM_MAGIC_SIZE 8
#define CULPRIT_SYM_VERSION 3u

enum culprit_sym_sizes {
    CULPRIT_SYM_HEADER_SIZE = 24,        /* magic, version, three counts */
    CULPRIT_SYM_SOURCE_HEADER_SIZE = 24, /* kind, index, length, flags, name_length */
    CULPRIT_SYM_NODE_SIZE = 24,
    CULPRIT_SYM_CONSTRAINT_SIZE = 24,
    CULPRIT_SYM_MAX_NAME = 4096,         /* a source's name (a file's path) */
    CULPRIT_SYM_SWITCH_HEADER_SIZE = 12, /* unit, block, case_count */
    /* Case values of one switch site; culprit-cc passes no table for a
     * larger switch (it is negated as "any other value"). */
    CULPRIT_SYM_MAX_CASES = 1024,
    /* Arguments passed through the thread's call area (culprit_sym.h);
     * arguments past it, and variadic ones, are concrete. */
    CULPRIT_SYM_MAX_ARGS = 16
};

/* Where symbolic bytes come from (source->kind).  index: the argv
 * position for ARGV, the order of --input-file for FILE, 0 for STDIN.
 * length: the bytes of the source the run read (for argv: the string's
 * length without its NUL). */
enum culprit_sym_source_kind {
    CULPRIT_SYM_SOURCE_STDIN = 0,
    CULPRIT_SYM_SOURCE_FILE = 1,
    CULPRIT_SYM_SOURCE_ARGV = 2
};

/* source->flags */
enum culprit_sym_source_flag {
    /* The run tried to read past the source's end (EOF): a longer input
     * can take a path this one could not (docs/symbolic.md, "Growing"). */
    CULPRIT_SYM_SOURCE_READ_PAST_END = 1u
};

/* node->op.  bits is the result's width, 1..64 (comparisons: 1).  Operands
 * a, b, c are node numbers; "value" fields say what they hold. */
enum culprit_sym_op {
    CULPRIT_SYM_CONST = 1, /* value: the constant, in the low `bits` bits */
    /* One input byte: a = source index (in the trailer's source order),
     * value = the byte's offset in the source; bits = 8. */
    CULPRIT_SYM_BYTE = 2,
    /* A typed field (docs/symbolic.md, "Input model"): an integer parsed
     * from input text by strtol, atoi, scanf ...: a = source index,
     * b = the text's length in bytes, c = culprit_sym_field_kind,
     * value = the text's offset in the source; bits = 64.  Its value in a
     * run is the parsed integer; a new value is rendered back as text. */
    CULPRIT_SYM_FIELD = 3,
    /* Arithmetic and bitwise: a op b, both of width bits. */
    CULPRIT_SYM_ADD = 10,
    CULPRIT_SYM_SUB,
    CULPRIT_SYM_MUL,
    CULPRIT_SYM_UDIV,
    CULPRIT_SYM_SDIV,
    CULPRIT_SYM_UREM,
    CULPRIT_SYM_SREM,
    CULPRIT_SYM_SHL,
    CULPRIT_SYM_LSHR,
    CULPRIT_SYM_ASHR,
    CULPRIT_SYM_AND,
    CULPRIT_SYM_OR,
    CULPRIT_SYM_XOR,
    /* Comparisons: a, b of the same width; bits = 1. */
    CULPRIT_SYM_EQ = 30,
    CULPRIT_SYM_NE,
    CULPRIT_SYM_UGT,
    CULPRIT_SYM_UGE,
    CULPRIT_SYM_ULT,
    CULPRIT_SYM_ULE,
    CULPRIT_SYM_SGT,
    CULPRIT_SYM_SGE,
    CULPRIT_SYM_SLT,
    CULPRIT_SYM_SLE,
    /* Width changes of a to bits. */
    CULPRIT_SYM_ZEXT = 50,
    CULPRIT_SYM_SEXT,
    CULPRIT_SYM_TRUNC,
    /* Bits value+bits-1 .. value of a (value = the low bit). */
    CULPRIT_SYM_EXTRACT,
    /* a (high) then b (low): bits = width(a) + width(b). */
    CULPRIT_SYM_CONCAT,
    /* a ? b : c, a of width 1. */
    CULPRIT_SYM_ITE = 60,
    /* not a (width 1) */
    CULPRIT_SYM_NOT,
    /* Trace mode only (CULPRIT_SYM_TRACE=1, version 3): the value a store
     * wrote, as one statement of the trace formula.  Its value is a's
     * (bits = width(a); a concrete value's a is a CONST); b = the unit's
     * index in the dump's unit list, c = the block counter of the store's
     * block, value = the store's source line (0: unknown) in the low 32
     * bits, its instance (1, 2, ... in the order stores ran) in the high
     * 32: every store executed is a node of its own.  Solvers that do not
     * relax statements read it as a. */
    CULPRIT_SYM_TAG = 70
};

/* A field's text (node->c of CULPRIT_SYM_FIELD). */
enum culprit_sym_field_kind {
    CULPRIT_SYM_FIELD_DECIMAL = 0,  /* signed decimal: strtol(.., 10), atoi, %d */
    CULPRIT_SYM_FIELD_UNSIGNED = 1, /* unsigned decimal: strtoul(.., 10), %u */
    CULPRIT_SYM_FIELD_HEX = 2,      /* hexadecimal: base 16, %x */
    CULPRIT_SYM_FIELD_OCTAL = 3     /* base 8, %o */
};

/* constraint->kind.  unit: the unit's index in the dump's unit list;
 * block: the block counter (in that unit's map) of the block whose
 * terminator decided, i.e. the branch site of the map (docs/collector.md
 * §2).  BRANCH: expression (width 1) evaluated to value (0 or 1).
 * SWITCH: expression had value (the switch's condition); the site's case
 * values, when known, are in the switch section (version 2). */
enum culprit_sym_constraint_kind {
    CULPRIT_SYM_BRANCH = 0,
    CULPRIT_SYM_SWITCH = 1,
    /* Trace mode only (version 3): a violated check of culprit/contract.h.
     * expression: the check's condition (width 1, value 0), or 0 when its
     * value is concrete (it came through branches alone).  The check's
     * window, its own evaluation: unit = the index of its first
     * constraint (the window is constraints unit .. this one's index - 1),
     * block = its first node (nodes from it on are the check's).  The
     * failing operation, what ran since the last check that held: value =
     * (index of its first constraint << 32) | its first node; what came
     * before is its pre-state.  Node marks count written nodes (one past
     * the last when none follows).  Never negated by `culprit gen`; the
     * trace formula asserts the check holds. */
    CULPRIT_SYM_SPEC = 2
};

/* The statistics, in this order.  CONCRETIZED_*: how often a symbolic
 * value met something the runtime does not model and was used as its
 * concrete value (the path constraint is then incomplete there). */
enum culprit_sym_stat {
    CULPRIT_SYM_STAT_NODES = 0,           /* nodes made in the run (not only written) */
    CULPRIT_SYM_STAT_CONSTRAINTS,         /* constraints recorded */
    CULPRIT_SYM_STAT_NODE_CAP,            /* nodes refused: the node table was full */
    CULPRIT_SYM_STAT_SITE_CAP,            /* constraints dropped: their site had its cap */
    CULPRIT_SYM_STAT_CONSTRAINT_CAP,      /* constraints dropped: the run had its cap */
    CULPRIT_SYM_STAT_CONCRETIZED_FLOAT,   /* floating-point operations */
    CULPRIT_SYM_STAT_CONCRETIZED_ASM,     /* inline assembly */
    CULPRIT_SYM_STAT_CONCRETIZED_CALL,    /* symbolic arguments to an uninstrumented function */
    CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS, /* a symbolic address or index */
    CULPRIT_SYM_STAT_CONCRETIZED_OTHER,   /* any other unmodelled operation */
    CULPRIT_SYM_STAT_UNDECLARED_INPUT,    /* reads of input that is not a declared source */
    CULPRIT_SYM_STAT_COUNT = 16           /* slots written; the rest are 0 */
};

#endif
