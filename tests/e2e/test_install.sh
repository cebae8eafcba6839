#!/bin/sh
# test_install.sh - `make install PREFIX=...` puts the binary, both libraries,
# the headers, the pkg-config file and the man pages in place, and a program
# built against the installed library with pkg-config ranks mid()'s fault first.
. "$(dirname "$0")/lib.sh"
prefix="$WORK/prefix"

run 0 make -C "$TOP" --no-print-directory BUILD="$WORK/build" PREFIX="$prefix" install
for f in bin/culprit bin/culprit-cc lib/culprit/libculprit-rt.a lib/culprit/culprit-pass.so share/man/man1/culprit-cc.1 lib/libculprit.a lib/libculprit.so.0 lib/libculprit.so lib/pkgconfig/culprit.pc \
    include/culprit/spectra.h include/culprit/sbfl.h include/culprit/rank.h include/culprit/store.h \
    share/man/man1/culprit.1 share/man/man1/culprit-rank.1 share/man/man1/culprit-import.1; do
    [ -e "$prefix/$f" ] && pass || fail "make install did not write $f"
done
# Every command `culprit help` lists has its installed man page.
for command in $("$prefix/bin/culprit" help | sed -n 's/^   \([a-z]*\) .*/\1/p'); do
    [ "$command" = help ] || [ -e "$prefix/share/man/man1/culprit-$command.1" ] && pass ||
        fail "make install wrote no man page for culprit $command"
done
run 0 "$prefix/bin/culprit" --version
expect_contains out "culprit "
# The installed culprit-cc instruments inside clang with the installed plugin.
run 0 "$prefix/bin/culprit-cc" --culprit-version
expect_contains out "instruments in clang's process: $prefix/bin/../lib/culprit/culprit-pass.so"

cat >client.c <<'END'
#include <culprit/rank.h>
#include <culprit/sbfl.h>
#include <stdio.h>

/* mid(): tests x lines; 1 = ran. The last test fails. */
static const int runs[6][11] = {
    {1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1}, {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1}, {1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1},
    {1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1}, {1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1}, {1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1}};
static const unsigned lines[11] = {7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 19};

int main(void)
{
    culprit_spectra s;
    culprit_error err;
    uint32_t file;
    culprit_spectra_init(&s);
    culprit_spectra_add_file(&s, "mid.c", &file, &err);
    for (int e = 0; e < 11; e++)
        culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, file, lines[e], 0, NULL, NULL, &err);
    for (int t = 0; t < 6; t++) {
        size_t test;
        culprit_spectra_add_test(&s, t == 5 ? "failing" : "passing", t == 5 ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS, &test, &err);
        for (int e = 0; e < 11; e++)
            if (runs[t][e])
                culprit_spectra_set_hit(&s, test, (uint32_t)e);
    }
    culprit_tally tallies[11];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    double scores[11], confidence[11];
    culprit_formula_choice tarantula;
    culprit_ranking ranking;
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    if (culprit_spectra_tally(&s, &policy, tallies, &totals, &err) || culprit_formula_find("tarantula", &tarantula, &err))
        return 1;
    culprit_formula_score_all(&tarantula, tallies, 11, scores, confidence);
    if (culprit_rank(&s, tallies, scores, confidence, &options, &ranking, &err))
        return 1;
    printf("%s:%u %.4f\n", s.files[ranking.entries[0].file], ranking.entries[0].line, ranking.entries[0].score);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&s);
    return 0;
}
END
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
run 0 sh -c 'cc -std=c11 -Wall -Werror -o client client.c $(pkg-config --cflags --libs culprit)'
LD_LIBRARY_PATH="$prefix/lib" run 0 ./client
expect_file_equals out "mid.c:12 0.8333"

# libculprit.so exports its public API and nothing else: every dynamic
# symbol is a culprit_ name that an installed header declares with
# CULPRIT_API (internal helpers and unprefixed names stay hidden).
nm -D --defined-only "$prefix/lib/libculprit.so.0" | awk '{ print $3 }' | sort -u >exported.txt
cat "$prefix"/include/culprit/*.h | sed -n 's/^CULPRIT_API .*\(culprit_[a-z0-9_]*\)[[(].*/\1/p' | sort -u >api.txt
[ "$(wc -l <exported.txt)" -gt 100 ] && pass || fail "libculprit.so exports only $(wc -l <exported.txt) symbols"
unexpected=$(comm -23 exported.txt api.txt | tr '\n' ' ')
[ -z "$unexpected" ] && pass || fail "libculprit.so exports symbols outside the API: $unexpected"
missing=$(comm -13 exported.txt api.txt | tr '\n' ' ')
[ -z "$missing" ] && pass || fail "CULPRIT_API declarations libculprit.so does not export: $missing"

