/*
 * remote.c - command lines and shell scripts of the ssh transport (see
 * remote.h).  Every word that came from the user or the repository is
 * quoted with core/shell_quote; the scripts are POSIX sh, so a host needs
 * only sh, git, mktemp, setsid (util-linux) and trail.
 */
#include "fleet/remote.h"
#include "core/alloc.h"
#include "core/shell_quote.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

void flame_remote_argv(const struct flame_host *h, const char *cpus, const char *script,
		       struct string_list *argv)
{
	static const char *const ssh_opts[] = {
		"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o",
		"ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", NULL
	};
	const char *const *o;
	size_t i;

	if (!h->dest) {
		if (cpus) {
			string_list_append(argv, "taskset");
			string_list_append(argv, "-c");
			string_list_append(argv, cpus);
		}
		string_list_append(argv, "sh");
		string_list_append(argv, "-c");
		string_list_append(argv, script);
		return;
	}
	for (i = 0; i < h->ssh.nr; i++)
		string_list_append(argv, h->ssh.items[i]);
	for (o = ssh_opts; *o; o++)
		string_list_append(argv, *o);
	string_list_append(argv, "--");
	string_list_append(argv, h->dest);
	{
		/* the remote login shell may not be sh: hand it one quoted sh -c */
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "exec sh -c ");
		strbuf_add_shell_quoted(&sb, script);
		string_list_append_nodup(argv, strbuf_detach(&sb, NULL));
	}
}

char *flame_remote_setup_script(const char *key, const char *url, const char *bad,
				const char *trail)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "set -e\nc=" FLAME_REMOTE_CACHE "/");
	strbuf_add_shell_quoted(&sb, key);
	strbuf_addstr(&sb, "\nt=");
	strbuf_add_shell_quoted(&sb, trail);
	strbuf_addstr(&sb,
		"\ncommand -v git >/dev/null || { echo \"git is not installed here\" >&2; exit 3; }\n"
		"command -v \"$t\" >/dev/null || { echo \"'$t' is not on the PATH here "
		"(--remote-trail PATH)\" >&2; exit 3; }\n"
		"command -v setsid >/dev/null || { echo \"setsid (util-linux) is not installed here\" >&2; exit 3; }\n"
		"mkdir -p \"$c\"\n"
		"d=$(mktemp -d \"${TMPDIR:-/tmp}/trail-flame.XXXXXX\")\n"
		"trap 'rm -rf \"$d\"' EXIT\n"
		"trap 'exit 141' PIPE HUP TERM\n"
		"echo \"trail-flame-dir $d\" >&2\n"
		"[ -d \"$c/clone/.git\" ] || git init -q \"$c/clone\"\n");
	if (url) {
		strbuf_addstr(&sb, "git -C \"$c/clone\" fetch -q ");
		strbuf_add_shell_quoted(&sb, url);
		strbuf_addstr(&sb, " '+refs/*:refs/remotes/trail/*'\n");
	} else {
		strbuf_addstr(&sb, "cat >\"$d/range.bundle\"\n"
			      "git -C \"$c/clone\" fetch -q \"$d/range.bundle\" "
			      "'+refs/*:refs/remotes/trail/*'\n");
	}
	strbuf_addstr(&sb, "git -C \"$c/clone\" cat-file -e ");
	strbuf_add_shell_quoted(&sb, bad);
	strbuf_addstr(&sb, "'^{commit}' || { echo \"the bad commit did not arrive\" >&2; exit 3; }\n"
		      "echo \"trail-flame-clone $c/clone\"\n"
		      "echo \"trail-flame-nproc $(nproc 2>/dev/null || echo 1)\"\n");
	return strbuf_detach(&sb, NULL);
}

char *flame_remote_probe_script(const struct string_list *cmds)
{
	struct strbuf sb = STRBUF_INIT, inner = STRBUF_INIT;
	size_t i;

	for (i = 0; i < cmds->nr; i++) {
		strbuf_addstr(&inner, cmds->items[i]);
		strbuf_addch(&inner, '\n');
	}
	/*
	 * fd 3 keeps the session's stdin for the watcher (an asynchronous
	 * list's stdin is /dev/null otherwise); setsid gives the probes a
	 * process group of their own to kill at its EOF.  Nothing is written
	 * to the connection before the watcher runs, and a write to a
	 * dropped one (SIGPIPE, trapped, not ignored: the probes must not
	 * inherit an ignored SIGPIPE) removes the directory too.
	 */
	strbuf_addstr(&sb,
		"d=$(mktemp -d \"${TMPDIR:-/tmp}/trail-flame.XXXXXX\") || exit 255\n"
		"trap 'rm -rf \"$d\"; exit 141' PIPE HUP TERM\n"
		"exec 3<&0\n"
		"TRAIL_DIR=$d TMPDIR=$d setsid sh -c ");
	strbuf_add_shell_quoted(&sb, inner.buf);
	strbuf_addstr(&sb,
		" </dev/null >\"$d/out\" 2>\"$d/err\" &\n"
		"p=$!\n"
		"{ cat <&3 >/dev/null; kill -TERM -$p; sleep 2; kill -KILL -$p; rm -rf \"$d\"; } "
		">/dev/null 2>&1 &\n"
		"w=$!\n"
		"exec 3<&-\n"
		"echo \"trail-flame-dir $d\" >&2\n"
		"wait $p\n"
		"rc=$?\n"
		"cat \"$d/err\" >&2\n"
		"cat \"$d/out\"\n"
		"kill $w 2>/dev/null\n"
		"rm -rf \"$d\"\n"
		"exit $rc\n");
	strbuf_release(&inner);
	return strbuf_detach(&sb, NULL);
}

char *flame_remote_clean_script(const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "c=" FLAME_REMOTE_CACHE "\n");
	if (key) {
		strbuf_addstr(&sb, "c=\"$c\"/");
		strbuf_add_shell_quoted(&sb, key);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, "if [ -d \"$c\" ]; then rm -rf \"$c\" && echo \"removed $c\"; "
		      "else echo \"nothing to remove ($c)\"; fi\n");
	return strbuf_detach(&sb, NULL);
}
