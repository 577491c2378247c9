#!/usr/bin/env bash
# 52-perfdata-inline.sh - 'trail collapse --inline / --no-inline perf.data'
# on real recordings of a program whose hot code is inlined (-O2,
# always_inline helpers).  --no-inline and the default are compared with
# perf script --no-inline / --inline; --inline on frame-pointer chains,
# which perf 6.1 leaves without inline frames, with perf script's text
# expanded by binutils' addr2line -i (what perf runs for inline frames)
# and with the chains perf itself prints for a --call-graph dwarf
# recording of the same program.  Skips without perf, a compiler,
# perf_event_open permission (and, for the addr2line check, perl and
# binutils).
. "$(dirname "$0")/lib.sh"

need_perf_record "perfdata inline"

cd "$T" || exit 1
cat > inl.c <<'EOF'
#include <stdlib.h>
volatile long sink;
static inline __attribute__((always_inline)) long mix(long x)
{
	long s = 0;
	for (long i = 0; i < 2000; i++)
		s += (x ^ i) * 7 + (s >> 3);
	return s;
}
static inline __attribute__((always_inline)) long stage(long x)
{
	long s = 0;
	for (long i = 0; i < 50; i++)
		s += mix(x + i);
	return s;
}
__attribute__((noinline)) long outer(long n)
{
	long t = 0;
	for (long i = 0; i < n; i++)
		t += stage(i);
	return t;
}
/* a call keeps leaf's frame pointer (gcc drops it in leaf functions) */
__attribute__((noinline)) void note(long t)
{
	sink = t;
}
__attribute__((noinline)) void leaf(long n)
{
	long t = 0;
	for (long i = 0; i < n; i++) {
		t += mix(i * 3);
		note(t);
	}
}
/* the call ends drive: its return address is main's code, the call drive's */
static inline __attribute__((always_inline)) void drive(long n)
{
	sink += n;
	leaf(n);
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000;
	sink = outer(n);
	drive(n * 30);
	sink++;
	return 0;
}
EOF
if ! cc -O2 -g -fno-omit-frame-pointer inl.c -o inl 2>cc.err; then
	skip "perfdata inline" "cannot build the workload: $(head -1 cc.err)"
	exit 0
fi

# same NAME EXPECTED ACTUAL: the folded outputs are identical
same() {
	if [ ! -s "$2" ]; then
		fail "$1" "no reference stacks"
	elif cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -10)"
	fi
}
# has REGEX FILE: some folded stack matches
has() { grep -E "$1" "$2" >/dev/null; }

record() { perf record -q -F 999 "$@" >/dev/null 2>&1; }
# fold_modes DATA PREFIX: perf script --inline / --no-inline | trail
# collapse into PREFIXref.inline / .noinline, and trail collapse with no
# flag, --inline and --no-inline into PREFIXnat.default / .inline / .noinline
fold_modes() {
	local data=$1 p=$2 mode
	trail_stacks "$data" > "${p}nat.default" 2>/dev/null
	for mode in inline no-inline; do
		perf script --$mode -i "$data" 2>/dev/null | "$TRAIL" collapse > "${p}ref.${mode/-/}" 2>/dev/null
		trail_stacks --$mode "$data" > "${p}nat.${mode/-/}" 2>/dev/null
	done
}

if ! record -g -o fp.data ./inl; then
	skip "perfdata inline" "perf record -g failed"
	exit 0
fi
perf script -i fp.data 2>/dev/null > fp.txt
fold_modes fp.data ""
same "frame pointers: default = perf script --inline" ref.inline nat.default
same "frame pointers: --no-inline = perf script --no-inline" ref.noinline nat.noinline
if grep -q '(inlined)' fp.txt; then
	note_fp="this perf adds inline frames to frame-pointer chains"
	same "frame pointers: --inline = perf script --inline ($note_fp)" ref.inline nat.inline
fi

# the known inline chains, drive's only found at the call (return address - 1)
if has ';main;outer;stage;mix ' nat.inline && has ';main;drive;leaf;mix ' nat.inline; then
	pass "frame pointers --inline: main;outer;stage;mix and main;drive;leaf;mix"
else
	fail "frame pointers --inline: main;outer;stage;mix and main;drive;leaf;mix" \
	     "$(sort -k2 -nr nat.inline | head -5)"