# The installed culprit-cc finds the installed runtime (PREFIX/lib/culprit) on its own.
cat >hello.c <<'END'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
END
run 0 "$prefix/bin/culprit-cc" -o hello hello.c
mkdir collected
CULPRIT_COLLECT_DIR="$WORK/collected" run 0 ./hello
expect_file_equals out "hello"
ls collected/*.dump >/dev/null 2>&1 && pass || fail "the installed runtime wrote no dump"

# The installed culprit-cc finds <culprit/contract.h> in PREFIX/include
# without -I (docs/specs.md), and the spec site is in the map.
printf '#include <culprit/contract.h>\nint main(int argc, char **argv) { (void)argv; CULPRIT_REQUIRES(argc > 0); return 0; }\n' >spec.c
run 0 "$prefix/bin/culprit-cc" -o spec spec.c
mkdir collected-spec
CULPRIT_COLLECT_DIR="$WORK/collected-spec" run 0 ./spec
expect_contains "$(ls collected-spec/*.map)" "requires"

# Where PHP is installed, so is its extension, and the installed culprit-php
# finds it in PREFIX/lib/culprit (docs/php.md).
if command -v php-config >/dev/null 2>&1; then
    printf '<?php\necho "hello\\n";\n' >hello.php
    mkdir collected-php
    CULPRIT_COLLECT_DIR="$WORK/collected-php" run 0 "$prefix/bin/culprit-php" hello.php
    expect_file_equals out "hello"
    ls collected-php/*.map >/dev/null 2>&1 && pass || fail "the installed culprit-php wrote no map"
    # ... the module's file for phpenmod: enabled (phpenmod links it into a
    # conf.d; here a scan directory of our own), plain php loads it, inert
    # without CULPRIT_COLLECT_DIR and collecting with it, and culprit-php
    # then does not load it a second time (PHP would warn).
    ini=$(ls "$prefix"/etc/php/*/mods-available/culprit.ini 2>/dev/null | head -1)
    [ -n "$ini" ] && pass || fail "make install wrote no mods-available/culprit.ini under $prefix/etc/php"
    if [ -n "$ini" ]; then
        expect_contains "$ini" "; priority=20"
        expect_contains "$ini" "extension=$prefix/lib/culprit/culprit.so"
        mkdir conf.d collected-ini
        ln -s "$ini" conf.d/20-culprit.ini
        PHP_INI_SCAN_DIR="$WORK/conf.d" run 0 php -r 'echo extension_loaded("culprit") ? "on\n" : "off\n";'
        expect_file_equals out "on"
        [ -s err ] && fail "the enabled module said: $(cat err)" || pass
        PHP_INI_SCAN_DIR="$WORK/conf.d" CULPRIT_COLLECT_DIR="$WORK/collected-ini" run 0 php hello.php
        ls collected-ini/*.map >/dev/null 2>&1 && pass || fail "the enabled module wrote no map"
        PHP_INI_SCAN_DIR="$WORK/conf.d" run 0 "$prefix/bin/culprit-php" hello.php
        expect_file_equals out "hello"
        [ -s err ] && fail "culprit-php with the module enabled said: $(cat err)" || pass
    fi
    # ... the installed culprit-php-cgi runs a request through it ...
    if command -v php-cgi >/dev/null 2>&1; then
        printf '<?php\necho "hi ", $_GET["who"] ?? "?", "\\n";\n' >page.php
        run 0 "$prefix/bin/culprit-php-cgi" --query who=you page.php
        expect_file_equals out "hi you"
    fi
    # ... and the installed culprit phpunit finds culprit-php and its
    # PHPUnit extension (PREFIX/share/culprit/phpunit).
    if command -v phpunit >/dev/null 2>&1; then
        cp -r "$TOP/tests/subjects/php/cart" cart
        cd cart && run 0 "$prefix/bin/culprit" phpunit --store "$WORK/php-store"
        cd "$WORK" && expect_contains err "culprit: recorded 17 PHPUnit tests: 15 pass, 2 skip"
    fi
fi
finish
