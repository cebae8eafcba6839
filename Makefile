# culprit - top-level build.  `make` builds build/culprit and libculprit;
# `make check` installs missing Debian packages, then runs the unit tests
# (plain and under ASan+UBSan), the end-to-end tests and a short run of the
# fuzz targets; `make fuzz` fuzzes every parser for a while (tests/fuzz/);
# `make bench` runs the benchmarks; `make demo` ranks the bundled example.  Sources are picked
# up by directory, so a new module is just a new file.

PREFIX ?= /usr/local
# BUILD=DIR puts every output elsewhere (lets several builds run side by side).
BUILD ?= build
CC ?= cc
OPTIMIZE ?= -O2
PKGS := sqlite3 jansson zlib tidy z3
LLVM_CONFIG ?= llvm-config-14
# Recursively expanded on purpose: pkg-config runs only when a recipe needs
# it, after `deps` has had the chance to install the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
# Z3 and libtidy are compiled against but not linked: src/concolic/z3_library.c
# and src/run/tidy_library.c open them when a command first needs them
# (core/library.h), by the soname of the library the headers belong to.
PKG_LIBS = $(shell pkg-config --libs $(filter-out z3 tidy,$(PKGS))) -lm -ldl -pthread
soname_of = $(shell objdump -p $$(pkg-config --variable=libdir $(1))/lib$(1).so | sed -n 's/^ *SONAME *//p')
PHP_CONFIG ?= php-config
HAVE_PHP := $(shell command -v $(PHP_CONFIG) 2>/dev/null)
PHP_CFLAGS = -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc $(WARNINGS) -O2 -g -fPIC -fvisibility=hidden \
    $(shell $(PHP_CONFIG) --includes | sed 's/-I/-isystem /g') $(CFLAGS)
# culprit-cc links LLVM's C API; only its own objects see LLVM's headers.
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --includedir | sed 's/^/-isystem /')
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags) $(shell $(LLVM_CONFIG) --libs core bitreader bitwriter)

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Iinclude -Isrc $(WARNINGS) -g -fvisibility=hidden
CFLAGS ?=
ALL_CFLAGS = $(BASE_CFLAGS) $(OPTIMIZE) -fPIC $(PKG_CFLAGS) $(LIBRARY_FLAGS) $(CFLAGS)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRC := $(sort $(wildcard src/core/*.c src/program/*.c src/store/*.c src/collect/*.c src/interchange/*.c \
                               src/run/*.c src/judgement/*.c src/techniques/*.c src/report/*.c src/concolic/*.c \
                               src/web/*.c))
CC_SRC := $(sort $(wildcard src/cc/*.c))
RT_SRC := $(sort $(wildcard src/rt/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
PHP_SRC := $(sort $(wildcard src/php/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CC_OBJ := $(CC_SRC:%.c=$(BUILD)/obj/%.o)
RT_OBJ := $(RT_SRC:%.c=$(BUILD)/rt/%.o)
PHP_OBJ := $(PHP_SRC:%.c=$(BUILD)/php/%.o)
# What the extension takes from culprit-cc and the core: the map builder and its helpers.
PHP_SHARED_OBJ := $(addprefix $(BUILD)/obj/src/,cc/map_text.o core/sha256.o core/grow.o core/read_file.o core/error.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
ASAN_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/asan/unit/%)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
HEADERS := $(wildcard include/culprit/*.h src/*/*.h)

VERSION := 0.1.0

# The sanitized objects are only prerequisites of the ASan unit tests; keep
# them so that the next `make check` does not rebuild the library.
.SECONDARY: $(ASAN_LIB_OBJ) $(FUZZ_LIB_OBJ)

.PHONY: php all deps deps-graph check check-run unit unit-asan e2e fuzz fuzz-run bench bench-run eval eval-run eval-php eval-php-run eval-gen eval-gen-run eval-sat eval-sat-run eval-debian eval-debian-run eval-web eval-web-run bench-scale bench-scale-run demo demo-run \
        install clean format

all: $(BUILD)/culprit $(BUILD)/libculprit.a $(BUILD)/libculprit.so $(BUILD)/culprit.pc $(BUILD)/culprit-cc \
     $(BUILD)/culprit-pass.so \
     $(BUILD)/libculprit-rt.a $(if $(HAVE_PHP),php)

deps:
	@sh scripts/install-deps.sh

# The module -> module include graph; fails on a cycle, an arrow to a later
# stage or another module's *_internal.h (scripts/deps-graph.sh says more).
deps-graph:
	@sh scripts/deps-graph.sh

$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/src/concolic/z3_library.o $(BUILD)/asan/src/concolic/z3_library.o \
    $(BUILD)/fuzz/obj/src/concolic/z3_library.o: LIBRARY_FLAGS = -DCULPRIT_Z3_SONAME='"$(call soname_of,z3)"'
$(BUILD)/obj/src/run/tidy_library.o $(BUILD)/asan/src/run/tidy_library.o \
    $(BUILD)/fuzz/obj/src/run/tidy_library.o: LIBRARY_FLAGS = -DCULPRIT_TIDY_SONAME='"$(call soname_of,tidy)"'

$(BUILD)/asan/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SANITIZE) -c $< -o $@

