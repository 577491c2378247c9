/*
 * remote.h - the ssh transport of trail flame --hosts: the command lines
 * that run a shell script on a build host over plain ssh (BatchMode, no
 * tty) or on this machine, and the scripts themselves: set a host up
 * (fetch the range into its build cache from a git bundle on stdin or from
 * --remote-repo), run probes in a private directory that is removed
 * afterwards, clean the build cache (--clean-hosts).  Nothing here runs
 * anything: fleet.c starts the children.
 *
 * On a host, trail keeps only its build cache:
 * ${XDG_CACHE_HOME:-$HOME/.cache}/trail/flame-hosts/<key>/{clone,builds}.
 */
#ifndef TRAIL_FLAME_REMOTE_H
#define TRAIL_FLAME_REMOTE_H

#include "core/string_list.h"
#include "fleet/hosts.h"

/* The build caches' home on a host, as a shell word list ("$HOME" expands there). */
#define FLAME_REMOTE_CACHE "\"${XDG_CACHE_HOME:-$HOME/.cache}/trail/flame-hosts\""

/*
 * argv that runs script with sh on host h: "ssh [its options] -T -o
 * BatchMode=yes -o ConnectTimeout=15 -o ServerAliveInterval=5 dest 'sh -c
 * SCRIPT'", or for the local machine "sh -c SCRIPT", prefixed with
 * "taskset -c CPUS" when cpus is not NULL.
 */
void flame_remote_argv(const struct flame_host *h, const char *cpus, const char *script,
		       struct string_list *argv);

/*
 * Set a host up for repository key (a name safe in a path): check that git
 * and trail are there, create the cache clone and fetch into it, from the
 * git bundle on stdin, or from url when it is not NULL; check that bad is
 * there.  Prints "trail-flame-clone PATH" and "trail-flame-nproc N" on
 * stdout, "trail-flame-dir DIR" (its private directory, removed at its
 * exit) on stderr.  Malloc'd.
 */
char *flame_remote_setup_script(const char *key, const char *url, const char *bad,
				const char *trail);

/*
 * Run cmds (each a whole command line, already quoted for sh) one after
 * another in a private directory (mktemp -d, also their TMPDIR) that is
 * removed afterwards, their stdout (the probes' JSON lines) printed then.
 * Its stdin must stay open while they run: at EOF (trail was interrupted or
 * the connection dropped) the commands' process group is killed and the
 * directory removed.  Prints "trail-flame-dir DIR" on stderr first.
 * Malloc'd.
 */
char *flame_remote_probe_script(const struct string_list *cmds);

/* Remove the build cache of key on a host (NULL: every repository's). */
char *flame_remote_clean_script(const char *key);

#endif
