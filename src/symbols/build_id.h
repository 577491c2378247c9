/*
 * build_id.h - reading GNU build-ids (the NT_GNU_BUILD_ID note the linker
 * puts in .note.gnu.build-id): from an open ELF, from a file, from our own
 * vdso image, and from the running kernel's notes (/sys/kernel/notes).
 * perf matches recorded modules to binaries by these ids.
 */
#ifndef TRAIL_SYMBOLS_BUILD_ID_H
#define TRAIL_SYMBOLS_BUILD_ID_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_MAX 20		/* bytes: a sha1; longer ids are cut, as perf does */

/*
 * Each function fills out[] with the id and *size with its length in
 * bytes (at most BUILD_ID_MAX) and returns 0, or returns -1 without a
 * message when there is no id (no such note, not ELF, file unreadable):
 * a module without a build-id is normal, not an error.
 */
int build_id_from_elf(Elf *elf, uint8_t out[BUILD_ID_MAX], size_t *size);
int build_id_of_file(const char *path, uint8_t out[BUILD_ID_MAX], size_t *size);
/* The vdso of this process: the same image the kernel maps into every process. */
int build_id_of_vdso(uint8_t out[BUILD_ID_MAX], size_t *size);
/*
 * This process's vdso image as an ELF to read in place (elf_end() it), or
 * NULL.  perf reads its own vdso for every recorded process's [vdso]; so
 * does trail.
 */
Elf *vdso_elf_open(void);
/* The running kernel's: notes_path is normally "/sys/kernel/notes". */
int build_id_of_kernel(const char *notes_path, uint8_t out[BUILD_ID_MAX], size_t *size);
/*
 * Search a raw sequence of ELF notes (the format of /sys/kernel/notes and
 * of PT_NOTE segments: 4-byte namesz, descsz, type; name and desc each
 * padded to 4 bytes) for the GNU build-id.  Exposed for tests.
 */
int build_id_from_notes(const void *notes, size_t len, uint8_t out[BUILD_ID_MAX], size_t *size);

/* Lower-case hex of id, NUL-terminated (out holds 2 * BUILD_ID_MAX + 1). */
void build_id_hex(const uint8_t *id, size_t size, char out[2 * BUILD_ID_MAX + 1]);

#endif
