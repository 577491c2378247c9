/*
 * maps.c - threads and address maps of a recording, following perf 6.1's
 * machine__findnew_thread(), machine__process_fork_event(), thread__fork()
 * and maps__fixup_overlappings() so frames land in the same module as in
 * perf script, across fork, exec and dlopen.
 */
#include "perf/maps.h"
#include "core/alloc.h"
#include "core/hashmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct maps *maps_new(void)
{
	static uint64_t next_serial;	/* only ever compared for equality */
	struct maps *ms = xcalloc(1, sizeof(*ms));

	ms->refs = 1;
	ms->serial = ++next_serial;
	return ms;
}

static void maps_put(struct maps *ms)
{
	if (ms && !--ms->refs) {
		free(ms->v);
		free(ms);
	}
}

void machine_init(struct machine *m, struct symbolizer *sym)
{
	memset(m, 0, sizeof(*m));
	hashmap_init(&m->by_tid, 256);
	intern_init(&m->comms);
	m->sym = sym;
	m->jit = 1;
}

static void thread_free(struct thread *t)
{
	maps_put(t->maps);
	free(t);
}

void machine_release(struct machine *m)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		thread_free(m->threads[i]);
	free(m->threads);
	hashmap_release(&m->by_tid);
	intern_release(&m->comms);
	memset(m, 0, sizeof(*m));
}

/* The table's entry for tid (a live or a dead thread), or NULL. */
static struct thread **slot_of(struct machine *m, uint32_t tid)
{
	struct hashmap_iter it;
	uint32_t id;

	for (id = hashmap_first(&m->by_tid, hashmap_hash_u64(tid), &it); id != HASHMAP_NONE;
	     id = hashmap_next(&it))
		if (m->threads[id]->tid == tid)
			return &m->threads[id];
	return NULL;
}

static uint32_t placeholder_comm(struct machine *m, uint32_t tid)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), ":%d", (int)tid);

	return intern_add(&m->comms, buf, (size_t)n, NULL);
}

static struct thread *find_thread(struct machine *m, uint32_t tid)
{
	struct thread **slot = slot_of(m, tid);

	return slot && !(*slot)->dead ? *slot : NULL;
}

/* machine_thread() without its one-entry cache. */
static struct thread *find_or_add_thread(struct machine *m, int32_t pid, uint32_t tid)
{
	struct thread **slot = slot_of(m, tid), *t = slot ? *slot : NULL;

	if (t && !t->dead) {
		if (t->pid == -1 && pid != -1 && (uint32_t)pid != tid) {
			/* now we know its process: share the leader's maps */
			struct thread *leader = machine_thread(m, pid, (uint32_t)pid);

			t = find_thread(m, tid);
			t->pid = pid;
			if (leader->maps != t->maps) {
				maps_put(t->maps);
				t->maps = leader->maps;
				t->maps->refs++;
			}
		} else if (t->pid == -1 && pid != -1) {
			t->pid = pid;
		}
		return t;
	}
	if (t) {
		if (m->last == t)
			m->last = NULL;
		thread_free(t);	/* a dead thread's tid reused: its entry takes the new one */
	}
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->comm = placeholder_comm(m, tid);
	if (slot) {
		*slot = t;
	} else {
		ALLOC_GROW(m->threads, m->nr + 1, m->alloc);
		m->threads[m->nr] = t;
		hashmap_add(&m->by_tid, hashmap_hash_u64(tid), (uint32_t)m->nr++);
	}
	if (pid == -1 || (uint32_t)pid == tid) {
		t->maps = maps_new();
	} else {
		struct thread *leader = machine_thread(m, pid, (uint32_t)pid);

		t = find_thread(m, tid);
		t->maps = leader->maps;
		t->maps->refs++;
	}
	return t;
}

/*
 * Samples come in runs from one thread: the thread found last answers
 * again while it is alive and its process is the one asked for (anything
 * else takes the full path, which may change the table).
 */
struct thread *machine_thread(struct machine *m, int32_t pid, uint32_t tid)
{
	struct thread *t = m->last;

	if (t && t->tid == tid && t->pid == pid && !t->dead)
		return t;
	t = find_or_add_thread(m, pid, tid);
	m->last = t;
	return t;
}

const char *thread_comm(const struct machine *m, const struct thread *t)
{
	return intern_str(&m->comms, t->comm);
}

/* ---- maps ----------------------------------------------------------------- */

