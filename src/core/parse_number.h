/*
 * parse_number.h - strict number parsing: the whole string must be the
 * number (no leading blanks, no trailing junk), no sign where none is
 * allowed, no overflow.  Never use atoi/strtol directly elsewhere.
 *
 * Each function returns 0 on success, -1 on a malformed value (without
 * printing: the caller knows what the value was for and says so).
 */
#ifndef TRAIL_CORE_PARSE_NUMBER_H
#define TRAIL_CORE_PARSE_NUMBER_H

#include <stddef.h>
#include <stdint.h>

int parse_u64(const char *s, uint64_t *out);
int parse_i64(const char *s, int64_t *out);
/* Digits only, from a buffer of len bytes (for parsers of text lines). */
int parse_u64_n(const char *s, size_t len, uint64_t *out);
/* Hexadecimal, with or without a 0x prefix. */
int parse_hex_u64_n(const char *s, size_t len, uint64_t *out);
/* A finite decimal number ("1", "0.25", "1e3"); no inf or nan. */
int parse_double(const char *s, double *out);
int parse_double_n(const char *s, size_t len, double *out);
/* A non-negative number with an optional % suffix; *is_percent says which. */
int parse_amount_or_percent(const char *s, double *out, int *is_percent);
/* A duration: a number with an optional unit s, ms, us, m (default s). */
int parse_seconds(const char *s, double *seconds);

#endif
