/*
 * explain.c - plateaus, towers, repeated motifs and broken stacks of a
 * flat profile (the rules and thresholds are in explain.h and
 * docs/explain.md).  Every pass is linear in the number of frames (plus
 * sorting the lists it prints).
 */
#include "profile/explain.h"
#include "core/alloc.h"
#include "core/json_writer.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* The "what to do" line of each section. */
static const char explain_advice_plateaus[] =
	"the time is spent in these functions' own code: make their bodies cheaper "
	"(algorithm, data layout, memory access) or call them less; 'trail top --sort self' lists all";
static const char explain_advice_towers[] =
	"deep chains cost calls and unwinding: look for recursion that could be a loop and for "
	"layers of thin wrappers; with -g dwarf, stacks deeper than the copied stack are cut "
	"(raise the size: -g dwarf,16384)";
static const char explain_advice_motifs[] =
	"the same work reached from many callers: cache or memoise its result, hoist it out of "
	"loops, or inline/specialise it at the heaviest call site";
static const char explain_advice_broken[] =
	"the unwinder lost the stack: record with -g dwarf (trail record -g dwarf, perf record "
	"--call-graph dwarf), build with -fno-omit-frame-pointer, and install debug symbols "
	"(-dbgsym packages, debuginfod) for [unknown] frames";

static const char explain_advice_nosyms[] =
	"install its debug symbols (Debian: the -dbgsym package, or debuginfod) or build it "
	"with -g and do not strip it; until then its time cannot be split into functions";

void explain_options_init(struct explain_options *o)
{
	memset(o, 0, sizeof(*o));
	o->plateau_share = 0.05;
	o->tower_factor = 2;
	o->tower_min_depth = 16;
	o->motif_callers = 3;
	o->motif_share = 0.01;
	o->broken_share = 0.05;
	o->limit = 5;
}

int explain_guess_process_root(const struct flat_profile *f)
{
	unsigned char *is_root;
	size_t i;
	uint32_t k;
	int ok = f->nr_stacks > 0;

	is_root = xcalloc(f->names.nr ? f->names.nr : 1, 1);
	for (i = 0; ok && i < f->nr_stacks; i++) {
		if (f->stacks[i].depth < 2)
			ok = 0;
		else
			is_root[flat_stack_frames(f, &f->stacks[i])[0]] = 1;
	}
	for (i = 0; ok && i < f->nr_stacks; i++) {
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[i]);

		for (k = 1; k < f->stacks[i].depth; k++)
			if (is_root[fr[k]]) {
				ok = 0;
				break;
			}
	}
	free(is_root);
	return ok;
}

/* qsort has no context argument: the comparators read this. */
static const struct flat_profile *cmp_profile;

