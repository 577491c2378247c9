# bench/jit_workload.sh - a JIT-heavy workload to record (sourced by
# bench/perfdata; not executable, so bench/run-all skips it).
#
# jit_workload_build DIR   writes the programs into DIR and compiles the
#                          Java one; prints what it could not build
# jit_workload_run DIR S   runs them side by side for about S seconds: node
#                          with --perf-basic-prof and java with frame
#                          pointers and a perf map written at exit (both
#                          recursive: tree walks, renderers, parsers, fib),
#                          beside python, perl and xz
#
# The perf maps land in /tmp/perf-PID.map, where perf script and trail
# collapse look for them; the caller removes them when done.

jit_workload_build() {
	local d=$1
	cat > "$d/Work.java" <<'JAVA'
import java.util.*;

public class Work {
	static final class Node {
		final int v; final List<Node> kids = new ArrayList<>();
		Node(int v) { this.v = v; }
	}
	interface Visitor { long visit(Node n, int depth); }

	static Node build(Random r, int depth) {
		Node n = new Node(r.nextInt(1000));
		if (depth > 0)
			for (int i = 0, k = 1 + r.nextInt(3); i < k; i++)
				n.kids.add(build(r, depth - 1 - r.nextInt(2)));
		return n;
	}
	static long walk(Node n, Visitor v, int depth) {
		long s = v.visit(n, depth);
		for (Node k : n.kids) s += accept(k, v, depth + 1);
		return s;
	}
	static long accept(Node n, Visitor v, int depth) { return walk(n, v, depth); }
	static void render(Node n, StringBuilder sb) {
		sb.append('{').append(n.v);
		for (Node k : n.kids) { sb.append(','); renderChild(k, sb); }
		sb.append('}');
	}
	static void renderChild(Node n, StringBuilder sb) { render(n, sb); }
	static int parse(String s, int[] pos) {
		int sum = 0;
		pos[0]++;
		while (pos[0] < s.length() && s.charAt(pos[0]) != '}') {
			char c = s.charAt(pos[0]);
			if (c == '{') sum += parse(s, pos);
			else if (c >= '0' && c <= '9') sum += c - '0';
			pos[0]++;
		}
		return sum;
	}
	static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

	public static void main(String[] a) {
		double secs = a.length > 0 ? Double.parseDouble(a[0]) : 2;
		long end = System.nanoTime() + (long)(secs * 1e9), sink = 0;
		Random r = new Random(1);
		Visitor hash = (n, d) -> (n.v * 31L) ^ d;
		Visitor count = (n, d) -> n.kids.size() + d;
		Map<String, Integer> m = new HashMap<>();
		while (System.nanoTime() < end) {
			Node t = build(r, 14);
			sink += walk(t, hash, 0) + walk(t, count, 0);
			StringBuilder sb = new StringBuilder();
			render(t, sb);
			sink += parse(sb.toString(), new int[1]);
			sink += fib(18 + r.nextInt(6));
			m.merge(sb.substring(0, Math.min(8, sb.length())), 1, Integer::sum);
		}
		System.out.println(sink + m.size());
	}
}
JAVA
	cat > "$d/work.js" <<'JS'
'use strict';
function build(depth, seed) {
	const n = { v: seed % 1000, kids: [] };
	if (depth > 0)
		for (let i = 0, k = 1 + (seed % 3); i < k; i++)
			n.kids.push(build(depth - 1 - ((seed >> i) & 1), (seed * 1103515245 + 12345 + i) >>> 0));
	return n;
}
function walk(n, visit, depth) {
	let s = visit(n, depth);
	for (const k of n.kids) s += accept(k, visit, depth + 1);
	return s;
}
function accept(n, visit, depth) { return walk(n, visit, depth); }
function render(n) { return '{' + n.v + n.kids.map(renderChild).join(',') + '}'; }
function renderChild(n) { return render(n); }
function evaluate(ast) {
	if (typeof ast === 'number') return ast;
	const [op, l, r] = ast;
	return op === '+' ? evaluate(l) + evaluate(r) : op === '*' ? evaluate(l) * evaluate(r) : evaluate(l) - evaluate(r);
}
function gen(d, s) { return d <= 0 ? s % 10 : [['+', '*', '-'][s % 3], gen(d - 1, s * 7 + 1), gen(d - 1 - (s & 1), s * 13 + 5)]; }
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

const secs = Number(process.argv[2] || 2), end = Date.now() + secs * 1000;
let sink = 0, seed = 1;
while (Date.now() < end) {
	const t = build(13, seed++);
	sink += walk(t, (n, d) => n.v ^ d, 0);
	const s = render(t);
	sink += JSON.parse(JSON.stringify(t)).kids.length + s.length;
	sink += evaluate(gen(12, seed));
	sink += fib(18 + seed % 6);
}
console.log(sink);
JS
	command -v node >/dev/null || echo "(node not installed: no JavaScript frames)"
	if command -v javac >/dev/null && command -v java >/dev/null; then
		javac -d "$d" "$d/Work.java" || echo "(javac failed: no Java frames)"
	else
		echo "(java/javac not installed: no Java frames)"
	fi
}

jit_workload_run() {
	local d=$1 s=$2
	command -v node >/dev/null && node --perf-basic-prof "$d/work.js" "$s" >/dev/null &
	[ -f "$d/Work.class" ] &&
		java -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
			-cp "$d" Work "$s" >/dev/null &
	command -v python3 >/dev/null && python3 -c "
import time, json, re
def rec(d): return [rec(d - 1), rec(d - 2)] if d > 1 else d
end = time.time() + $s
while time.time() < end:
    s = json.dumps(rec(16)); json.loads(s); re.findall(r'\[(\d),', s)
" &
	command -v perl >/dev/null && perl -e '$e = time + '"$s"'; sub f { my $n = shift; $n < 2 ? $n : f($n - 1) + f($n - 2) }
		while (time < $e) { f(20); my $s = join(",", map { $_ * 3 } 1..20000); $s =~ s/(\d)(\d)/$2$1/g }' &
	command -v xz >/dev/null && (
		end=$(($(date +%s) + ${s%.*}))
		while [ "$(date +%s)" -lt "$end" ]; do head -c 20000000 /dev/urandom | xz -1 >/dev/null; done
	) &
	wait
}
