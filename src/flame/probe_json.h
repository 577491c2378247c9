/*
 * probe_json.h - one probe's result as a line of JSON: what 'trail flame
 * probe --json' prints on a build host and what trail flame --hosts reads
 * back over ssh (fleet.c).  One object a line, so several probes run by
 * one ssh command come back as several lines.
 */
#ifndef TRAIL_FLAME_PROBE_JSON_H
#define TRAIL_FLAME_PROBE_JSON_H

#include "core/strbuf.h"
#include "flame/probe.h"

/*
 * {"commit","verdict","value","share","se","runs","cached_build",
 * "seconds","why","build_failed"} and a newline, appended to sb.
 */
void flame_probe_json_write(struct strbuf *sb, const struct flame_probe_result *r);

/*
 * Parse every line of text that starts with '{' (others are ignored) into
 * *out (caller frees; *nr results).  name prefixes errors ("name:line:
 * ...").  0, or -1 after trail_error() for a line that is not such an
 * object.
 */
int flame_probe_json_read(const char *text, size_t len, const char *name,
			  struct flame_probe_result **out, size_t *nr);

/* The skip was a failed build (which another machine may not share). */
int flame_probe_build_failed(const struct flame_probe_result *r);

#endif
