/* btwork.c - a CPU-bound loop and a write() loop, for the bpftrace profile (see README.md). */
#include <fcntl.h>
#include <unistd.h>

volatile long sink;

__attribute__((noinline)) static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
	sink++;
}

__attribute__((noinline)) static void writes(int fd, int n)
{
	char buf[4096] = { 0 };

	for (int i = 0; i < n; i++)
		if (write(fd, buf, sizeof(buf)) < 0)
			sink--;
	sink++;
}

int main(int argc, char **argv)
{
	int fd = open("/dev/null", O_WRONLY);
	long rounds = argc > 1 ? 1000000 : 40;

	for (long r = 0; r < rounds; r++) {
		spin(50000000);
		writes(fd, 200000);
	}
	return 0;
}