static int cmp_names(uint32_t a, uint32_t b)
{
	const struct intern *t = &cmp_profile->names;
	size_t la = intern_len(t, a), lb = intern_len(t, b);
	int c = memcmp(intern_str(t, a), intern_str(t, b), la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static int cmp_plateau(const void *pa, const void *pb)
{
	const struct explain_plateau *a = pa, *b = pb;

	if (a->self != b->self)
		return (a->self < b->self) - (a->self > b->self);
	return cmp_names(a->func, b->func);
}

static int cmp_tower(const void *pa, const void *pb)
{
	const struct explain_tower *a = pa, *b = pb;

	if (a->depth != b->depth)
		return (a->depth < b->depth) - (a->depth > b->depth);
	if (a->count != b->count)
		return (a->count < b->count) - (a->count > b->count);
	return (a->stack > b->stack) - (a->stack < b->stack);
}

static int cmp_motif(const void *pa, const void *pb)
{
	const struct explain_motif *a = pa, *b = pb;

	if (a->total != b->total)
		return (a->total < b->total) - (a->total > b->total);
	if (a->callers != b->callers)
		return (a->callers < b->callers) - (a->callers > b->callers);
	return cmp_names(a->func, b->func);
}

static int cmp_depth(const void *pa, const void *pb)
{
	const struct flat_stack *st = cmp_profile->stacks;
	uint32_t da = st[*(const size_t *)pa].depth, db = st[*(const size_t *)pb].depth;

	return (da > db) - (da < db);
}

static void depths(struct explain_report *r, const struct flat_profile *f)
{
	size_t *order = xcalloc(f->nr_stacks ? f->nr_stacks : 1, sizeof(*order));
	double acc = 0;
	size_t i;
	int have50 = 0, have90 = 0;

	for (i = 0; i < f->nr_stacks; i++)
		order[i] = i;
	qsort(order, f->nr_stacks, sizeof(*order), cmp_depth);
	for (i = 0; i < f->nr_stacks; i++) {
		const struct flat_stack *s = &f->stacks[order[i]];

		acc += s->count;
		if (!have50 && acc >= 0.5 * f->total) {
			r->depth_p50 = s->depth;
			have50 = 1;
		}
		if (!have90 && acc >= 0.9 * f->total) {
			r->depth_p90 = s->depth;
			have90 = 1;
		}
		r->depth_max = s->depth;
	}
	free(order);
}

static void towers(struct explain_report *r, const struct flat_profile *f)
{
	const struct explain_options *o = &r->opts;
	double want = o->tower_factor * r->depth_p50;
	uint32_t *occ = xcalloc(f->names.nr ? f->names.nr : 1, sizeof(*occ));
	size_t i, alloc = 0;

	r->tower_depth = want > o->tower_min_depth ? (uint32_t)(want + 0.999999) : o->tower_min_depth;
	for (i = 0; i < f->nr_stacks; i++) {
		const struct flat_stack *s = &f->stacks[i];

		if (s->depth < r->tower_depth)
			continue;
		r->tower_samples += s->count;
		ALLOC_GROW(r->towers, r->nr_towers + 1, alloc);
		r->towers[r->nr_towers].stack = i;
		r->towers[r->nr_towers].depth = s->depth;
		r->towers[r->nr_towers].count = s->count;
		r->towers[r->nr_towers].repeats = 0;
		r->towers[r->nr_towers].repeated = flat_stack_frames(f, s)[0];
		r->nr_towers++;
	}
	r->nr_tower_stacks = r->nr_towers;
	if (r->nr_towers > 1)
		qsort(r->towers, r->nr_towers, sizeof(*r->towers), cmp_tower);
	if (r->nr_towers > o->limit)
		r->nr_towers = o->limit;
	for (i = 0; i < r->nr_towers; i++) {
		struct explain_tower *t = &r->towers[i];
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[t->stack]);
		uint32_t k;

		for (k = 0; k < t->depth; k++) {
			uint32_t n = ++occ[fr[k]];

			if (n > t->repeats || (n == t->repeats && cmp_names(fr[k], t->repeated) < 0)) {
				t->repeats = n;
				t->repeated = fr[k];
			}
		}
		for (k = 0; k < t->depth; k++)
			occ[fr[k]] = 0;
	}
	free(occ);
}

/*
 * Distinct callers per function without a hash table: every caller->callee
 * occurrence is bucketed by callee (a counting sort, in stack order), then
 * each bucket is walked with per-caller stamps, so the work is linear in
 * the number of frames whatever the number of distinct edges.
 */
static void motifs(struct explain_report *r, const struct flat_profile *f)
{
	uint32_t nr = f->names.nr ? f->names.nr : 1, from = r->opts.process_root ? 2 : 1;
	size_t *start = xcalloc((size_t)nr + 1, sizeof(*start));
	uint32_t *caller, *stack;	/* per occurrence, bucketed by callee */
	uint32_t *stamp = xcalloc(nr, sizeof(*stamp));	/* 1 + callee last seen */
	uint32_t *last = xcalloc(nr, sizeof(*last));	/* 1 + stack last counted */
	double *weight = xcalloc(nr, sizeof(*weight));	/* samples through a caller */
	size_t i, pos, alloc = 0, n = 0, total = 0;
	uint32_t c, k;

	for (i = 0; i < f->nr_stacks; i++) {
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[i]);

		for (k = from; k < f->stacks[i].depth; k++)
			if (fr[k - 1] != fr[k]) {
				start[fr[k] + 1]++;
				total++;
			}
	}
	for (c = 0; c < nr; c++)
		start[c + 1] += start[c];
	caller = xcalloc(total ? total : 1, sizeof(*caller));
	stack = xcalloc(total ? total : 1, sizeof(*stack));
	for (i = 0; i < f->nr_stacks; i++) {
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[i]);

		for (k = from; k < f->stacks[i].depth; k++)
			if (fr[k - 1] != fr[k]) {
				pos = start[fr[k]]++;
				caller[pos] = fr[k - 1];
				stack[pos] = (uint32_t)i;
			}
	}
	/* start[c] is now the end of c's bucket, and the beginning of c + 1's */
	for (c = 0; c < f->names.nr; c++) {
		size_t begin = c ? start[c - 1] : 0, end = start[c];
		uint32_t callers = 0, top = 0;
		double top_w = -1;

		if (f->funcs[c].total < r->opts.motif_share * f->total)
			continue;
		for (pos = begin; pos < end; pos++) {
			uint32_t p = caller[pos];

			if (stamp[p] != c + 1) {
				stamp[p] = c + 1;
				last[p] = 0;
				weight[p] = 0;
				callers++;
			}
			if (last[p] != stack[pos] + 1) {
				last[p] = stack[pos] + 1;
				weight[p] += f->stacks[stack[pos]].count;
			}
		}
		if (callers < r->opts.motif_callers)
			continue;
		for (pos = begin; pos < end; pos++) {
			uint32_t p = caller[pos];

			if (weight[p] > top_w || (weight[p] == top_w && cmp_names(p, top) < 0)) {
				top_w = weight[p];
				top = p;
			}
		}
		ALLOC_GROW(r->motifs, n + 1, alloc);
		r->motifs[n].func = c;
		r->motifs[n].callers = callers;
		r->motifs[n].top_caller = top;
		r->motifs[n].top_caller_count = top_w;
		r->motifs[n].total = f->funcs[c].total;
		n++;
	}
	if (n > 1)
		qsort(r->motifs, n, sizeof(*r->motifs), cmp_motif);
	r->nr_motifs = n;
	free(start);
	free(caller);
	free(stack);
	free(stamp);
	free(last);
	free(weight);
}

