/*
 * sampler_synth.c - the records the kernel does not emit by itself, built
 * the way perf record synthesizes them (tools/perf/util/synthetic-events.c):
 * the kernel's text mapping ("[kernel.kallsyms]_text" from /proc/kallsyms)
 * and, for a process we attach to, one COMM per thread and one MMAP2 per
 * executable mapping of /proc/PID/maps.  Each carries a zeroed sample_id
 * trailer (time 0 sorts it before every real event).
 */
#include "perf/sampler_synth.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/parse_number.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_RECORD 8192		/* bytes; paths longer than this are cut */

struct synth {
	const struct sampler_synth_target *s;
	struct perf_tool *tool;
	unsigned char buf[MAX_RECORD];
};

/* Append name (NUL-padded to 8 bytes) and the trailer, then emit. */
static int emit(struct synth *y, size_t fixed, const char *name, uint32_t pid, uint32_t tid)
{
	struct perf_event_header *h = (void *)y->buf;
	size_t id = perf_sample_id_size(y->s->attr);
	struct perf_tool_event ev = { y->s->attr, y->s->event, NULL };
	const char *why;
	size_t len = strlen(name) + 1, padded;

	if (fixed + len + id + 8 > sizeof(y->buf))
		len = sizeof(y->buf) - fixed - id - 8;
	padded = (len + 7) & ~(size_t)7;
	memset(y->buf + fixed, 0, padded + id);
	memcpy(y->buf + fixed, name, len - 1);
	if (id && (y->s->attr->sample_type & PERF_SAMPLE_TID)) {
		uint32_t pair[2] = { pid, tid };

		memcpy(y->buf + fixed + padded, pair, sizeof(pair));
	}
	h->size = (uint16_t)(fixed + padded + id);
	if (perf_tool_deliver(y->tool, &ev, h, &why) && why)
		return trail_error("cannot describe '%s' to the recorder: %s", name, why);
	return 0;
}

/*
 * The kernel text's bounds (_text, _etext) from /proc/kallsyms, 0 0 when
 * hidden or unreadable.  Read once per process: they are fixed at boot,
 * and the walk to _etext reads nearly all of kallsyms, which the kernel
 * formats line by line - most of a short run's recording cost when
 * trail flame records run after run in one process.
 */
static void kernel_text(uint64_t *text_out, uint64_t *etext_out)
{
	static int known;
	static uint64_t text, etext;
	struct line_reader r;
	char *line;
	size_t len;
	uint64_t v;

	if (!known && !line_reader_open(&r, "/proc/kallsyms")) {
		while (line_reader_next(&r, &line, &len) > 0 && !(text && etext)) {
			/* "ffffffff81000000 T _text" */
			char *sp = memchr(line, ' ', len);

			if (!sp || len < (size_t)(sp - line) + 3)
				continue;
			if (strcmp(sp + 3, "_text") && strcmp(sp + 3, "_etext"))
				continue;
			if (parse_hex_u64_n(line, (size_t)(sp - line), &v))
				continue;
			if (!strcmp(sp + 3, "_text"))
				text = v;
			else
				etext = v;
		}
		line_reader_close(&r);
		known = 1;
	}
	*text_out = text;
	*etext_out = etext;
}

static int synth_kernel(struct synth *y)
{
	uint64_t text, etext;
	struct perf_event_header *h = (void *)y->buf;
	unsigned char *p = y->buf + sizeof(*h);
	uint32_t pid = UINT32_MAX, tid = 0;
	uint64_t v;

	if (y->s->attr->exclude_kernel)
		return 0;
	kernel_text(&text, &etext);	/* kernel frames stay [unknown] without it; not fatal */
	if (!text || etext <= text)
		return 0;	/* hidden by kptr_restrict */
	memset(y->buf, 0, sizeof(*h) + 32);
	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	memcpy(p, &pid, 4);
	memcpy(p + 4, &tid, 4);
	memcpy(p + 8, &text, 8);
	v = etext - text;
	memcpy(p + 16, &v, 8);
	memcpy(p + 24, &text, 8);	/* pgoff: perf stores the start here */
	return emit(y, sizeof(*h) + 32, "[kernel.kallsyms]_text", pid, tid);
}

