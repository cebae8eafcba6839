/*
 * calc - a small line-oriented calculator.
 *
 * Reads one statement per input line from stdin and prints its value.
 * A statement is either an expression or an assignment `name = expr`.
 * Values are integers (64-bit) or floating point numbers; integer
 * arithmetic stays integral until a float or a function result mixes in.
 *
 *   operators  + - * / % ^ (power, right associative), unary - and +
 *   numbers    42  0x2A  3.25  1e-3  .5
 *   variables  letters, digits and _ ; `_` holds the last result
 *   functions  min(a, b, ...)  max(a, b, ...)  abs(x)  sqrt(x)
 *   comments   everything after '#' is ignored; blank lines are skipped
 *
 * Errors are reported on stdout as `line N: error: MESSAGE`; the exit
 * status is 1 when any line had an error, 0 otherwise.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 1024
#define MAX_VARS 64
#define MAX_NAME 32
#define MAX_ARGS 16

typedef struct {
	int is_float;
	long long i;
	double f;
} Value;

typedef enum {
	T_END, T_NUM, T_IDENT, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
	T_CARET, T_LPAREN, T_RPAREN, T_COMMA, T_ASSIGN, T_BAD
} TokKind;

typedef struct {
	TokKind kind;
	Value num;
	char name[MAX_NAME];
} Token;

typedef struct {
	const char *src;
	size_t pos;
	Token tok;
	int failed;
	char msg[128];
} Parser;

typedef struct {
	char name[MAX_NAME];
	Value val;
} Var;

static Var vars[MAX_VARS];
static int nvars;

static Value make_int(long long i)
{
	Value v;
	v.is_float = 0;
	v.i = i;
	v.f = (double)i;
	return v;
}

static Value make_float(double f)
{
	Value v;
	v.is_float = 1;
	v.i = 0;
	v.f = f;
	return v;
}

static double as_double(Value v)
{
	return v.is_float ? v.f : (double)v.i;
}

static void fail(Parser *p, const char *msg)
{
	if (p->failed)
		return;
	p->failed = 1;
	snprintf(p->msg, sizeof p->msg, "%s", msg);
}

/* ---- variables ---------------------------------------------------- */

static Var *find_var(const char *name)
{
	for (int k = 0; k < nvars; k++)
		if (strcmp(vars[k].name, name) == 0)
			return &vars[k];
	return NULL;
}

static int set_var(const char *name, Value v)
{
	Var *slot = find_var(name);
	if (slot == NULL) {
		if (nvars >= MAX_VARS)
			return -1;
		slot = &vars[nvars++];
		snprintf(slot->name, sizeof slot->name, "%s", name);
	}
	slot->val = v;
	return 0;
}

/* ---- lexer -------------------------------------------------------- */

static int scan_number(Parser *p)
{
	const char *s = p->src + p->pos;
	size_t n = 0;
	int is_float = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		long long v = 0;
		n = 2;
		if (!isxdigit((unsigned char)s[n])) {
			fail(p, "bad hexadecimal number");
			return -1;
		}
		while (isxdigit((unsigned char)s[n])) {
			int c = (unsigned char)s[n];
			int d = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
			v = v * 16 + d;
			n++;
		}
		p->tok.num = make_int(v);
		p->pos += n;
		return 0;
	}
	while (isdigit((unsigned char)s[n]))
		n++;
	if (s[n] == '.') {
		is_float = 1;
		n++;
		while (isdigit((unsigned char)s[n]))
			n++;
	}
	if (n == 1 && s[0] == '.') {
		fail(p, "bad number");
		return -1;
	}
	if (s[n] == 'e' || s[n] == 'E') {
		size_t m = n + 1;
		if (s[m] == '+' || s[m] == '-')
			m++;
		if (isdigit((unsigned char)s[m])) {
			is_float = 1;
			while (isdigit((unsigned char)s[m]))
				m++;
			n = m;
		}
	}
	char buf[64];
	if (n >= sizeof buf) {
		fail(p, "number too long");
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (is_float)
		p->tok.num = make_float(strtod(buf, NULL));
	else
		p->tok.num = make_int(strtoll(buf, NULL, 10));
	p->pos += n;
	return 0;
}