static int is_unknown(const struct flat_profile *f, uint32_t id)
{
	return intern_len(&f->names, id) >= 9 && !memcmp(intern_str(&f->names, id), "[unknown]", 9);
}

/* Whether a frame name is "[module]": an address in a module without symbols. */
static int explain_is_module_frame(const char *name, size_t len)
{
	return len > 2 && name[0] == '[' && name[len - 1] == ']' &&
	       !memchr(name + 1, '[', len - 2) &&
	       !(len == 9 && !memcmp(name, "[unknown]", 9)) &&
	       !(len == 9 && !memcmp(name, "[process]", 9));
}

static int is_module(const struct flat_profile *f, uint32_t id)
{
	return explain_is_module_frame(intern_str(&f->names, id), intern_len(&f->names, id));
}

/* Per stack: an [unknown] frame (1), a [module] frame (2), either (3). */
static void broken(struct explain_report *r, const struct flat_profile *f)
{
	unsigned char *kind = xcalloc(f->names.nr ? f->names.nr : 1, 1);
	uint32_t k, skip = r->opts.process_root ? 1 : 0;
	size_t i;

	for (k = 0; k < f->names.nr; k++)
		kind[k] = (unsigned char)(is_unknown(f, k) | (is_module(f, k) << 1));
	for (i = 0; i < f->nr_stacks; i++) {
		const struct flat_stack *s = &f->stacks[i];
		const uint32_t *fr = flat_stack_frames(f, s);
		int u = 0, single = s->depth <= skip + 1;

		for (k = skip; k < s->depth; k++)
			u |= kind[fr[k]];
		if (u & 1)
			r->unknown += s->count;
		if (u & 2)
			r->nosym += s->count;
		if (single)
			r->single += s->count;
		if (u || single)
			r->broken += s->count;
	}
	free(kind);
}

