/*
 * fuzz_flame_hosts.c - libFuzzer target for trail flame's hosts file
 * (src/fleet/hosts.c, GNU parallel's --sshloginfile syntax) and the probe
 * results a host sends back (src/flame/probe_json.c): any input must parse
 * or fail with file:line, never crash, leak or read out of bounds.  The
 * first half of the input is a hosts file, all of it the probe output.
 * Error messages go to stderr; run with -close_fd_mask=2 to silence them.
 */
#include "fleet/hosts.h"
#include "flame/probe_json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct flame_hosts h = FLAME_HOSTS_INIT;
	struct flame_probe_result *res = NULL;
	size_t nres = 0, i;
	unsigned slots = 0;

	if (!flame_hosts_parse((const char *)data, size, "fuzz", &h)) {
		for (i = 0; i < h.nr; i++) {
			slots += h.items[i].slots;
			if (!h.items[i].name || (h.items[i].dest && !h.items[i].ssh.nr))
				abort();
		}
		if (slots != h.slots)
			abort();
	}
	flame_hosts_release(&h);
	if (!flame_probe_json_read((const char *)data, size, "fuzz", &res, &nres))
		for (i = 0; i < nres; i++)
			if (strlen(res[i].id) != 40)
				abort();
	free(res);
	return 0;
}