fi
# the reference: perf script's text with addr2line -i's chains added, the
# first user entry of a sample looked up as is, return addresses one byte
# back (within their symbol), names other than the symbol's "(inlined)"
cat > expand.pl <<'EOF'
use strict;
use warnings;
no warnings 'portable';

my (@lines, %want, %chain);
my $first = 1;
while (my $l = <STDIN>) {
	chomp $l;
	my $e = { text => $l };
	if ($l =~ /^\S/) {
		$first = 1;
	} elsif ($l =~ /^\s+([0-9a-f]+) (.+)\+0x([0-9a-f]+) \((.+)\)$/) {
		my ($hex, $sym, $hexoff, $dso) = ($1, $2, $3, $4);
		my ($addr, $off) = (hex($hex), hex($hexoff));
		if ($addr < 0xffff000000000000) {	# not a kernel frame
			my $at = !$first && $off > 0 ? $addr - 1 : $addr;
			$first = 0;
			if ($dso =~ m{^/} && -f $dso) {
				@$e{qw(addr sym off dso at)} = ($hex, $sym, $hexoff, $dso, $at);
				$want{$dso}{$at} = 1;
			}
		}
	}
	push @lines, $e;
}
for my $dso (keys %want) {
	my (@load, @at, @va, %of);
	# perf's addresses are file offsets: addr2line wants link addresses
	for (`readelf -lW '$dso'`) {
		push @load, [hex($1), hex($2), hex($3)]
			if /^\s+LOAD\s+0x([0-9a-f]+) 0x([0-9a-f]+) 0x[0-9a-f]+ 0x([0-9a-f]+)/;
	}
	for my $at (keys %{$want{$dso}}) {
		for my $s (@load) {
			next unless $at >= $s->[0] && $at < $s->[0] + $s->[2];
			push @va, $at - $s->[0] + $s->[1];
			$of{$va[-1]} = $at;
			last;
		}
	}
	next unless @va;
	my @out = `addr2line -a -f -i -e '$dso' @{[map { sprintf '%x', $_ } @va]}`;
	my $cur;
	while (@out) {
		my $l = shift @out;
		chomp $l;
		if ($l =~ /^0x([0-9a-f]+)$/) {
			$cur = $of{hex $1};
			next;
		}
		shift @out;	# file:line
		push @{$chain{$dso}{$cur}}, $l if $l ne '??';
	}
}
for my $e (@lines) {
	my $c = $e->{dso} ? $chain{$e->{dso}}{$e->{at}} : undef;
	if (!$c) {
		print "$e->{text}\n";
		next;
	}
	printf "\t%16s %s+0x%s (%s)\n", $e->{addr}, $_, $e->{off},
		$_ eq $e->{sym} ? $e->{dso} : 'inlined' for @$c;
}
EOF
if have perl && have addr2line && have readelf; then
	perl expand.pl < fp.txt 2>expand.err | "$TRAIL" collapse > ref.addr2line 2>/dev/null
	same "frame pointers: --inline = perf script + addr2line -i" ref.addr2line nat.inline
else
	skip "frame pointers: --inline = perf script + addr2line -i" "needs perl and binutils"
fi

# text input: its inline frames are perf script's, so both flags are refused
check_exit "perf script text with --inline is refused" 2 "$TRAIL" collapse --inline fp.txt
if grep -q "perf.data input" "$T/.err"; then
	pass "the refusal says why"
else
	fail "the refusal says why" "$(cat "$T/.err")"
fi
check_exit "perf script text with --no-inline is refused" 2 "$TRAIL" collapse --no-inline fp.txt

if ! record --call-graph dwarf -o dw.data ./inl; then
	skip "dwarf" "perf record --call-graph dwarf failed"
	exit 0
fi
fold_modes dw.data d
same "dwarf: default = perf script --inline" dref.inline dnat.default
same "dwarf: --inline = perf script --inline" dref.inline dnat.inline
same "dwarf: --no-inline = perf script --no-inline" dref.noinline dnat.noinline
# perf's own inline chains for this program: the ones --inline gives frame pointers
if has ';main;outer;stage;mix ' dref.inline && has ';main;drive;leaf;mix ' dref.inline &&
   ! has ';(stage|mix|drive)[; ]' dref.noinline; then
	pass "dwarf: perf prints the chains --inline adds, and none with --no-inline"
else
	fail "dwarf: perf prints the chains --inline adds, and none with --no-inline" \
	     "$(sort -k2 -nr dref.inline | head -3)"
fi