void explain_profile(struct explain_report *r, const struct flat_profile *f,
		     const struct explain_options *o)
{
	size_t alloc = 0, nosyms_alloc = 0;
	uint32_t k;

	memset(r, 0, sizeof(*r));
	r->opts = *o;
	r->total = f->total;
	cmp_profile = f;
	for (k = 0; k < f->names.nr; k++) {
		if (!(f->funcs[k].self > 0))
			continue;
		if (is_module(f, k)) {
			/* not a function: its time is a module's without symbols */
			ALLOC_GROW(r->nosyms, r->nr_nosyms + 1, nosyms_alloc);
			r->nosyms[r->nr_nosyms].func = k;
			r->nosyms[r->nr_nosyms++].self = f->funcs[k].self;
			continue;
		}
		if (f->funcs[k].self < o->plateau_share * f->total)
			continue;
		ALLOC_GROW(r->plateaus, r->nr_plateaus + 1, alloc);
		r->plateaus[r->nr_plateaus].func = k;
		r->plateaus[r->nr_plateaus].self = f->funcs[k].self;
		r->nr_plateaus++;
	}
	if (r->nr_plateaus > 1)
		qsort(r->plateaus, r->nr_plateaus, sizeof(*r->plateaus), cmp_plateau);
	if (r->nr_nosyms > 1)
		qsort(r->nosyms, r->nr_nosyms, sizeof(*r->nosyms), cmp_plateau);
	depths(r, f);
	towers(r, f);
	motifs(r, f);
	broken(r, f);
}

void explain_report_release(struct explain_report *r)
{
	free(r->plateaus);
	free(r->nosyms);
	free(r->towers);
	free(r->motifs);
	memset(r, 0, sizeof(*r));
}

static double pct(const struct explain_report *r, double v)
{
	return r->total > 0 ? 100 * v / r->total : 0;
}

/* Names come from the profile: escaped for the terminal, as trail diff --top does. */
static void add_name(struct strbuf *out, const struct flat_profile *f, uint32_t id)
{
	escape_term(out, intern_str(&f->names, id), intern_len(&f->names, id));
}

static size_t shown(size_t n, size_t limit)
{
	return n < limit ? n : limit;
}

