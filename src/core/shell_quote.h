/*
 * shell_quote.h - the one way trail writes a command line for a POSIX
 * shell (the "reproduce" lines of reports, the command as typed): a word
 * of safe characters stays as it is, anything else goes in single quotes
 * with each ' written as '\''.  sh reads the result back into the same
 * words.
 */
#ifndef TRAIL_CORE_SHELL_QUOTE_H
#define TRAIL_CORE_SHELL_QUOTE_H

#include "core/strbuf.h"

/* Append word, quoted when the shell would otherwise change it. */
void strbuf_add_shell_quoted(struct strbuf *sb, const char *word);
/* Append the NULL-terminated argv, words separated by one space. */
void strbuf_add_shell_argv(struct strbuf *sb, const char *const *argv);
/*
 * Append "NAME=VALUE " (VALUE quoted) for each of the NULL-terminated
 * names that is set in this process's environment: variables that travel
 * in front of a command run elsewhere (over ssh).
 */
void strbuf_add_env_assignments(struct strbuf *sb, const char *const *names);

#endif
