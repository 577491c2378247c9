/*
 * json_profiles.h - the JSON profile formats, each read whole with
 * core/json.h and folded into a folded_profile (frames root first):
 *   - speedscope's file format (https://www.speedscope.app/file-format-schema.json),
 *     evented and sampled profiles; every profile in the file is added
 *     (evented times in seconds or milliseconds become microseconds);
 *   - Chrome/V8 .cpuprofile (node --cpu-prof, Chrome DevTools), one count
 *     per sample; the synthetic "(root)" node is not a frame;
 *   - JDK Flight Recorder events as printed by 'jfr print --json'.
 * Each fold function takes the document's bytes (not gzipped), a name
 * for messages, and returns 0 or -1 after trail_error().  The collapsers
 * (collapse_speedscope, collapse_cpuprofile, collapse_jfr) wrap them.
 */
#ifndef TRAIL_COLLAPSE_JSON_PROFILES_H
#define TRAIL_COLLAPSE_JSON_PROFILES_H

#include <stddef.h>

struct folded_profile;

/* Confidence (collapser.h's detect()) from the first bytes of an input. */
int speedscope_detect(const char *head, size_t len);
int cpuprofile_detect(const char *head, size_t len);
int jfr_json_detect(const char *head, size_t len);

int speedscope_fold(const char *text, size_t len, const char *name, struct folded_profile *out);
int cpuprofile_fold(const char *text, size_t len, const char *name, struct folded_profile *out);

/*
 * JFR: events of type event (NULL: "jdk.ExecutionSample") with a stack
 * trace; each counts its numeric "weight" value when it has one
 * (jdk.ObjectAllocationSample: bytes), else 1.  Frames are named
 * "package.Class.method" as jfr prints them.
 */
#define JFR_DEFAULT_EVENT "jdk.ExecutionSample"
int jfr_json_fold(const char *text, size_t len, const char *name, const char *event,
		  struct folded_profile *out);

#endif