static void next(Parser *p)
{
	const char *s = p->src;

	while (s[p->pos] == ' ' || s[p->pos] == '\t')
		p->pos++;
	char c = s[p->pos];
	if (c == '\0' || c == '#' || c == '\n') {
		p->tok.kind = T_END;
		return;
	}
	if (isdigit((unsigned char)c) || c == '.') {
		p->tok.kind = T_NUM;
		if (scan_number(p) < 0)
			p->tok.kind = T_BAD;
		return;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		size_t n = 0;
		while (isalnum((unsigned char)s[p->pos + n]) || s[p->pos + n] == '_') {
			if (n + 1 < MAX_NAME)
				p->tok.name[n] = s[p->pos + n];
			n++;
		}
		if (n >= MAX_NAME) {
			fail(p, "name too long");
			p->tok.kind = T_BAD;
			return;
		}
		p->tok.name[n] = '\0';
		p->tok.kind = T_IDENT;
		p->pos += n;
		return;
	}
	p->pos++;
	switch (c) {
	case '+': p->tok.kind = T_PLUS; break;
	case '-': p->tok.kind = T_MINUS; break;
	case '*': p->tok.kind = T_STAR; break;
	case '/': p->tok.kind = T_SLASH; break;
	case '%': p->tok.kind = T_PERCENT; break;
	case '^': p->tok.kind = T_CARET; break;
	case '(': p->tok.kind = T_LPAREN; break;
	case ')': p->tok.kind = T_RPAREN; break;
	case ',': p->tok.kind = T_COMMA; break;
	case '=': p->tok.kind = T_ASSIGN; break;
	default: {
		char msg[64];
		snprintf(msg, sizeof msg, "unexpected character '%c'", c);
		fail(p, msg);
		p->tok.kind = T_BAD;
		break;
	}
	}
}

/* ---- arithmetic --------------------------------------------------- */

static Value power(Parser *p, Value a, Value b)
{
	if (!a.is_float && !b.is_float && b.i >= 0) {
		long long r = 1, base = a.i, e = b.i;
		while (e > 0) {
			if (e & 1)
				r *= base;
			base *= base;
			e >>= 1;
		}
		return make_int(r);
	}
	double x = as_double(a), y = as_double(b);
	if (x == 0.0 && y < 0) {
		fail(p, "division by zero");
		return make_int(0);
	}
	return make_float(pow(x, y));
}

static Value binop(Parser *p, TokKind op, Value a, Value b)
{
	int fl = a.is_float || b.is_float;

	switch (op) {
	case T_PLUS:
		return fl ? make_float(as_double(a) + as_double(b)) : make_int(a.i + b.i);
	case T_MINUS:
		return fl ? make_float(as_double(a) - as_double(b)) : make_int(a.i - b.i);
	case T_STAR:
		return fl ? make_float(as_double(a) * as_double(b)) : make_int(a.i * b.i);
	case T_SLASH:
		if (as_double(b) == 0.0) {
			fail(p, "division by zero");
			return make_int(0);
		}
		if (!fl) {
			if (a.i % b.i == 0)
				return make_int(a.i / b.i);
			return make_float((double)a.i / (double)b.i);
		}
		return make_float(as_double(a) / as_double(b));
	case T_PERCENT:
		if (as_double(b) == 0.0) {
			fail(p, "division by zero");
			return make_int(0);
		}
		if (!fl)
			return make_int(a.i % b.i);
		return make_float(fmod(as_double(a), as_double(b)));
	case T_CARET:
		return power(p, a, b);
	default:
		fail(p, "internal error");
		return make_int(0);
	}
}

/* ---- functions ---------------------------------------------------- */

static Value call(Parser *p, const char *name, Value *args, int nargs)
{
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
		int want_max = name[1] == 'a';
		if (nargs < 1) {
			fail(p, "min/max need at least one argument");
			return make_int(0);
		}
		Value best = args[0];
		for (int k = 1; k < nargs; k++) {
			double x = as_double(args[k]), y = as_double(best);
			if (want_max ? x > y : x < y)
				best = args[k];
		}
		return best;
	}
	if (strcmp(name, "abs") == 0 || strcmp(name, "sqrt") == 0) {
		if (nargs != 1) {
			char msg[64];
			snprintf(msg, sizeof msg, "%s takes one argument", name);
			fail(p, msg);
			return make_int(0);
		}
		if (name[0] == 'a') {
			if (args[0].is_float)
				return make_float(fabs(args[0].f));
			return make_int(args[0].i < 0 ? -args[0].i : args[0].i);
		}
		double x = as_double(args[0]);
		if (x < 0) {
			fail(p, "square root of a negative number");
			return make_int(0);
		}
		return make_float(sqrt(x));
	}
	char msg[80];
	snprintf(msg, sizeof msg, "unknown function '%s'", name);
	fail(p, msg);
	return make_int(0);
}

/* ---- parser ------------------------------------------------------- */

static Value expr(Parser *p);
static Value unary(Parser *p);

static Value primary(Parser *p)
{
	Value v = make_int(0);

	if (p->failed)
		return v;
	switch (p->tok.kind) {
	case T_NUM:
		v = p->tok.num;
		next(p);
		return v;
	case T_IDENT: {
		char name[MAX_NAME];
		memcpy(name, p->tok.name, sizeof name);
		next(p);
		if (p->tok.kind == T_LPAREN) {
			Value args[MAX_ARGS];
			int nargs = 0;
			next(p);
			if (p->tok.kind != T_RPAREN) {
				for (;;) {
					if (nargs == MAX_ARGS) {
						fail(p, "too many arguments");
						return v;
					}
					args[nargs++] = expr(p);
					if (p->failed)
						return v;
					if (p->tok.kind != T_COMMA)
						break;
					next(p);
				}
			}
			if (p->tok.kind != T_RPAREN) {
				fail(p, "expected ')'");
				return v;
			}
			next(p);
			return call(p, name, args, nargs);
		}
		Var *var = find_var(name);
		if (var == NULL) {
			char msg[80];
			snprintf(msg, sizeof msg, "undefined variable '%s'", name);
			fail(p, msg);
			return v;
		}
		return var->val;
	}
	case T_LPAREN:
		next(p);
		v = expr(p);
		if (p->failed)
			return v;
		if (p->tok.kind != T_RPAREN) {
			fail(p, "expected ')'");
			return v;
		}
		next(p);
		return v;
	case T_END:
		fail(p, "unexpected end of expression");
		return v;
	case T_BAD:
		return v;
	default:
		fail(p, "syntax error");
		return v;
	}
}

