/*
 * layout.c - the one-pass merge of consecutive stacks into rectangles (see
 * layout.h).  Children sit side by side in the order the stacks come; a
 * parent's self count sits where its own stacks come (first, when sorted:
 * a stack sorts before its extensions, as in flamegraph.pl).
 */
#include "flamegraph/layout.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

struct flow {
	struct fg_layout *l;
	uint32_t *open;		/* frame index of each open frame by depth; open[0] = root */
	size_t open_alloc;
	uint32_t depth;		/* deepest open frame */
	uint32_t *ends;		/* by depth: offset in the last stack where that frame ends */
	size_t ends_alloc;
	double now[2];		/* counts laid out so far, per column */
	double min[2];		/* narrowest frame kept, in counts */
	int both;
};

/* Close the open frames deeper than depth, dropping the narrow ones. */
static void close_to(struct flow *fl, uint32_t depth)
{
	struct fg_layout *l = fl->l;

	for (; fl->depth > depth; fl->depth--) {
		uint32_t k = fl->open[fl->depth];
		struct fg_frame *f = &l->frames[k];
		int keep;

		f->w[0] = fl->now[0] - f->x[0];
		f->w[1] = fl->now[1] - f->x[1];
		keep = f->w[1] > 0 && f->w[1] >= fl->min[1];
		if (fl->both && !keep)
			keep = f->w[0] > 0 && f->w[0] >= fl->min[0];
		if (!keep) {
			/* its subtree was opened after it: all of it is at the tail */
			l->nr = k;
			l->pruned++;
		}
	}
}

static void open_frame(struct flow *fl, const char *name, size_t len)
{
	struct fg_layout *l = fl->l;
	struct fg_frame *f;

	ALLOC_GROW(l->frames, (size_t)l->nr + 1, l->alloc);
	f = &l->frames[l->nr];
	f->name = name;
	f->len = (uint32_t)len;
	f->depth = ++fl->depth;
	f->x[0] = fl->now[0];
	f->x[1] = fl->now[1];
	f->w[0] = f->w[1] = f->self[0] = f->self[1] = 0;
	ALLOC_GROW(fl->open, (size_t)fl->depth + 1, fl->open_alloc);
	fl->open[fl->depth] = l->nr++;
}

void fg_layout_build(struct fg_layout *l, const struct fg_input *in,
		     const struct fg_layout_options *o)
{
	struct flow fl = { 0 };
	const struct fg_stack *prev = NULL;
	size_t i;

	memset(l, 0, sizeof(*l));
	fl.l = l;
	fl.both = o->both;
	for (int c = 0; c < 2; c++) {
		l->total[c] = in->total[c];
		l->timemax[c] = o->total > in->total[c] ? o->total : in->total[c];
		if (o->minwidth_percent)
			fl.min[c] = l->timemax[c] * o->minwidth / 100;
		else
			fl.min[c] = o->width > 0 ? o->minwidth * l->timemax[c] / o->width : 0;
	}
	ALLOC_GROW(l->frames, 1, l->alloc);
	memset(&l->frames[0], 0, sizeof(l->frames[0]));
	l->frames[0].name = "all";
	l->frames[0].len = 3;
	l->nr = 1;
	ALLOC_GROW(fl.open, 1, fl.open_alloc);
	fl.open[0] = 0;

	for (i = 0; i < in->nr; i++) {
		const struct fg_stack *st = &in->stacks[i];
		const char *s = st->s;

		/* after sorting, stacks are visited out of memory order: fetch
		 * the next ones' text ahead (profiled: cache misses dominated),
		 * from where it departs from the one before when the sort said */
		if (i + 2 < in->nr) {
			const struct fg_stack *ahead = &in->stacks[i + 2];
			uint32_t from = in->lcp ? in->lcp[i + 2] & ~63u : 0;

			for (uint32_t b = from; b < ahead->len && b < from + 512; b += 64)
				__builtin_prefetch(ahead->s + b);
		}
		size_t len = st->len, pos = 0, common = 0, limit;
		uint32_t shared = 0;
		struct fg_frame *leaf;

		/* frames shared with the previous stack stay open */
		if (prev) {
			limit = len < prev->len ? len : prev->len;
			/* the bytes the sort found shared with prev (the loop
			 * below would extend a count that fell short) */
			if (in->lcp)
				common = in->lcp[i] < limit ? in->lcp[i] : limit;
			while (common + 8 <= limit && !memcmp(s + common, prev->s + common, 8))
				common += 8;
			while (common < limit && s[common] == prev->s[common])
				common++;
			/* shared: the frames of prev that end inside the common
			 * bytes (a binary search of their ends, not a scan of
			 * hundreds of shared bytes for ';', which was a third of
			 * the layout's time on deep stacks), and the frame at the
			 * end of the common bytes if it ends there in both */
			uint32_t lo = 0, hi = fl.depth;

			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;

				if (fl.ends[mid + 1] < common)
					lo = mid + 1;
				else
					hi = mid;
			}
			shared = lo;
			pos = shared ? fl.ends[shared] + 1 : 0;
			if (len && prev->len && (common == len || s[common] == ';') &&
			    (common == prev->len || prev->s[common] == ';')) {
				shared++;
				pos = common + 1;
			}
			if (shared > fl.depth) {	/* cannot happen: prev had fl.depth frames */
				shared = 0;
				pos = 0;
			}
		}
		close_to(&fl, shared);
		while (len && pos <= len) {
			const char *semi = memchr(s + pos, ';', len - pos);
			size_t end = semi ? (size_t)(semi - s) : len;

			open_frame(&fl, s + pos, end - pos);
			ALLOC_GROW(fl.ends, (size_t)fl.depth + 1, fl.ends_alloc);
			fl.ends[fl.depth] = (uint32_t)end;
			pos = end + 1;
		}
		/* the deepest open frame is this stack's leaf (it may have been
		 * dropped and reopened: open[] indexes are only valid while open) */
		leaf = &l->frames[fl.open[fl.depth]];
		leaf->self[0] += st->count[0];
		leaf->self[1] += st->count[1];
		fl.now[0] += st->count[0];
		fl.now[1] += st->count[1];
		prev = st;
	}
	close_to(&fl, 0);
	l->frames[0].w[0] = fl.now[0];
	l->frames[0].w[1] = fl.now[1];
	for (uint32_t k = 0; k < l->nr; k++)
		if (l->frames[k].depth > l->max_depth)
			l->max_depth = l->frames[k].depth;
	free(fl.open);
	free(fl.ends);
}

void fg_layout_release(struct fg_layout *l)
{
	free(l->frames);
	memset(l, 0, sizeof(*l));
}