static int synth_comm(struct synth *y, pid_t pid, pid_t tid)
{
	char path[64], comm[32];
	struct perf_event_header *h = (void *)y->buf;
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)tid };
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* the thread ended */
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	memset(y->buf, 0, sizeof(*h) + 8);
	h->type = PERF_RECORD_COMM;
	memcpy(y->buf + sizeof(*h), ids, 8);
	return emit(y, sizeof(*h) + 8, comm, ids[0], ids[1]);
}

/* One line of /proc/PID/maps: "start-end perms offset maj:min inode   path". */
static int synth_map_line(struct synth *y, pid_t pid, char *line)
{
	struct perf_event_header *h = (void *)y->buf;
	unsigned char *p = y->buf + sizeof(*h);
	char *f[6], *save = NULL, *dash, *colon;
	uint64_t start, end, pgoff, maj, min, ino, zero = 0;
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)pid }, prot = 0, flags;
	const char *name;
	int i;

	for (i = 0; i < 5; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			return 0;
	}
	f[5] = strtok_r(NULL, "", &save);
	name = f[5];
	while (name && *name == ' ')
		name++;
	/* perf synthesizes executable mappings only, unless data mappings are wanted */
	if (strlen(f[1]) < 4 || (f[1][2] != 'x' && !y->s->attr->mmap_data))
		return 0;
	dash = strchr(f[0], '-');
	colon = strchr(f[3], ':');
	if (!dash || !colon ||
	    parse_hex_u64_n(f[0], (size_t)(dash - f[0]), &start) ||
	    parse_hex_u64_n(dash + 1, strlen(dash + 1), &end) || end <= start ||
	    parse_hex_u64_n(f[2], strlen(f[2]), &pgoff) ||
	    parse_hex_u64_n(f[3], (size_t)(colon - f[3]), &maj) ||
	    parse_hex_u64_n(colon + 1, strlen(colon + 1), &min) ||
	    parse_u64(f[4], &ino))
		return 0;
	if (!name || !*name)
		name = "//anon";
	if (f[1][0] == 'r')
		prot |= PROT_READ;
	if (f[1][1] == 'w')
		prot |= PROT_WRITE;
	if (f[1][2] == 'x')
		prot |= PROT_EXEC;
	flags = f[1][3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	memset(y->buf, 0, sizeof(*h) + 64);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	/* u32 pid, tid; u64 addr, len, pgoff; u32 maj, min; u64 ino, ino_generation; u32 prot, flags */
	memcpy(p, ids, 8);
	memcpy(p + 8, &start, 8);
	end -= start;
	memcpy(p + 16, &end, 8);
	memcpy(p + 24, &pgoff, 8);
	{
		uint32_t mm[2] = { (uint32_t)maj, (uint32_t)min };

		memcpy(p + 32, mm, 8);
	}
	memcpy(p + 40, &ino, 8);
	memcpy(p + 48, &zero, 8);
	memcpy(p + 56, &prot, 4);
	memcpy(p + 60, &flags, 4);
	return emit(y, sizeof(*h) + 64, name, ids[0], ids[1]);
}

static int synth_process(struct synth *y)
{
	struct line_reader r;
	char path[64], *line;
	size_t len, i;
	int ret = 0;

	for (i = 0; i < y->s->nr_tids; i++)
		if (synth_comm(y, y->s->pid, y->s->tids[i]))
			return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)y->s->pid);
	if (access(path, R_OK))
		return error_errno("cannot read '%s'", path);
	if (line_reader_open(&r, path))
		return -1;
	while (!ret && line_reader_next(&r, &line, &len) > 0)
		ret = synth_map_line(y, y->s->pid, line);
	line_reader_close(&r);
	return ret;
}

int sampler_synthesize(const struct sampler_synth_target *s, struct perf_tool *tool)
{
	struct synth *y = xcalloc(1, sizeof(*y));
	int ret;

	y->s = s;
	y->tool = tool;
	ret = synth_kernel(y);
	if (!ret && s->attached)
		ret = synth_process(y);
	free(y);
	return ret;
}
