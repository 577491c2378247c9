#!/usr/bin/env bash
# tests/cli/90-install.sh - 'make install' into a temporary DESTDIR: the
# binary runs every command's --help from there, the man pages render with
# man -l and cover every command, bash completion offers commands and
# options, README examples run with the installed trail on PATH, and
# 'make uninstall' removes every file it installed.
. "$(dirname "$0")/lib.sh"

have make || { skip "install" "no make"; exit 0; }
have python3 || { skip "install" "no python3 (man pages)"; exit 0; }
# user CFLAGS are added to, not replaced by, what the build needs (dry run)
cmd=$(make -s -n -B -C "$ROOT" CFLAGS='-O0 -g' BUILD="$T/b" "$T/b/src/core/error.o" 2>&1 | grep -- ' -c ')
case $cmd in *-O0*-std=c11*-Isrc*) pass "make CFLAGS='-O0 -g' keeps the required flags" ;;
*) fail "make CFLAGS='-O0 -g' keeps the required flags" "$cmd" ;; esac
D=$T/dest P=/opt/trail-test
# the sanitizer build keeps its flags, should make find anything to rebuild
SAN=()
[ -n "${TRAIL_SANITIZED:-}" ] && SAN=(SANITIZE=1)
# the build under test is up to date: install copies it, nothing is rebuilt
if ! make -s -C "$ROOT" install "${SAN[@]}" BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" >"$T/inst.out" 2>&1; then
	fail "make install" "$(tail -5 "$T/inst.out")"
	exit 0
fi
pass "make install DESTDIR PREFIX"
BIN=$D$P/bin/trail
[ -x "$BIN" ] && pass "binary installed in PREFIX/bin" || { fail "binary installed in PREFIX/bin"; exit 0; }
group_begin
for c in $("$BIN" help --commands); do
	"$BIN" $c --help >"$T/h" 2>&1 && grep -q "^usage: trail $c" "$T/h" || fail "installed trail $c --help" "$(head -2 "$T/h")"
	[ -f "$D$P/share/man/man1/trail-$c.1" ] || fail "man page trail-$c.1 installed"
done
group_end "every command's --help runs from the installed binary and has a man page"
# record -e alloc finds its interposer in PREFIX/lib/trail, relative to the binary
if [ -f "$D$P/lib/trail/libtrail-alloc.so" ] &&
   env -u TRAIL_ALLOC_LIB "$BIN" record -e alloc --alloc-interval 1 -o "$T/inst.folded" -- sh -c 'echo x | cat >/dev/null' \
	>"$T/inst-alloc.out" 2>&1 && [ -s "$T/inst.folded" ]; then
	pass "record -e alloc runs with the installed interposer"
else
	fail "record -e alloc runs with the installed interposer" "$(tail -3 "$T/inst-alloc.out" 2>/dev/null)"
