/*
 * sampler_event.c - what the sampler knows about perf events that is not
 * the run itself: decoding samples and sample_id trailers of the
 * sample_type trail opens with (layout: include/uapi/linux/perf_event.h,
 * PERF_RECORD_SAMPLE), and turning perf_event_open failures into messages
 * that tell the user the fix.
 */
#include "perf/sampler.h"
#include "core/error.h"
#include "core/parse_number.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sample fields trail can decode; anything else in sample_type is refused. */
#define DECODABLE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | \
		   PERF_SAMPLE_STACK_USER)

struct cursor {
	const unsigned char *p, *end;
};

static int take(struct cursor *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	if (out)
		memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

size_t sampler_period_offset(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t off = sizeof(struct perf_event_header);

	if (t & PERF_SAMPLE_IP)
		off += 8;
	if (t & PERF_SAMPLE_TID)
		off += 8;
	if (t & PERF_SAMPLE_TIME)
		off += 8;
	if (t & PERF_SAMPLE_CPU)
		off += 8;
	return off;
}

int sampler_parse_sample(const struct perf_event_attr *attr,
			 const struct perf_event_header *rec, struct sampler_sample *out)
{
	uint64_t t = attr->sample_type;
	struct cursor c = { (const unsigned char *)(rec + 1), (const unsigned char *)rec + rec->size };
	uint32_t pair[2];

	memset(out, 0, sizeof(*out));
	if (rec->type != PERF_RECORD_SAMPLE || (t & ~(uint64_t)DECODABLE))
		return -1;
	if ((t & PERF_SAMPLE_IP) && take(&c, &out->ip, 8))
		return -1;
	if (t & PERF_SAMPLE_TID) {
		if (take(&c, pair, 8))
			return -1;
		out->pid = pair[0];
		out->tid = pair[1];
	}
	if ((t & PERF_SAMPLE_TIME) && take(&c, &out->time, 8))
		return -1;
	if (t & PERF_SAMPLE_CPU) {
		if (take(&c, pair, 8))
			return -1;
		out->cpu = pair[0];
	}
	if ((t & PERF_SAMPLE_PERIOD) && take(&c, &out->period, 8))
		return -1;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (take(&c, &out->nr_callchain, 8))
			return -1;
		if (out->nr_callchain > (uint64_t)(c.end - c.p) / 8)
			return -1;
		out->callchain = (const uint64_t *)c.p;
		c.p += out->nr_callchain * 8;
	}
	/* Registers and the stack copy follow; nobody here needs them decoded. */
	return 0;
}

size_t sampler_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t n = 0;

	if (!attr->sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID)
		n += 8;
	if (t & PERF_SAMPLE_TIME)
		n += 8;
	if (t & PERF_SAMPLE_ID)
		n += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (t & PERF_SAMPLE_CPU)
		n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

int sampler_parse_id(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		     uint32_t *pid, uint32_t *tid, uint64_t *time)
{
	size_t n = sampler_id_size(attr);
	struct cursor c;
	uint32_t pair[2] = { 0, 0 };

	*pid = *tid = 0;
	*time = 0;
	if (!n || rec->size < sizeof(*rec) + n)
		return -1;
	c.p = (const unsigned char *)rec + rec->size - n;
	c.end = (const unsigned char *)rec + rec->size;
	if ((attr->sample_type & PERF_SAMPLE_TID) && take(&c, pair, 8))
		return -1;
	if ((attr->sample_type & PERF_SAMPLE_TIME) && take(&c, time, 8))
		return -1;
	*pid = pair[0];
	*tid = pair[1];
	return 0;
}

const char *sampler_event_names(void)
{
	return "cpu-clock, task-clock, page-faults, context-switches, cycles, instructions, offcpu";
}

int sampler_paranoid(void)
{
	char buf[32];
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int64_t v;

	if (fd < 0)
		return 2;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 2;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_i64(buf, &v) || v < -1000 || v > 1000)
		return 2;
	return (int)v;
}

static const char paranoid_levels[] =
	"\n  kernel.perf_event_paranoid levels (root and CAP_PERFMON ignore them):"
	"\n   -1  no restrictions"
	"\n    0  CPU-wide events for every user, no raw tracepoint data"
	"\n    1  kernel and user profiling of your own processes"
	"\n    2  user-space profiling of your own processes only (kernel frames excluded)"
	"\n   3+  (Debian and Android kernels) no perf_event_open for unprivileged users";

void sampler_explain_open_error(struct strbuf *sb, int err, const struct perf_event_attr *attr,
				pid_t pid, int attaching, int paranoid)
{
	int hw = attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE;

	switch (err) {
	case EACCES:
	case EPERM:
		if (attaching) {
			struct stat st;
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d", (int)pid);
			if (!stat(path, &st) && st.st_uid != geteuid()) {
				strbuf_addf(sb, "no permission to attach to process %d (owned by uid %u, you are uid %u): "
					    "run trail as that user or as root (CAP_PERFMON and ptrace access are needed "
					    "for other users' processes)",
					    (int)pid, (unsigned)st.st_uid, (unsigned)geteuid());
				return;
			}
		}
		strbuf_addf(sb, "perf_event_open is not permitted (kernel.perf_event_paranoid is %d): "
			    "run as root, or allow it with 'sysctl kernel.perf_event_paranoid=1'%s",
			    paranoid, paranoid_levels);
		return;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (hw) {
			strbuf_addstr(sb, "this machine exposes no hardware performance counters (typical of virtual "
					  "machines), so hardware events such as 'cycles' cannot be sampled: use "
					  "-e cpu-clock");
			return;
		}
		if (attr->type == PERF_TYPE_TRACEPOINT) {
			strbuf_addstr(sb, "the sched:sched_switch tracepoint cannot be opened here");
			return;
		}
		strbuf_addf(sb, "the event is not supported by this kernel (%s)", strerror(err));
		return;
	case EINVAL:
		if (attr->freq) {
			strbuf_addf(sb, "the kernel refused the event (-F %llu may exceed "
					"kernel.perf_event_max_sample_rate; see /proc/sys/kernel/perf_event_max_sample_rate)",
				    (unsigned long long)attr->sample_freq);
			return;
		}
		strbuf_addstr(sb, "the kernel refused the event attributes (too old a kernel?)");
		return;
	case ESRCH:
		strbuf_addf(sb, "no process %d", (int)pid);
		return;
	case EMFILE:
	case ENFILE:
		strbuf_addstr(sb, "too many open files: one descriptor is needed per thread and CPU; "
				  "raise the limit with 'ulimit -n'");
		return;
	case ENOSYS:
		strbuf_addstr(sb, "this kernel has no perf_event_open (built without CONFIG_PERF_EVENTS)");
		return;
	case EBUSY:
		strbuf_addstr(sb, "the event is busy (another tool holds the PMU exclusively)");
		return;
	}
	strbuf_addf(sb, "perf_event_open failed: %s", strerror(err));
}
