"""bench/deepstacks.py - folded stacks shaped like real JVM and Node.js
captures, for bench/flamegraph (imported, not run; not executable, so
bench/run-all skips it).

Real JIT-heavy profiles (perf with --perf-basic-prof or a JVM perf map,
then 'trail collapse') are deep because they recurse: a tree walker, a
JSON or template renderer, a parser or an interpreter calls itself through
two to four frames, 10 to 40 levels down, under a long runtime prefix
(thread start, JVM call stub or the Node event loop, framework dispatch).
Measured on such captures: ~30 frames and ~750 bytes a line, a few tens of
thousands of distinct stacks, counts heavy-tailed.  Shapes:

    deep      JVM and Node stacks with recursive cycles, ~30 frames, ~750 B a line
    shallow   the same programs cut to their last 3-9 frames under the root
    threads   deep stacks under 'comm-pid/tid' thread frames ('collapse --tid')

Each in two orders: 'sorted' (byte order, as 'trail collapse' and 'trail
diff' write) and 'shuffled'.  diff_pair() writes two profiles of one program, the second
with some cycles hotter, some stacks gone and some new.  Deterministic:
same arguments, same bytes.
"""
import random

JAVA_PKGS = ["o.s.web", "o.a.catalina", "c.f.jackson", "o.hibernate", "c.ex.orders",
             "c.ex.tree", "j.u.stream", "o.e.jetty", "io.netty", "c.g.common"]
JS_DIRS = ["/a/x", "/a/render", "/a/ast", "/a/gql", "node:internal", "/a/lodash"]
VERBS = ["visit", "walk", "render", "serialize", "resolve", "evaluate", "parse", "apply",
         "transform", "dispatch", "handle", "invoke", "compile", "lookup", "emit", "reduce"]
NATIVE_LEAVES = ["__memmove_avx_unaligned_erms", "malloc", "_int_malloc", "__pthread_mutex_lock",
                 "clear_page_erms_[k]", "asm_exc_page_fault_[k]", "copy_user_enhanced_fast_string_[k]",
                 "Interpreter", "StubRoutines (2)", "JVM_IHashCode", "Builtin:StringAdd_CheckNone",
                 "v8::internal::Heap::CollectGarbage", "Builtins_InterpreterEntryTrampoline"]


def _java_name(rng, i):
    return "%s.%s::%s%d" % (rng.choice(JAVA_PKGS), rng.choice(VERBS).capitalize(),
                            rng.choice(VERBS), i)


def _js_name(rng, i):
    return "JS:%s%s%d %s/%s.js:%d" % (rng.choice("*~"), rng.choice(VERBS), i,
                                      rng.choice(JS_DIRS), rng.choice(VERBS), rng.randint(1, 900))


class Program:
    """One runtime's call graph: prefixes, recursive cycles, library calls."""

    def __init__(self, rng, kind):
        self.kind = kind
        make = _java_name if kind == "java" else _js_name
        self.names = [make(rng, i) for i in range(2500)]
        if kind == "java":
            base = ["java", "start_thread", "thread_native_entry", "Thread::call_run",
                    "JavaThread::thread_main_inner", "JavaCalls::call_helper", "call_stub",
                    "java.lang.Thread::run",
                    "j.u.c.ThreadPoolExecutor$Worker::run"]
        else:
            base = ["node", "__libc_start_call_main", "node::Start", "node::SpinEventLoop",
                    "uv_run", "uv__io_poll", "node::InternalCallbackScope::Close",
                    "Builtins_JSEntry", "JS:~processTicksAndRejections node:internal/task_queues:67"]
        self.prefixes = []
        for _ in range(12):
            p = list(base) + [rng.choice(self.names) for _ in range(rng.randint(2, 7))]
            self.prefixes.append(p)
        # recursive cycles of 1-4 frames (a visitor's visit -> accept -> visit)
        self.cycles = [[rng.choice(self.names) for _ in range(rng.randint(1, 4))]
                       for _ in range(300)]
        self.leaves = [[rng.choice(self.names) for _ in range(rng.randint(0, 3))]
                       + [rng.choice(NATIVE_LEAVES)] for _ in range(400)]

    def stack(self, rng, hot=None):
        cyc = self.cycles[hot if hot is not None else int(rng.paretovariate(0.9)) % len(self.cycles)]
        frames = list(rng.choice(self.prefixes))
        depth = rng.randint(14, 40)
        while len(frames) < depth:
            frames.extend(cyc)
        frames.extend(rng.choice(self.leaves))
        return frames


def _lines(rng, mb, shape, programs, hot=None, drop=0.0):
    target = mb * 1000 * 1000
    threads = {}
    if shape == "threads":
        for p in programs:
            pid = rng.randint(1000, 60000)
            threads[p.kind] = ["%s-%d/%d" % (p.kind, pid, pid + rng.randint(1, 400))
                               for _ in range(24)]
    lines, size, seen = [], 0, set()
    while size < target:
        p = programs[0] if rng.random() < 0.55 else programs[1]
        frames = p.stack(rng, hot if hot is not None and rng.random() < 0.05 else None)
        if shape == "shallow":
            frames = [frames[0]] + frames[-rng.randint(3, 9):]
        elif shape == "threads":
            frames = [rng.choice(threads[p.kind])] + frames[1:]
        stack = ";".join(frames)
        if stack in seen:
            continue
        seen.add(stack)
        if drop and rng.random() < drop:
            continue
        line = "%s %d\n" % (stack, int(rng.paretovariate(1.1) * 2))
        lines.append(line)
        size += len(line)
    return lines


def _write(path, lines, order, rng):
    if order == "shuffled":
        rng.shuffle(lines)
    else:
        lines.sort()    # byte order (the text is ASCII), as 'trail collapse' writes
    with open(path, "w") as f:
        f.writelines(lines)
    return len(lines)


def generate(path, shape, order, mb):
    """Write about mb MB of shape ('deep', 'shallow', 'threads') in order
    ('sorted', 'shuffled') to path; returns the number of lines."""
    rng = random.Random(1729)
    programs = [Program(rng, "java"), Program(rng, "node")]
    rng = random.Random(shape)
    return _write(path, _lines(rng, mb, shape, programs), order, rng)


def diff_pair(before, after, mb):
    """Two deep profiles of the same programs, each about mb MB, before
    sorted and after shuffled: in after, the stacks through one recursive
    cycle are three times hotter, 3% of the stacks are gone and as many
    new ones come."""
    rng = random.Random(1729)
    programs = [Program(rng, "java"), Program(rng, "node")]
    lines = _lines(random.Random("diff"), mb, "deep", programs)
    hot = programs[0].cycles[17][0] + ";"
    rng = random.Random(5)
    changed = []
    for line in lines:
        if rng.random() < 0.03:
            continue
        stack, count = line.rsplit(" ", 1)
        if hot in stack:
            line = "%s %d\n" % (stack, int(count) * 3 + 1)
        changed.append(line)
    old = set(lines)
    new = [l for l in _lines(random.Random("new"), mb * 0.03, "deep", programs) if l not in old]
    _write(before, lines, "sorted", rng)
    _write(after, changed + new, "shuffled", rng)