$(BUILD)/libculprit.a: $(LIB_OBJ)
	@mkdir -p build
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libculprit.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libculprit.so.0 -o $@ $^ $(PKG_LIBS)

$(BUILD)/culprit: $(CLI_OBJ) $(BUILD)/libculprit.a
	$(CC) -o $@ $(CLI_OBJ) $(BUILD)/libculprit.a $(PKG_LIBS)

$(BUILD)/obj/src/cc/%.o: src/cc/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LLVM_CFLAGS) -c $< -o $@

# culprit-cc is the driver only: it links no LLVM (loading libLLVM cost every
# compile and configure probe about 22 ms) and, with --as-needed, none of the
# libraries it does not call.  The instrumenter is the pass plugin's.
CC_DRIVER_OBJ := $(addprefix $(BUILD)/obj/src/cc/,arguments.o driver.o main.o process.o)
$(BUILD)/culprit-cc: $(CC_DRIVER_OBJ) $(BUILD)/libculprit.a $(BUILD)/include/culprit/contract.h
	$(CC) -o $@ $(CC_DRIVER_OBJ) $(BUILD)/libculprit.a -Wl,--as-needed $(PKG_LIBS) -ldl

# The pass plugin (src/cc/plugin.c): the instrumenter inside clang, loaded
# with -fpass-plugin; its one C++ file is the entry LLVM's plugin interface
# requires, built like LLVM itself (no RTTI, no exceptions) by the clang that
# will load it.  Everything but the entries stays hidden, and it needs only
# the libraries it calls (--as-needed): clang loads it for every C file.
PLUGIN_CXX ?= clang++-14
PLUGIN_OBJ := $(filter-out $(BUILD)/obj/src/cc/main.o,$(CC_OBJ))
$(BUILD)/obj/src/cc/pass_plugin.o: src/cc/pass_plugin.cpp
	@mkdir -p $(dir $@)
	$(PLUGIN_CXX) $(shell $(LLVM_CONFIG) --cxxflags | sed "s/-I/-isystem /g") -fno-rtti -fPIC -O2 -g -Wall -Wextra -Werror \
	    -fvisibility=hidden -c $< -o $@

$(BUILD)/culprit-pass.so: $(PLUGIN_OBJ) $(BUILD)/obj/src/cc/pass_plugin.o $(BUILD)/libculprit.a
	$(PLUGIN_CXX) -shared -o $@ $(BUILD)/obj/src/cc/pass_plugin.o $(PLUGIN_OBJ) $(BUILD)/libculprit.a \
	    -Wl,--exclude-libs,ALL -Wl,--no-undefined -Wl,--as-needed $(LLVM_LIBS) $(PKG_LIBS)

# culprit-cc finds <culprit/contract.h> in include/ beside itself (and, once
# installed, in PREFIX/include): docs/specs.md.
$(BUILD)/include/culprit/contract.h: include/culprit/contract.h
	@mkdir -p $(dir $@)
	cp $< $@

