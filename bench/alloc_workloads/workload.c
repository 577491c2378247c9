/*
 * workload.c - bench/alloc's C workload: a few million small objects from
 * ten allocation sites of known, different weights (a tree of nodes with
 * strdup'd keys, growing arrays, scratch buffers), built and freed in
 * rounds, so allocation dominates the run as in an allocation-heavy program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	struct node *left, *right;
	char *key;
	long value;
};

static void *volatile sink;

__attribute__((noinline)) struct node *new_node(long v)
{
	struct node *n = malloc(sizeof(*n));

	n->left = n->right = NULL;
	n->value = v;
	n->key = NULL;
	return n;
}

__attribute__((noinline)) char *make_key(long v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "key-%ld-%ld", v, v * 7919 % 100003);
	return strdup(buf);
}

__attribute__((noinline)) long *grow_array(long *a, size_t n)
{
	long *b = realloc(a, n * sizeof(*a));

	b[n - 1] = (long)n;
	return b;
}

__attribute__((noinline)) char *scratch_buffer(size_t n)
{
	char *p = malloc(n);

	memset(p, 1, 64);
	return p;
}

__attribute__((noinline)) double *zeroed_vector(size_t n)
{
	double *p = calloc(n, sizeof(*p));

	p[0] = 1;
	return p;
}

__attribute__((noinline)) void *small_pair(void)
{
	void **p = malloc(2 * sizeof(void *));

	p[0] = p[1] = NULL;
	return p;
}

__attribute__((noinline)) char *message(long i)
{
	char *p = malloc(120);

	snprintf(p, 120, "message %ld", i);
	return p;
}

__attribute__((noinline)) void *aligned_block(void)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, 256))
		abort();
	memset(p, 0, 64);
	return p;
}

__attribute__((noinline)) int *int_list(size_t n)
{
	int *p = malloc(n * sizeof(int));

	p[0] = (int)n;
	return p;
}

__attribute__((noinline)) char *big_chunk(void)
{
	char *p = malloc(200000);

	p[0] = 1;
	return p;
}

static struct node *insert(struct node *root, struct node *n)
{
	struct node **at = &root;

	while (*at)
		at = n->value < (*at)->value ? &(*at)->left : &(*at)->right;
	*at = n;
	return root;
}

static void free_tree(struct node *n)
{
	while (n) {
		struct node *r = n->right;

		free_tree(n->left);
		free(n->key);
		free(n);
		n = r;
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 4, per = 300000;

	for (long r = 0; r < rounds; r++) {
		struct node *root = NULL;
		long *arr = NULL;

		for (long i = 0; i < per; i++) {
			long v = (i * 2654435761u) % 1000003;
			struct node *n = new_node(v);

			n->key = make_key(v);
			root = insert(root, n);
			if (!(i & (i - 1)))	/* doubling, as vectors grow */
				arr = grow_array(arr, (size_t)(2 * i + 1));
			if (i % 3 == 0) {
				void *p = small_pair();
				sink = p;
				free(p);
			}
			if (i % 2 == 0) {
				char *m = message(i);
				sink = m;
				free(m);
			}
			if (i % 5 == 0) {
				int *l = int_list(40);
				sink = l;
				free(l);
			}
			if (i % 10 == 0) {
				void *a = aligned_block();
				sink = a;
				free(a);
			}
			if (i % 100 == 0) {
				char *s = scratch_buffer(4096);
				sink = s;
				free(s);
			}
			if (i % 500 == 0) {
				double *d = zeroed_vector(2000);
				sink = d;
				free(d);
			}
			if (i % 5000 == 0) {
				char *b = big_chunk();
				sink = b;
				free(b);
			}
		}
		free(arr);
		free_tree(root);
	}
	return 0;
}
