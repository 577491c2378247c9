/*
 * hosts.h - the machines trail flame may probe on, read from a file in GNU
 * parallel's --sshloginfile syntax so an existing sshloginfile works as it
 * is: one login a line, "[N/]host", "[N/]user@host", "[N/]ssh -p 2222
 * user@host" (an ssh command with its options), ":" for this machine; N is
 * the number of probes the machine runs at once (default 1); blank lines
 * and lines starting with '#' are ignored.
 */
#ifndef TRAIL_FLAME_HOSTS_H
#define TRAIL_FLAME_HOSTS_H

#include <stddef.h>

#include "core/string_list.h"

struct flame_host {
	char *name;			/* for messages and report.json: "user@host -p 2222", "local" */
	char *dest;			/* [user@]host given to ssh; NULL for the local machine */
	struct string_list ssh;		/* the ssh command and its options ("ssh", "-p", "2222") */
	unsigned slots;			/* probes at once */
	unsigned line;			/* line of the hosts file */
};

struct flame_hosts {
	struct flame_host *items;
	size_t nr, alloc;
	unsigned slots;			/* sum over the hosts */
};

#define FLAME_HOSTS_INIT { NULL, 0, 0, 0 }

/*
 * Parse text[0..len-1] (the file's contents; name prefixes errors as
 * "name:line: ...") and append its hosts to out.  0, or -1 after
 * trail_error() for a bad line (out then holds the hosts before it).
 */
int flame_hosts_parse(const char *text, size_t len, const char *name, struct flame_hosts *out);
/* Read and parse path; an empty list is an error too.  0 or -1. */
int flame_hosts_read(const char *path, struct flame_hosts *out);
/* Add the local machine with slots probes at once (--jobs). */
void flame_hosts_add_local(struct flame_hosts *h, unsigned slots);
void flame_hosts_release(struct flame_hosts *h);

#endif