# The runtime goes into other people's programs: no sanitizers, no
# dependencies beyond libc and pthreads, position-independent, and no
# debug information: every link of an instrumented program copies the
# whole archive (--whole-archive), and its DWARF made each link about
# 15-20 ms slower (a configure run links some 150 probes).
RT_CFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude -Isrc $(WARNINGS) -O2 -fPIC -fno-omit-frame-pointer $(CFLAGS)

$(BUILD)/rt/%.o: %.c $(wildcard src/rt/*.h) include/culprit/dump_format.h include/culprit/sym_format.h
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c $< -o $@

$(BUILD)/libculprit-rt.a: $(RT_OBJ)
	rm -f $@ && ar rcs $@ $^

# The PHP extension (src/php/, docs/php.md) and its launcher: built by `all`
# only where php-config exists (Debian's php8.2-dev), so `make` still works
# without PHP.  PHP's headers need GNU C and are not ours to warn about.
$(BUILD)/php/%.o: %.c $(wildcard src/php/*.h) src/cc/map_text.h include/culprit/dump_format.h
	@mkdir -p $(dir $@)
	$(CC) $(PHP_CFLAGS) -c $< -o $@

$(BUILD)/culprit.so: $(PHP_OBJ) $(PHP_SHARED_OBJ) src/php/exports.map
	$(CC) -shared -Wl,--version-script=src/php/exports.map -o $@ $(PHP_OBJ) $(PHP_SHARED_OBJ)

# The launchers know where PHP looks for ini files (Debian: one conf.d per
# SAPI, /etc/php/8.2/cli/conf.d and .../cgi/conf.d), to see whether the
# module is enabled there already; `make install` writes culprit.ini, the
# module's file for Debian's phpenmod, into /etc/php/8.2/mods-available for
# a PREFIX of /usr or /usr/local, else PREFIX/etc/php/8.2/mods-available
# (docs/php.md, "Installing").
PHP_SCAN_DIR = $(shell $(PHP_CONFIG) --ini-dir)
PHP_MINOR = $(shell $(PHP_CONFIG) --version | cut -d. -f1,2)
PHP_MODS_AVAILABLE ?= $(if $(filter /usr /usr/local,$(PREFIX)),,$(PREFIX))/etc/php/$(PHP_MINOR)/mods-available
$(BUILD)/culprit-php: src/php/culprit-php.sh
	sed -e 's|@PHP_SCAN_DIR@|$(PHP_SCAN_DIR)|g' $< > $@ && chmod 755 $@

$(BUILD)/culprit-php-cgi: src/php/culprit-php-cgi.sh
	sed -e 's|@PHP_CGI_SCAN_DIR@|$(subst /cli/,/cgi/,$(PHP_SCAN_DIR))|g' $< > $@ && chmod 755 $@

# culprit's PHPUnit extension (docs/php.md, "PHPUnit"): beside culprit in
# the build tree, where `culprit phpunit` looks first.
PHPUNIT_SUPPORT := $(wildcard src/php/phpunit/*.php)
$(BUILD)/phpunit/%.php: src/php/phpunit/%.php
	@mkdir -p $(dir $@)
	cp $< $@

php: $(BUILD)/culprit.so $(BUILD)/culprit-php $(BUILD)/culprit-php-cgi $(PHPUNIT_SUPPORT:src/php/phpunit/%=$(BUILD)/phpunit/%)

$(BUILD)/culprit.pc: culprit.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

$(BUILD)/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libculprit.a $(BUILD)/libculprit-rt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libculprit.a $(BUILD)/libculprit-rt.a $(PKG_LIBS) -pthread

$(BUILD)/asan/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(ASAN_LIB_OBJ) $(BUILD)/libculprit-rt.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O1 $(SANITIZE) -Itests/unit -o $@ $< $(ASAN_LIB_OBJ) $(BUILD)/libculprit-rt.a \
	    $(PKG_LIBS) -pthread

# These tests compile culprit-cc's sources (not in libculprit) into themselves.
$(BUILD)/unit/test_cc_map $(BUILD)/asan/unit/test_cc_map: src/cc/map_text.c src/cc/map_text.h
$(BUILD)/unit/test_cc_flow $(BUILD)/asan/unit/test_cc_flow: src/cc/flow_graph.c src/cc/flow_graph.h
# ... and these the extension's files that need no PHP headers.
$(BUILD)/unit/test_php_blocks $(BUILD)/asan/unit/test_php_blocks: src/php/php_blocks.c src/php/php_blocks.h
$(BUILD)/unit/test_php_files $(BUILD)/asan/unit/test_php_files: src/php/php_files.c src/php/php_files.h
$(BUILD)/unit/test_php_output_fifo $(BUILD)/asan/unit/test_php_output_fifo: src/php/php_output_fifo.c \
    src/php/php_output_fifo.h src/php/php_files.h
$(BUILD)/unit/test_php_version $(BUILD)/asan/unit/test_php_version: src/php/php_version.c src/php/php_version.h

$(BUILD)/bench/%: bench/%.c $(BUILD)/libculprit.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libculprit.a $(PKG_LIBS)

# The fuzz targets (tests/fuzz/): libFuzzer needs clang, so the library is
# compiled again with clang-14, coverage instrumentation and ASan+UBSan.
FUZZ_CC ?= clang-14
FUZZ_CFLAGS = $(ALL_CFLAGS) -O1 $(SANITIZE)
FUZZ_SECONDS ?= 60

$(BUILD)/fuzz/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(FUZZ_LIB_OBJ) $(PKG_LIBS)

# The public entry points install what is missing, then re-enter make so
# that pkg-config sees the installed packages.
check: deps
	@$(MAKE) --no-print-directory check-run

check-run: all $(UNIT_BIN) $(ASAN_UNIT_BIN) $(FUZZ_BIN)
	@sh tests/run.sh $(BUILD)

unit: $(UNIT_BIN)
	@sh tests/run.sh $(BUILD) unit

unit-asan: $(ASAN_UNIT_BIN)
	@sh tests/run.sh $(BUILD) unit-asan

e2e: $(BUILD)/culprit
	@sh tests/run.sh $(BUILD) e2e

# Every fuzz target for FUZZ_SECONDS (default 60) each, one after another;
# FUZZ_TARGETS="dump map" picks some (tests/fuzz/run.sh).
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: all $(BENCH_BIN)
	@sh bench/run.sh $(BUILD)

# Ranking a 10^6-test x 10^5-line store (issue 22; ~13 GB of disk under $(BUILD)/rank-scale, ~15 min)
bench-scale: deps
	@$(MAKE) --no-print-directory bench-scale-run

bench-scale-run: all $(BENCH_BIN)
	@python3 bench/rank_scale.py $(BUILD) $(BUILD)/rank-scale

# Effectiveness of every formula and technique on tests/subjects (issue 7):
# table, summary and curve plot under $(BUILD)/eval (bench/eval.sh); then the
# PHP web subjects under $(BUILD)/eval-php (bench/eval_php.sh, issue 21.4).
eval: deps
	@$(MAKE) --no-print-directory eval-run

eval-run: all
	@status=0; sh bench/eval.sh $(BUILD) || status=$$?; \
	$(if $(HAVE_PHP),sh bench/eval_php.sh $(BUILD) || status=1;) exit $$status

# The PHP web subjects alone (tests/subjects/php, issue 21.4): $(BUILD)/eval-php
eval-php: deps
	@$(MAKE) --no-print-directory eval-php-run

eval-php-run: all
	@sh bench/eval_php.sh $(BUILD)

# issue 20: seeded faults in real Debian programs (sed, grep) through their own
# suites, screened, every formula and technique (bench/eval_debian.sh, 20-40 min)
eval-debian: deps
	@$(MAKE) --no-print-directory eval-debian-run

eval-debian-run: all
	@bash bench/eval_debian.sh $(BUILD) $(BUILD)/eval-debian

# issue 23: SAT-TAR on the data-structure subjects (bench/sat_tar.py):
# Tarantula, the unsat cores and both, per round of culprit gen --core
eval-sat: deps
	@$(MAKE) --no-print-directory eval-sat-run

eval-sat-run: all
	@python3 bench/sat_tar.py $(BUILD) $(BUILD)/eval-sat

# issue 24: culprit web on the PHP subjects with no tests (without and with the correct version as
# reference), then its strategies from each fault's failing test (seeds/001 Tables 3-4)
eval-web: deps
	@$(MAKE) --no-print-directory eval-web-run

eval-web-run: all php
	@python3 bench/web_subjects.py $(BUILD) $(BUILD)/eval-web-subjects
	@REFERENCE=1 python3 bench/web_subjects.py $(BUILD) $(BUILD)/eval-web-subjects
	@python3 bench/web_strategies.py $(BUILD) $(BUILD)/eval-web

# issue 17: culprit gen from one failing test per fault, beside the pools and AFL++
eval-gen: deps
	@$(MAKE) --no-print-directory eval-gen-run

eval-gen-run: all
	@nice sh bench/eval_gen.sh $(BUILD)

demo: deps
	@$(MAKE) --no-print-directory demo-run

demo-run: all
	@mkdir -p $(BUILD)/demo && DEMO_DIR=$(abspath $(BUILD))/demo sh examples/demo.sh $(BUILD)/culprit

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/culprit $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/culprit $(DESTDIR)$(PREFIX)/bin/culprit
	install -m 755 $(BUILD)/culprit-cc $(DESTDIR)$(PREFIX)/bin/culprit-cc
	install -d $(DESTDIR)$(PREFIX)/lib/culprit
	install -m 644 $(BUILD)/libculprit-rt.a $(DESTDIR)$(PREFIX)/lib/culprit/libculprit-rt.a
	install -m 755 $(BUILD)/culprit-pass.so $(DESTDIR)$(PREFIX)/lib/culprit/culprit-pass.so
	install -m 644 $(BUILD)/libculprit.a $(DESTDIR)$(PREFIX)/lib/libculprit.a
	install -m 755 $(BUILD)/libculprit.so $(DESTDIR)$(PREFIX)/lib/libculprit.so.0
	ln -sf libculprit.so.0 $(DESTDIR)$(PREFIX)/lib/libculprit.so
	install -m 644 include/culprit/*.h $(DESTDIR)$(PREFIX)/include/culprit/
	install -m 644 $(BUILD)/culprit.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/culprit.pc
	install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(if $(HAVE_PHP),install -m 644 $(BUILD)/culprit.so $(DESTDIR)$(PREFIX)/lib/culprit/culprit.so)
	$(if $(HAVE_PHP),install -m 755 $(BUILD)/culprit-php $(DESTDIR)$(PREFIX)/bin/culprit-php)
	$(if $(HAVE_PHP),install -m 755 $(BUILD)/culprit-php-cgi $(DESTDIR)$(PREFIX)/bin/culprit-php-cgi)
	$(if $(HAVE_PHP),install -d $(DESTDIR)$(PHP_MODS_AVAILABLE))
	$(if $(HAVE_PHP),sed -e 's|@LIBDIR@|$(PREFIX)/lib/culprit|g' src/php/culprit.ini.in \
	    > $(DESTDIR)$(PHP_MODS_AVAILABLE)/culprit.ini)
	$(if $(HAVE_PHP),install -d $(DESTDIR)$(PREFIX)/share/culprit/phpunit)
	$(if $(HAVE_PHP),install -m 644 $(PHPUNIT_SUPPORT) $(DESTDIR)$(PREFIX)/share/culprit/phpunit/)

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) $(CC_SRC) $(RT_SRC) $(PHP_SRC) $(UNIT_SRC) $(BENCH_SRC) $(FUZZ_SRC) $(HEADERS) \
	    tests/fuzz/fuzz.h

clean:
	rm -rf build