void explain_write_text(struct strbuf *out, const struct explain_report *r,
			const struct flat_profile *f)
{
	const struct explain_options *o = &r->opts;
	size_t i;

	strbuf_addf(out, "wide plateaus: functions with at least %g%% self share\n",
		    100 * o->plateau_share);
	for (i = 0; i < shown(r->nr_plateaus, o->limit); i++) {
		strbuf_addf(out, "    %6.2f%%  ", pct(r, r->plateaus[i].self));
		add_name(out, f, r->plateaus[i].func);
		strbuf_addch(out, '\n');
	}
	if (!r->nr_plateaus)
		strbuf_addstr(out, "    none: no single function holds that much self time\n");
	else
		strbuf_addf(out, "    what to do: %s\n", explain_advice_plateaus);

	strbuf_addf(out, "\nnarrow towers: stacks of at least %u frames "
		    "(depth: median %u, 90th percentile %u, max %u)\n",
		    r->tower_depth, r->depth_p50, r->depth_p90, r->depth_max);
	for (i = 0; i < r->nr_towers; i++) {
		const struct explain_tower *t = &r->towers[i];
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[t->stack]);

		strbuf_addf(out, "    depth %-4u %6.2f%%  leaf ", t->depth, pct(r, t->count));
		add_name(out, f, fr[t->depth - 1]);
		if (t->repeats > 1) {
			strbuf_addstr(out, ", ");
			add_name(out, f, t->repeated);
			strbuf_addf(out, " x%u", t->repeats);
		}
		strbuf_addch(out, '\n');
	}
	if (!r->nr_towers)
		strbuf_addstr(out, "    none\n");
	else
		strbuf_addf(out, "    %zu stack%s that deep, %.2f%% of samples\n"
			    "    what to do: %s\n", r->nr_tower_stacks,
			    r->nr_tower_stacks == 1 ? "" : "s", pct(r, r->tower_samples),
			    explain_advice_towers);

	strbuf_addf(out, "\nrepeated motifs: functions called from at least %u distinct callers "
		    "with at least %g%% total share\n", o->motif_callers, 100 * o->motif_share);
	for (i = 0; i < shown(r->nr_motifs, o->limit); i++) {
		const struct explain_motif *m = &r->motifs[i];

		strbuf_addf(out, "    %6.2f%%  %u callers  ", pct(r, m->total), m->callers);
		add_name(out, f, m->func);
		strbuf_addstr(out, " (heaviest caller ");
		add_name(out, f, m->top_caller);
		strbuf_addf(out, ", %.2f%%)\n", pct(r, m->top_caller_count));
	}
	if (!r->nr_motifs)
		strbuf_addstr(out, "    none\n");
	else
		strbuf_addf(out, "    what to do: %s\n", explain_advice_motifs);

	if (r->nr_nosyms)
		strbuf_addstr(out, "\nno symbols: time in modules trail could not split into functions\n");
	for (i = 0; i < shown(r->nr_nosyms, o->limit); i++) {
		const char *n = intern_str(&f->names, r->nosyms[i].func);
		size_t len = intern_len(&f->names, r->nosyms[i].func);

		strbuf_addf(out, "    %6.2f%%  no symbols for %.*s: %s\n", pct(r, r->nosyms[i].self),
			    (int)(len - 2), n + 1, explain_advice_nosyms);
	}
	strbuf_addf(out, "\nbroken stacks: %.2f%% of samples (an [unknown] frame %.2f%%, "
		    "a [module] frame without symbols %.2f%%, a single %sframe %.2f%%)\n",
		    pct(r, r->broken), pct(r, r->unknown), pct(r, r->nosym),
		    o->process_root ? "function " : "", pct(r, r->single));
	if (r->broken > o->broken_share * r->total)
		strbuf_addf(out, "    what to do: %s\n", explain_advice_broken);
	else
		strbuf_addf(out, "    fine: below %g%%\n", 100 * o->broken_share);
}

