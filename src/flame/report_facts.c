/*
 * report_facts.c - gathers what the report shows beyond the answer: the
 * suspect's diff and the later commits that touched its function (git in
 * the private clone only), this machine's environment for the Scout
 * handoff, and the artifact files present; plus the handoff commands
 * (revert, CI guard) both report writers print.
 */
#include "flame/report_facts.h"
#include "measure/source_name.h"
#include "flame/investigation.h"
#include "flame/report.h"
#include "core/alloc.h"
#include "core/numfmt.h"
#include "core/shell_quote.h"
#include "profile/explain.h"
#include "profile/flat.h"
#include "profile/folded.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define DIFF_CAP (256 * 1024)	/* bytes of the suspect's diff shown */
#define LATER_MAX 20		/* later commits listed */

void flame_report_facts_init(struct flame_report_facts *f)
{
	memset(f, 0, sizeof(*f));
	strbuf_init(&f->culprit_diff, 0);
	strbuf_init(&f->reading, 0);
}

void flame_report_facts_release(struct flame_report_facts *f)
{
	strbuf_release(&f->culprit_diff);
	strbuf_release(&f->reading);
	string_list_clear(&f->later);
	string_list_clear(&f->env);
	string_list_clear(&f->files);
}

int flame_report_has_file(const struct flame_report_facts *f, const char *name)
{
	return string_list_has(&f->files, name);
}

static int is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* func occurs in s[0..len) as a whole identifier. */
static int names_word(const char *s, size_t len, const char *func)
{
	size_t n = strlen(func), i;

	if (!n || n > len)
		return 0;
	for (i = 0; i + n <= len; i++) {
		if (memcmp(s + i, func, n))
			continue;
		if ((i && is_word_char((unsigned char)s[i - 1])) ||
		    (i + n < len && is_word_char((unsigned char)s[i + n])))
			continue;
		return 1;
	}
	return 0;
}

int flame_report_hunk_names(const char *hunk, size_t len, const char *func)
{
	char *name;
	int hit;

	if (!func)
		return 0;
	name = flame_source_name(func);	/* "main.hash" is "hash" in the hunk */
	hit = names_word(hunk, len, name);
	free(name);
	return hit;
}

const char *flame_report_hunk_function(const struct flame_session *s, const char *hunk, size_t len)
{
	const char *fn = flame_session_named_function(s);

	if (flame_report_hunk_names(hunk, len, fn))
		return fn;
	if (flame_report_hunk_names(hunk, len, s->ans.suspects.changed_function))
		return s->ans.suspects.changed_function;
	return NULL;
}

static void add_env(struct flame_report_facts *f, const char *name, const char *value)
{
	string_list_append_nodup(&f->env, xstrfmt("%s\t%s", name, value));
}

/* The first line of path, trimmed, into the facts under name. */
static void add_file_line(struct flame_report_facts *f, const char *name, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl;

	if (!access(path, R_OK) && !strbuf_read_file(&sb, path) && sb.len) {
		nl = strchr(sb.buf, '\n');
		if (nl)
			strbuf_setlen(&sb, (size_t)(nl - sb.buf));
		add_env(f, name, sb.buf);
	}
	strbuf_release(&sb);
}

/* Files the run command names that exist, with their size: the input. */
static void add_inputs(const struct flame_session *s, struct flame_report_facts *f)
{
	struct string_list words = STRING_LIST_INIT;
	struct stat st;
	size_t i;

	if (!s->req.run_cmd)
		return;
	string_list_split(&words, s->req.run_cmd, ' ');
	for (i = 0; i < words.nr; i++) {
		const char *w = words.items[i];
		char *path;

		if (!*w || *w == '-' || strchr(w, '$'))
			continue;
		path = *w == '/' || !s->st.repo.user_top ? xstrdup(w) :
			xstrfmt("%s/%s", s->st.repo.user_top, w);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && !(st.st_mode & 0111)) {
			char *v = xstrfmt("%s: %lld bytes", w, (long long)st.st_size);

			add_env(f, "input", v);
			free(v);
		}
		free(path);
	}
	string_list_clear(&words);
}

