/*
 * preload_image.c - one image's record as a whole: starting it (a new
 * file, and the tables whose ids are per file emptied), completing it
 * (the folded sites at interval 1, then the maps and the END record) and
 * starting over in a copy of the process made without fork handlers.
 * Above the file (preload_out.c) and the tables (preload_table.c,
 * preload_fold.c), below the sampling that checks for a copy.
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc/preload.h"

void image_open_locked(void)
{
	if (!open_file_locked())
		return;
	stacks_reset_locked();	/* ids are per file */
	fold_reset_locked();
}

void image_close_locked(void)
{
	/* enabled means the file is open: close_file_locked() would write to it */
	if (enabled && interval <= 1)
		fold_write_locked();
	close_file_locked();
}

/*
 * This process is a copy of the one the state describes: only the thread
 * that made the copy exists, the lock may be a copy of one held, the
 * buffer holds the parent's records and the sampled blocks are the
 * parent's.  Start over with a file of its own.
 */
void copy_adopt(void)
{
	pthread_mutex_init(&lock, NULL);
	if (copy_mark)
		*copy_mark = 1;
	forget_file();
	set_clear();
	t_tid = (pid_t)syscall(SYS_gettid);
	t_left = draw_interval();
	if (dir[0]) {
		image_open_locked();
		write_maps_locked();
	}
}
