/*
 * profile_file.c - collapse_profile_file() (profile_formats.h): one
 * profiler output file in whatever format it is, guessed among every
 * collapser (formats.c), folded into a profile.
 */
#include "collapse/profile_formats.h"
#include "collapse/collapser.h"
#include "core/error.h"
#include "profile/fold.h"
#include "profile/folded.h"

#include <string.h>

int collapse_profile_file(const char *path, const char *sample_type, struct folded_profile *p)
{
	struct collapse_session s;
	struct collapse_input in;
	struct fold_options fo;
	const struct collapser *c;
	int ret = -1;

	if (collapse_input_open(&in, path) < 0)
		return -1;
	memset(&fo, 0, sizeof(fo));
	collapse_session_init(&s, &fo);
	s.opts.sample_type = sample_type;
	c = collapse_guess(in.head, in.head_len, NULL);
	if (!c) {
		trail_error("cannot tell the format of the profile '%s' (trail collapse --format list)",
		      path);
		goto out;
	}
	if (c->read(&s, &in, s.folders[0]) < 0)
		goto out;
	/* the stacks folder_write() would print, without the text */
	folder_to_profile(s.folders, s.nr_folders, p);
	ret = 0;
out:
	collapse_session_release(&s);
	collapse_input_close(&in);
	return ret;
}