static void gather_env(const struct flame_session *s, struct flame_report_facts *f)
{
	static const char *const vars[] = { "CC", "CXX", "CFLAGS", "CXXFLAGS", "LDFLAGS",
		"MAKEFLAGS", "LD_PRELOAD", "LD_LIBRARY_PATH", "OMP_NUM_THREADS",
		"MALLOC_ARENA_MAX", "GOMAXPROCS", "LANG", "LC_ALL", NULL };
	const char *const *v;
	struct utsname u;
	char buf[64];
	long n;

	if (!uname(&u)) {
		char *sys = xstrfmt("%s %s", u.sysname, u.machine);

		add_env(f, "kernel", u.release);
		add_env(f, "system", sys);
		free(sys);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0) {
		snprintf(buf, sizeof(buf), "%ld", n);
		add_env(f, "nproc", buf);
	}
	add_file_line(f, "load average", "/proc/loadavg");
	add_file_line(f, "cpu governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	add_file_line(f, "intel_pstate no_turbo", "/sys/devices/system/cpu/intel_pstate/no_turbo");
	add_file_line(f, "cpufreq boost", "/sys/devices/system/cpu/cpufreq/boost");
	add_file_line(f, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid");
	add_file_line(f, "transparent hugepages", "/sys/kernel/mm/transparent_hugepage/enabled");
	for (v = vars; *v; v++) {
		const char *val = getenv(*v);

		if (val)
			add_env(f, *v, val);
	}
	add_inputs(s, f);
}

static void gather_diff(const struct flame_session *s, struct flame_report_facts *f)
{
	struct flame_repo *r = (struct flame_repo *)&s->st.repo;
	const char *argv[] = { "show", "--no-color", "--stat", "-p", "--format=commit %H%nAuthor: %an <%ae>%nDate:   %aI%n%n%w(0,4,4)%B",
		s->ans.narrow.culprit_info.id, NULL };

	if (flame_git(r, &f->culprit_diff, argv) != 0) {
		strbuf_reset(&f->culprit_diff);
		return;
	}
	if (f->culprit_diff.len > DIFF_CAP) {
		char *nl = memchr(f->culprit_diff.buf + DIFF_CAP - 1, '\n',
				  f->culprit_diff.len - DIFF_CAP + 1);

		strbuf_setlen(&f->culprit_diff, nl ? (size_t)(nl - f->culprit_diff.buf + 1) : DIFF_CAP);
		f->culprit_diff_cut = 1;
	}
}

/* "id subject" lines of git log output into f->later. */
static void add_log_lines(struct flame_report_facts *f, const char *log)
{
	const char *p = log;

	while (*p && f->later.nr < LATER_MAX) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		/* git log -L prints the range's patch after each header line */
		if (len > 41 && p[40] == '\t' && strspn(p, "0123456789abcdef") == 40) {
			char *line = xstrndup(p, len);

			line[40] = ' ';
			if (!string_list_has(&f->later, line))
				string_list_append_nodup(&f->later, line);
			else
				free(line);
		}
		p += len + (nl != NULL);
	}
}

static void gather_later(const struct flame_session *s, struct flame_report_facts *f)
{
	struct flame_repo *r = (struct flame_repo *)&s->st.repo;
	const char *func = flame_session_named_function(s);
	struct strbuf range = STRBUF_INIT, out = STRBUF_INIT, spec = STRBUF_INIT;

	strbuf_addf(&range, "%s..%s", s->ans.narrow.culprit_info.id, s->ans.ends.bad);
	if (func && s->ans.suspects.def_file && s->ans.suspects.def_end) {
		/* the definition's lines (definition.h), not git's guess from the name */
		const char *argv[] = { "log", "--no-color", "--format=%H%x09%s", "-L", NULL,
				       "--end-of-options", NULL, NULL, NULL, NULL };
		struct strbuf mspec = STRBUF_INIT;

		strbuf_addf(&spec, "%u,%u:%s", s->ans.suspects.def_line, s->ans.suspects.def_end, s->ans.suspects.def_file);
		argv[4] = spec.buf;
		argv[6] = range.buf;
		if (s->ans.suspects.def_macro_file) {
			/* a macro made it: its #define's lines too */
			strbuf_addf(&mspec, "%u,%u:%s", s->ans.suspects.def_macro_line,
				    s->ans.suspects.def_macro_end, s->ans.suspects.def_macro_file);
			argv[5] = "-L";
			argv[6] = mspec.buf;
			argv[7] = "--end-of-options";
			argv[8] = range.buf;
		}
		if (flame_git(r, &out, argv) == 0) {
			add_log_lines(f, out.buf);
			f->later_by_function = 1;
			strbuf_release(&mspec);
			goto out;
		}
		strbuf_release(&mspec);
		strbuf_reset(&out);
	}
	{
		/* no function to follow: commits touching the suspect's files */
		const char *files_argv[] = { "show", "--format=", "--name-only", s->ans.narrow.culprit_info.id, NULL };
		struct string_list files = STRING_LIST_INIT;
		const char **argv;
		size_t i, n = 0;

		if (flame_git(r, &out, files_argv) != 0)
			goto out;
		string_list_split(&files, out.buf, '\n');
		argv = xcalloc(files.nr + 7, sizeof(*argv));
		argv[n++] = "log";
		argv[n++] = "--format=%H%x09%s";
		argv[n++] = "--end-of-options";
		argv[n++] = range.buf;
		argv[n++] = "--";
		for (i = 0; i < files.nr; i++)
			if (*files.items[i])
				argv[n++] = files.items[i];
		argv[n] = NULL;
		strbuf_reset(&out);
		if (n > 5 && flame_git(r, &out, argv) == 0)
			add_log_lines(f, out.buf);
		free(argv);
		string_list_clear(&files);
	}
out:
	strbuf_release(&range);
	strbuf_release(&out);
	strbuf_release(&spec);
}

static void gather_files(const struct flame_session *s, struct flame_report_facts *f)
{
	static const char *const names[] = { "diff.svg", "good.svg", "bad.svg", "good.folded",
		"bad.folded", "diff.folded", "report.json", "report.md", NULL };
	const char *const *n;
	struct stat st;

	for (n = names; *n; n++) {
		char *p = xstrfmt("%s/%s", s->req.out_dir, *n);

		if (!stat(p, &st) && S_ISREG(st.st_mode))
			string_list_append(&f->files, *n);
		free(p);
	}
}

/* trail explain of bad.folded: plateaus, towers, motifs, broken stacks. */
static void gather_reading(const struct flame_session *s, struct flame_report_facts *f)
{
	struct folded_profile p;
	struct flat_profile flat;
	struct explain_options o;
	struct explain_report r;
	char *path = xstrfmt("%s/bad.folded", s->req.out_dir);

	folded_profile_init(&p);
	if (!folded_profile_read(&p, path)) {
		flat_profile_build(&flat, &p, 1);
		if (flat.nr_stacks) {
			explain_options_init(&o);
			o.process_root = explain_guess_process_root(&flat);
			explain_profile(&r, &flat, &o);
			explain_write_text(&f->reading, &r, &flat);
			explain_report_release(&r);
		}
		flat_profile_release(&flat);
	}
	folded_profile_release(&p);
	free(path);
}

void flame_report_facts_gather(const struct flame_session *s, struct flame_report_facts *f)
{
	if (s->req.out_dir)
		gather_files(s, f);
	if (flame_report_has_file(f, "bad.folded"))
		gather_reading(s, f);
	gather_env(s, f);
	if (s->st.repo.clone && s->ans.narrow.culprit_info.subject) {
		gather_diff(s, f);
		gather_later(s, f);
	}
}

double flame_report_change(const struct flame_session *s)
{
	double good = s->ans.ends.metric_med[0], bad = s->ans.ends.metric_med[1];

	if (s->ans.ends.change != 0)
		return s->ans.ends.change;
	return good > 0 ? bad / good - 1 : 0;
}

unsigned flame_report_guard_percent(const struct flame_session *s)
{
	double change = 100 * flame_report_change(s);

	if (!(change > 0))
		return 5;
	if (change / 2 < 1)
		return 1;
	return change / 2 > 1000 ? 1000 : (unsigned)floor(change / 2);
}

void flame_report_change_text(const struct flame_session *s, struct strbuf *sb)
{
	const char *unit = flame_metric_unit(s->req.metric);
	double good = s->ans.ends.metric_med[0], bad = s->ans.ends.metric_med[1];

	strbuf_addf(sb, "The %s ", flame_metric_name(s->req.metric));
	if (s->ans.ends.change_iv.n && s->ans.ends.change != 0) {
		strbuf_addf(sb, "changed by ");
		numfmt_percent(sb, s->ans.ends.change, NUMFMT_SIGN);
		strbuf_addf(sb, " from good to bad (the paired estimate over %zu run pairs", s->ans.ends.change_iv.n);
		if (good > 0) {
			strbuf_addstr(sb, "; the medians, ");
			numfmt_value(sb, good, unit, 0);
			strbuf_addstr(sb, " and ");
			numfmt_value(sb, bad, unit, 0);
			strbuf_addstr(sb, ", differ by ");
			numfmt_percent(sb, bad / good - 1, NUMFMT_SIGN);
		}
		strbuf_addch(sb, ')');
	} else {
		strbuf_addstr(sb, "median moved ");
		numfmt_percent(sb, flame_report_change(s), NUMFMT_SIGN);
		strbuf_addstr(sb, " from good to bad (");
		numfmt_value(sb, good, unit, 0);
		strbuf_addstr(sb, " to ");
		numfmt_value(sb, bad, unit, 0);
		strbuf_addch(sb, ')');
	}
}

int flame_report_min_effect_text(const struct flame_session *s, struct strbuf *sb)
{
	const struct flame_interval *iv = &s->ans.ends.change_iv;
	double min = s->req.min_effect;

	if (!iv->n)
		return 0;
	if (s->ans.ends.exact_counts) {
		numfmt_percent(sb, iv->estimate, NUMFMT_SIGN);
		strbuf_addf(sb, " (exact counts, %zu + %zu runs alike): ", s->st.nruns[0], s->st.nruns[1]);
	} else {
		numfmt_percent_interval(sb, iv->estimate, iv->lo, iv->hi, NUMFMT_SIGN);
		strbuf_addstr(sb, " (");
		numfmt_percent(sb, 1 - iv->alpha, 0);
		strbuf_addf(sb, " interval, %zu ABBA pairs): ", iv->n);
	}
	if (flame_change_at_least(iv, min)) {
		strbuf_addstr(sb, "at least the ");
		numfmt_percent(sb, min, 0);
		strbuf_addstr(sb, " minimum");
	} else if (iv->hi < min) {
		strbuf_addstr(sb, "below the ");
		numfmt_percent(sb, min, 0);
		strbuf_addstr(sb, " minimum");
	} else if (iv->estimate >= min) {
		strbuf_addstr(sb, "it may be below the ");
		numfmt_percent(sb, min, 0);
		strbuf_addstr(sb, iv->lo > 0 ? " minimum (narrowed on its estimate; the interval's "
				  "lower end does not clear it)" : " minimum");
	} else {
		strbuf_addstr(sb, "its estimate is below the ");
		numfmt_percent(sb, min, 0);
		strbuf_addstr(sb, " minimum, the interval reaches it");
	}
	return 1;
}

void flame_report_guard_cmds(const struct flame_session *s, struct strbuf *sb)
{
	const char *run = s->req.run_cmd ? s->req.run_cmd : "./workload";

	strbuf_addstr(sb, "# on the good revision (or main), kept as a CI artifact:\n"
			  "trail bench --save-baseline base.json -- ");
	strbuf_add_shell_quoted(sb, run);
	strbuf_addf(sb, "\n# on every change; exits 3 when it is %u%% or more slower:\n"
		    "trail bench --baseline base.json --max-regression %u%% -- ",
		    flame_report_guard_percent(s), flame_report_guard_percent(s));
	strbuf_add_shell_quoted(sb, run);
	strbuf_addch(sb, '\n');
}