fi
if have man; then
	MANWIDTH=80 man -l "$D$P/share/man/man1/trail-flamegraph.1" >"$T/man" 2>"$T/man.err" &&
		grep -q 'SYNOPSIS' "$T/man" && grep -q -- '--minwidth' "$T/man" && grep -q 'TRAIL-FLAMEGRAPH(1)' "$T/man" &&
		pass "man -l trail-flamegraph.1 renders" || fail "man -l trail-flamegraph.1 renders" "$(head -3 "$T/man.err")"
	# SYNOPSIS is the usage lines, not the whole --help (that is OPTIONS' job)
	syn=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$T/man" | sed '1d;$d' | grep -v '^ *$' | sed 's/^ *//')
	[ "$(printf '%s\n' "$syn" | head -1)" = "trail flamegraph [options] [FILE...] > out.svg" ] &&
		[ "$(printf '%s\n' "$syn" | wc -l)" -le 2 ] && pass "man SYNOPSIS is the usage line" ||
		fail "man SYNOPSIS is the usage line" "$syn"
	MANWIDTH=80 man -l "$D$P/share/man/man1/trail.1" | grep -q 'COMMON OPTIONS' && pass "man -l trail.1" ||
		fail "man -l trail.1"
	group_begin
	for m in "$D$P"/share/man/man1/*.1; do
		man --warnings -l "$m" 2>&1 >/dev/null | grep -v 'cannot adjust line\|can.t break line' | grep -q . &&
			fail "$(basename "$m") renders without warnings" "$(man --warnings -l "$m" 2>&1 >/dev/null | head -2)"
	done
	group_end "man pages render without groff warnings"
else
	skip "man -l" "man not installed"
fi
# bash completion: commands, then options from the installed binary
if have bash; then
	out=$(PATH=$D$P/bin:$PATH bash -c '. "$1"; COMP_WORDS=(trail ex); COMP_CWORD=1; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail top --so); COMP_CWORD=2; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail flamegraph --inv); COMP_CWORD=2; _trail; echo "${COMPREPLY[*]}"' _ \
		"$D$P/share/bash-completion/completions/trail" 2>&1)
	[ "$out" = "$(printf 'explain\n--sort\n--inverted')" ] && pass "bash completion: commands and options" ||
		fail "bash completion: commands and options" "$out"
	# option values, from the binary's tables
	out=$(PATH=$D$P/bin:$PATH bash -c '. "$1"; COMP_WORDS=(trail record -e ""); COMP_CWORD=3; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail collapse --output s); COMP_CWORD=3; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail flame --metric peak); COMP_CWORD=3; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail record -o ""); COMP_CWORD=3; _trail; echo "${#COMPREPLY[@]} files"' _ \
		"$D$P/share/bash-completion/completions/trail" 2>&1)
	printf '%s\n' "$out" | sed -n 1p | grep -q 'cpu-clock .*offcpu alloc' &&
		[ "$(printf '%s\n' "$out" | sed -n 2,3p)" = "$(printf 'speedscope\npeak-heap')" ] &&
		pass "bash completion: option values (record -e, --output, --metric)" ||
		fail "bash completion: option values (record -e, --output, --metric)" "$out"
	# history's subcommands (from its dispatch table), then their options and values
	out=$(PATH=$D$P/bin:$PATH bash -c '. "$1"; COMP_WORDS=(trail history ""); COMP_CWORD=2; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail history de); COMP_CWORD=2; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail -q history detect --bis); COMP_CWORD=4; _trail; echo "${COMPREPLY[*]}";
		COMP_WORDS=(trail history backfill --metric w); COMP_CWORD=4; _trail; echo "${COMPREPLY[*]}"' _ \
		"$D$P/share/bash-completion/completions/trail" 2>&1)
	[ "$out" = "$(printf 'record backfill show plot detect guard check diff prune site\ndetect\n--bisect\nwall')" ] &&
		pass "bash completion: history subcommands, options and values" ||
		fail "bash completion: history subcommands, options and values" "$out"
fi
[ -f "$D$P/share/zsh/site-functions/_trail" ] && pass "zsh completion installed" || fail "zsh completion installed"
if have zsh; then
	# compadd and _files stubbed: what would be offered is printed
	out=$(PATH=$D$P/bin:$PATH zsh -f -c '
		compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else shift; print -l -- "$@"; fi }
		_files() { print FILES }
		words=(trail ex); CURRENT=2; PREFIX=ex; source $1 | grep -x explain
		words=(trail top --s); CURRENT=3; PREFIX=--s; source $1 | grep -x -- --sort
		words=(trail record -o x); CURRENT=4; PREFIX=; source $1
		words=(trail top --sort x); CURRENT=4; PREFIX=; source $1
		words=(trail history g); CURRENT=3; PREFIX=g; source $1 | grep -x guard
		words=(trail history guard --max); CURRENT=4; PREFIX=--max; source $1 | grep -x -- --max-regression
		print end' _ "$D$P/share/zsh/site-functions/_trail" 2>&1)
	[ "$out" = "$(printf 'explain\n--sort\nFILES\nself\ntotal\nname\nguard\n--max-regression\nend')" ] &&
		pass "zsh completion: commands, options, files only for FILE values" ||
		fail "zsh completion" "$out"	# --sort's values: self total name
else
	skip "zsh completion" "zsh not installed"
fi

# README examples with the installed trail on PATH (the ones that need no perf)
if have cc; then
	cd "$T" || exit 1
	printf 'static volatile long s; int main(void) { for (long i = 0; i < 300000000; i++) s += i; return 0; }\n' >app.c
	cc -O1 -fno-omit-frame-pointer -o app app.c
	if PATH=$D$P/bin:$PATH trail record -o app.folded -- ./app >/dev/null 2>"$T/rec.err"; then
		PATH=$D$P/bin:$PATH trail flamegraph app.folded >app.svg && grep -q '<svg' app.svg &&
			PATH=$D$P/bin:$PATH trail top app.folded >/dev/null &&
			PATH=$D$P/bin:$PATH trail explain app.folded >/dev/null &&
			pass "README: record, flamegraph, top, explain with the installed trail" ||
			fail "README examples with the installed trail"
		cp app.folded before.folded
		PATH=$D$P/bin:$PATH trail diff --top 10 before.folded app.folded >/dev/null &&
			PATH=$D$P/bin:$PATH trail diff -n before.folded app.folded | PATH=$D$P/bin:$PATH trail flamegraph >diff.svg &&
			pass "README: diff --top and a differential graph" || fail "README: diff examples"
	else
		skip "README examples" "trail record not usable here: $(head -1 "$T/rec.err")"
	fi
	cd "$ROOT" || exit 1
fi

# a plain PREFIX (as in README's PREFIX=$HOME/.local): man finds the pages from PATH
if have man && make -s -C "$ROOT" install "${SAN[@]}" BUILD="$BUILD" PREFIX="$T/pfx" >"$T/inst2.out" 2>&1; then
	[ "$(PATH=$T/pfx/bin:$PATH man -w trail-flamegraph 2>&1)" = "$T/pfx/share/man/man1/trail-flamegraph.1" ] &&
		pass "man trail-flamegraph found through PATH after make install PREFIX" ||
		fail "man trail-flamegraph found through PATH" "$(PATH=$T/pfx/bin:$PATH man -w trail-flamegraph 2>&1)"
	make -s -C "$ROOT" uninstall "${SAN[@]}" BUILD="$BUILD" PREFIX="$T/pfx" >/dev/null 2>&1
fi

make -s -C "$ROOT" uninstall "${SAN[@]}" BUILD="$BUILD" DESTDIR="$D" PREFIX="$P" >"$T/un.out" 2>&1 &&
	[ -z "$(find "$D" -type f)" ] && pass "make uninstall removes every file" ||
	fail "make uninstall removes every file" "$(find "$D" -type f | head -3)"

# issue 29: installed into a PREFIX whose bin is not on PATH, make install
# says so and how (the README's next line, trail --help, failed silently)
if make -s -C "$ROOT" install "${SAN[@]}" BUILD="$BUILD" PREFIX="$T/pfx" >"$T/pfx.out" 2>&1; then
	grep -q "trail is in $T/pfx/bin, which is not on your PATH" "$T/pfx.out" &&
		pass "make install names a bin directory that is not on PATH" ||
		fail "make install names a bin directory that is not on PATH" "$(cat "$T/pfx.out")"
	PATH="$T/pfx/bin:$PATH" make -s -C "$ROOT" install "${SAN[@]}" BUILD="$BUILD" PREFIX="$T/pfx" >"$T/pfx.out" 2>&1
	! grep -q "not on your PATH" "$T/pfx.out" && pass "... and says nothing when it is" ||
		fail "... and says nothing when it is" "$(cat "$T/pfx.out")"
else
	fail "make install PREFIX" "$(tail -3 "$T/pfx.out")"
fi
# make deps waits for another apt's dpkg lock instead of failing at once
n_apt=$(grep -c '^\$SUDO apt-get' "$ROOT/scripts/install-deps")
n_lock=$(grep -c '^\$SUDO apt-get "\${lock\[@\]}"' "$ROOT/scripts/install-deps")
grep -q 'lock=(-o DPkg::Lock::Timeout=600)' "$ROOT/scripts/install-deps" && [ "$n_apt" -gt 0 ] && [ "$n_apt" = "$n_lock" ] &&
	pass "every apt-get of make deps waits for the dpkg lock" ||
	fail "every apt-get of make deps waits for the dpkg lock" "$n_lock of $n_apt"