void explain_write_json(struct strbuf *out, const struct explain_report *r,
			const struct flat_profile *f)
{
	const struct explain_options *o = &r->opts;
	struct json_writer w;
	size_t i;

	json_writer_init(&w, out, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	flat_json_totals(&w, f);
	json_writer_key(&w, "process_root");
	json_writer_bool(&w, o->process_root);

	json_writer_key(&w, "plateaus");
	json_writer_begin_object(&w);
	json_writer_key_number(&w, "min_self_pct", 100 * o->plateau_share);
	json_writer_key(&w, "functions");
	json_writer_begin_array(&w);
	for (i = 0; i < shown(r->nr_plateaus, o->limit); i++) {
		json_writer_begin_object(&w);
		flat_json_name(&w, "function", f, r->plateaus[i].func);
		json_writer_key_number(&w, "self", r->plateaus[i].self);
		json_writer_key_number(&w, "self_pct", pct(r, r->plateaus[i].self));
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key_string(&w, "what_to_do", explain_advice_plateaus);
	json_writer_end(&w);

	json_writer_key(&w, "towers");
	json_writer_begin_object(&w);
	json_writer_key_int(&w, "min_depth", r->tower_depth);
	json_writer_key_int(&w, "depth_p50", r->depth_p50);
	json_writer_key_int(&w, "depth_p90", r->depth_p90);
	json_writer_key_int(&w, "depth_max", r->depth_max);
	json_writer_key_int(&w, "deep_stacks", (int64_t)r->nr_tower_stacks);
	json_writer_key_number(&w, "deep_pct", pct(r, r->tower_samples));
	json_writer_key(&w, "stacks");
	json_writer_begin_array(&w);
	for (i = 0; i < r->nr_towers; i++) {
		const struct explain_tower *t = &r->towers[i];
		const uint32_t *fr = flat_stack_frames(f, &f->stacks[t->stack]);
		uint32_t k;

		json_writer_begin_object(&w);
		json_writer_key_int(&w, "depth", t->depth);
		json_writer_key_number(&w, "count", t->count);
		json_writer_key_number(&w, "pct", pct(r, t->count));
		flat_json_name(&w, "leaf", f, fr[t->depth - 1]);
		flat_json_name(&w, "most_repeated", f, t->repeated);
		json_writer_key_int(&w, "repeats", t->repeats);
		json_writer_key(&w, "frames");
		json_writer_begin_array(&w);
		for (k = 0; k < t->depth; k++)
			json_writer_string_len(&w, intern_str(&f->names, fr[k]),
					       intern_len(&f->names, fr[k]));
		json_writer_end(&w);
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key_string(&w, "what_to_do", explain_advice_towers);
	json_writer_end(&w);

	json_writer_key(&w, "motifs");
	json_writer_begin_object(&w);
	json_writer_key_int(&w, "min_callers", o->motif_callers);
	json_writer_key_number(&w, "min_total_pct", 100 * o->motif_share);
	json_writer_key(&w, "functions");
	json_writer_begin_array(&w);
	for (i = 0; i < shown(r->nr_motifs, o->limit); i++) {
		const struct explain_motif *m = &r->motifs[i];

		json_writer_begin_object(&w);
		flat_json_name(&w, "function", f, m->func);
		json_writer_key_int(&w, "callers", m->callers);
		json_writer_key_number(&w, "total", m->total);
		json_writer_key_number(&w, "total_pct", pct(r, m->total));
		flat_json_name(&w, "heaviest_caller", f, m->top_caller);
		json_writer_key_number(&w, "heaviest_caller_pct", pct(r, m->top_caller_count));
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key_string(&w, "what_to_do", explain_advice_motifs);
	json_writer_end(&w);

	json_writer_key(&w, "no_symbols");
	json_writer_begin_object(&w);
	json_writer_key(&w, "modules");
	json_writer_begin_array(&w);
	for (i = 0; i < shown(r->nr_nosyms, o->limit); i++) {
		json_writer_begin_object(&w);
		json_writer_key(&w, "module");
		json_writer_string_len(&w, intern_str(&f->names, r->nosyms[i].func) + 1,
				       intern_len(&f->names, r->nosyms[i].func) - 2);
		json_writer_key_number(&w, "self", r->nosyms[i].self);
		json_writer_key_number(&w, "self_pct", pct(r, r->nosyms[i].self));
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key_string(&w, "what_to_do", explain_advice_nosyms);
	json_writer_end(&w);

	json_writer_key(&w, "broken");
	json_writer_begin_object(&w);
	json_writer_key_number(&w, "pct", pct(r, r->broken));
	json_writer_key_number(&w, "unknown_pct", pct(r, r->unknown));
	json_writer_key_number(&w, "no_symbols_pct", pct(r, r->nosym));
	json_writer_key_number(&w, "single_frame_pct", pct(r, r->single));
	json_writer_key_number(&w, "max_pct", 100 * o->broken_share);
	json_writer_key(&w, "finding");
	json_writer_bool(&w, r->broken > o->broken_share * r->total);
	json_writer_key_string(&w, "what_to_do", explain_advice_broken);
	json_writer_end(&w);

	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(out, '\n');
}