static size_t maps_lower_bound(const struct maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->nr;

	/* first map with end > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ms->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void maps_insert(struct maps *ms, const struct map *mp)
{
	size_t i = maps_lower_bound(ms, mp->start), j = i;
	struct map keep[2];
	size_t nkeep = 0, tail;

	if (mp->end <= mp->start)
		return;
	ms->gen++;
	/* maps [i, j) overlap mp; keep their parts outside it */
	while (j < ms->nr && ms->v[j].start < mp->end) {
		const struct map *old = &ms->v[j];

		if (old->start < mp->start && nkeep < 2) {
			keep[nkeep] = *old;
			keep[nkeep].end = mp->start;
			nkeep++;
		}
		if (old->end > mp->end && nkeep < 2) {
			keep[nkeep] = *old;
			keep[nkeep].start = mp->end;
			if (!old->identity)
				keep[nkeep].pgoff = old->pgoff + (mp->end - old->start);
			nkeep++;
		}
		j++;
	}
	/* replace v[i, j) with keep-before, mp, keep-after */
	tail = ms->nr - j;
	ALLOC_GROW(ms->v, ms->nr - (j - i) + nkeep + 1, ms->alloc);
	memmove(ms->v + i + nkeep + 1, ms->v + j, tail * sizeof(*ms->v));
	{
		size_t k = i, n;

		for (n = 0; n < nkeep; n++)
			if (keep[n].start < mp->start)
				ms->v[k++] = keep[n];
		ms->v[k++] = *mp;
		for (n = 0; n < nkeep; n++)
			if (keep[n].start >= mp->end)
				ms->v[k++] = keep[n];
	}
	ms->nr = ms->nr - (j - i) + nkeep + 1;
}

const struct map *thread_find_map(const struct thread *t, uint64_t addr)
{
	struct maps *ms = t->maps;
	size_t i;

	if (!ms)
		return NULL;
	i = ms->last;
	if (i < ms->nr && ms->v[i].start <= addr && addr < ms->v[i].end)
		return &ms->v[i];
	i = maps_lower_bound(ms, addr);
	if (i < ms->nr && ms->v[i].start <= addr) {
		ms->last = i;
		return &ms->v[i];
	}
	return NULL;
}

/* perf's is_anon_memory() and is_no_dso_memory() */
static int is_anon(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14);
}

static int is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

void machine_mmap(struct machine *m, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *filename, int exec)
{
	struct thread *t;
	struct map mp;
	int anon = is_anon(filename), nodso = is_no_dso(filename);

	t = machine_thread(m, (int32_t)pid, tid);
	memset(&mp, 0, sizeof(mp));
	mp.start = start;
	mp.end = start + len;
	if (mp.end < start)
		mp.end = UINT64_MAX;
	mp.pgoff = pgoff;
	if (anon || nodso) {
		mp.identity = 1;
		if (exec) {
			char buf[64];

			snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", (int)pid);
			mp.dso = symbolizer_dso(m->sym, buf, m->jit ? DSO_JIT : DSO_NONE);
		} else {
			mp.dso = symbolizer_dso(m->sym, filename, DSO_NONE);
		}
	} else if (!strcmp(filename, "[vdso]")) {
		mp.dso = symbolizer_dso(m->sym, filename, DSO_VDSO);
	} else if (filename[0] == '[') {
		mp.dso = symbolizer_dso(m->sym, filename, DSO_NONE);
	} else {
		mp.dso = symbolizer_dso(m->sym, filename, DSO_ELF);
	}
	maps_insert(t->maps, &mp);
}

void machine_comm(struct machine *m, uint32_t pid, uint32_t tid, const char *comm)
{
	struct thread *t = machine_thread(m, (int32_t)pid, tid);

	t->comm = intern_add(&m->comms, comm, strlen(comm), NULL);
	t->comm_set = 1;
}

void machine_fork(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		  int synthesized)
{
	struct thread *parent, *child = find_thread(m, tid);
	size_t i;

	parent = machine_thread(m, (int32_t)ppid, ptid);
	if (parent->pid != (int32_t)ppid) {
		/* a stale thread with that id: start over (perf does the same) */
		parent->dead = 1;
		parent = machine_thread(m, (int32_t)ppid, ptid);
	}
	if (child && child != parent)
		child->dead = 1;
	child = machine_thread(m, (int32_t)pid, tid);
	parent = find_thread(m, ptid);
	if (!parent)
		return;
	if (parent->comm_set) {
		child->comm = parent->comm;
		child->comm_set = 1;
	}
	if (child->pid == parent->pid || synthesized || child->maps == parent->maps)
		return;
	/* a new process: copy the parent's address space */
	for (i = 0; i < parent->maps->nr; i++)
		maps_insert(child->maps, &parent->maps->v[i]);
}
