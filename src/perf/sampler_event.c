/*
 * sampler_event.c - what the sampler knows about perf events that is not
 * the run itself: the event names -e takes, kernel.perf_event_paranoid,
 * and perf_event_open failures turned into messages that tell the user the
 * fix.  (Records are decoded by perf_event.c, for files and live alike.)
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
