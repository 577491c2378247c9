/*
 * source_name.h - the identifier a profile's function name has in the
 * source code, for git grep and git log -L: "main.hash" (Go) -> "hash",
 * "ns::Foo::bar(int) const" (C++) -> "bar", "hash.isra.0" -> "hash".
 */
#ifndef TRAIL_FLAME_SOURCE_NAME_H
#define TRAIL_FLAME_SOURCE_NAME_H

/*
 * A new string: the last identifier of frame once module prefixes,
 * annotations, compiler clone suffixes, parameter lists, template or
 * generic arguments, Go closure suffixes and package, namespace or class
 * qualifiers are dropped; a copy of frame when that leaves no plain
 * identifier (an anonymous function, an address).
 */
char *flame_source_name(const char *frame);

/* 1 when the two names are the same function in source (flame_source_name of each). */
int flame_same_source_name(const char *a, const char *b);

#endif
