/*
 * git_rev.h - the one door from trail to git for every revision, range and
 * URL a user gives (--rev, --range, --commit, --good, --bad, --remote-repo):
 * a spelling git could read as an option ("--output=FILE", "--all", "-n1",
 * "--exec=...") is refused here, naming the option it came in, and what
 * passes is resolved with rev-parse --verify --end-of-options to full ids.
 * Nothing a user typed reaches any other git command line.
 */
#ifndef TRAIL_CORE_GIT_REV_H
#define TRAIL_CORE_GIT_REV_H

#include <stddef.h>

/* Longest revision or range accepted, in bytes. */
#define GIT_REV_MAX 1024

/*
 * Whether rev can be one revision: not empty, not starting with '-', no
 * control characters, at most GIT_REV_MAX bytes.  0, or -1 with an error
 * "OPT 'REV': why" (opt: the option it came in, e.g. "--rev").
 */
int git_rev_check(const char *opt, const char *rev);

/*
 * Split a range "A..B", "A.." (A..HEAD), "..B" (HEAD..B) or "B" into its
 * ends, each checked with git_rev_check: *from (NULL for "B") and *to are
 * new strings the caller frees.  "A...B" and more than one ".." are
 * refused.  0, or -1 with an error naming opt.  No git is run.
 */
int git_range_split(const char *opt, const char *spec, char **from, char **to);

/* rev as a full commit id in the repository at dir (rev-parse --verify).  0 or -1. */
int git_rev_resolve(const char *dir, const char *opt, const char *rev, char id[41]);

/* A range resolved to full ids: the commits reachable from to, not from from. */
struct git_range {
	char from[41];		/* "" when the range has no lower end */
	char to[41];
};
int git_range_resolve(const char *dir, const char *opt, const char *spec, struct git_range *r);

/*
 * A repository URL or path given to git fetch/clone: not empty, not
 * starting with '-', no control characters.  0 or -1 (error names opt).
 */
int git_url_check(const char *opt, const char *url);

#endif