/* power binds tighter than unary minus on its left: -2^2 = -4, 2^-1 = 0.5 */
static Value factor(Parser *p)
{
	Value base = primary(p);

	if (!p->failed && p->tok.kind == T_CARET) {
		next(p);
		Value e = unary(p);
		if (p->failed)
			return base;
		return binop(p, T_CARET, base, e);
	}
	return base;
}

static Value unary(Parser *p)
{
	if (p->tok.kind == T_MINUS) {
		next(p);
		Value v = unary(p);
		if (v.is_float)
			return make_float(-v.f);
		return make_int(-v.i);
	}
	if (p->tok.kind == T_PLUS) {
		next(p);
		return unary(p);
	}
	return factor(p);
}

static Value term(Parser *p)
{
	Value v = unary(p);

	while (!p->failed && (p->tok.kind == T_STAR || p->tok.kind == T_SLASH ||
	                      p->tok.kind == T_PERCENT)) {
		TokKind op = p->tok.kind;
		next(p);
		Value rhs = unary(p);
		if (p->failed)
			break;
		v = binop(p, op, v, rhs);
	}
	return v;
}

static Value expr(Parser *p)
{
	Value v = term(p);

	while (!p->failed && (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS)) {
		TokKind op = p->tok.kind;
		next(p);
		Value rhs = term(p);
		if (p->failed)
			break;
		v = binop(p, op, v, rhs);
	}
	return v;
}

/* ---- output ------------------------------------------------------- */

static void print_value(Value v)
{
	if (!v.is_float) {
		printf("%lld\n", v.i);
		return;
	}
	if (isnan(v.f)) {
		printf("nan\n");
		return;
	}
	if (isinf(v.f)) {
		printf(v.f < 0 ? "-inf\n" : "inf\n");
		return;
	}
	char buf[64];
	snprintf(buf, sizeof buf, "%.10g", v.f);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strcat(buf, ".0");
	printf("%s\n", buf);
}

/* Is the line an assignment?  Then return the length of the name. */
static size_t assignment_target(const char *line)
{
	size_t k = 0;

	while (line[k] == ' ' || line[k] == '\t')
		k++;
	size_t start = k;
	if (!(isalpha((unsigned char)line[k]) || line[k] == '_'))
		return 0;
	while (isalnum((unsigned char)line[k]) || line[k] == '_')
		k++;
	size_t end = k;
	while (line[k] == ' ' || line[k] == '\t')
		k++;
	if (line[k] != '=')
		return 0;
	return end - start;
}

/* Evaluate one line; returns 1 when it had an error, 0 otherwise. */
static int run_line(const char *line, int lineno)
{
	Parser p;
	char target[MAX_NAME] = "";

	memset(&p, 0, sizeof p);
	p.src = line;
	size_t len = assignment_target(line);
	if (len > 0) {
		const char *eq = strchr(line, '=');
		const char *name = line;
		while (*name == ' ' || *name == '\t')
			name++;
		if (len >= MAX_NAME) {
			printf("line %d: error: name too long\n", lineno);
			return 1;
		}
		memcpy(target, name, len);
		target[len] = '\0';
		p.pos = (size_t)(eq - line) + 1;
	}
	next(&p);
	if (p.tok.kind == T_END) {
		if (len == 0)
			return 0;
		fail(&p, "missing value in assignment");
	}
	Value v = expr(&p);
	if (!p.failed && p.tok.kind != T_END)
		fail(&p, p.tok.kind == T_RPAREN ? "unbalanced ')'" : "unexpected input after expression");
	if (p.failed) {
		printf("line %d: error: %s\n", lineno, p.msg);
		return 1;
	}
	if (len > 0) {
		if (set_var(target, v) < 0) {
			printf("line %d: error: too many variables\n", lineno);
			return 1;
		}
		printf("%s = ", target);
	}
	set_var("_", v);
	print_value(v);
	return 0;
}

int main(void)
{
	char line[MAX_LINE];
	int lineno = 0, errors = 0;

	while (fgets(line, sizeof line, stdin) != NULL) {
		lineno++;
		size_t n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		errors += run_line(line, lineno);
	}
	if (errors > 0)
		printf("%d error%s\n", errors, errors == 1 ? "" : "s");
	return errors > 0 ? 1 : 0;
}
