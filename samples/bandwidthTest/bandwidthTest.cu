// SPDX-License-Identifier: GPL-2.0
//
// bandwidthTest: how fast bytes move between the host and the device, for
// every kind of host memory, measured against the speed of the CPU's own
// memcpy() in the same process (the ceiling a copy through system memory
// can reach).
//
//   - pageable (malloc):      the driver stages it through pinned buffers;
//   - pinned (cudaHostAlloc): the copy engine reads/writes it directly;
//   - write-combined pinned:  the same, but uncached for the CPU;
//   - device to device;
//   - mapped (zero-copy):     a kernel reads and writes host memory itself;
//   - CPU reads of write-combined versus cached pinned memory;
//   - the fixed cost of one synchronous copy.
//
// Every transfer is checked: what arrives is compared with what was sent.
//
//   bandwidthTest [--csv] [--max-size BYTES] [--repeat N]
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "../common/sample_check.h"

enum host_kind { PAGEABLE, PINNED, WRITE_COMBINED };
static const char *const kind_name[] = { "pageable", "pinned", "wc" };

struct options {
	bool csv;
	size_t max_size;
	int repeat;
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double mb_per_s(size_t bytes, int repeat, double seconds)
{
	return (double)bytes * repeat / seconds / 1e6;
}

// A pattern that differs per byte and per round, so that a stale buffer
// from an earlier round cannot pass for a fresh copy.
static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7u + seed * 13u + (i >> 12));
}

// Whether @got holds the @n bytes of @want; says where it does not.
static bool same(const uint8_t *got, const uint8_t *want, size_t n,
		 const char *what)
{
	if (memcmp(got, want, n) == 0)
		return true;
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			fprintf(stderr, "%s, %zu bytes: byte %zu is 0x%02x, "
				"expected 0x%02x\n", what, n, i, got[i],
				want[i]);
			break;
		}
	}
	return false;
}

static uint8_t *host_alloc(enum host_kind kind, size_t n)
{
	void *p = NULL;

	switch (kind) {
	case PAGEABLE:
		p = malloc(n);
		if (!p) {
			fprintf(stderr, "out of host memory\n");
			exit(sample_result(false));
		}
		memset(p, 0, n);	// fault the pages in before timing
		break;
	case PINNED:
		CHECK(cudaHostAlloc(&p, n, cudaHostAllocDefault));
		break;
	case WRITE_COMBINED:
		CHECK(cudaHostAlloc(&p, n, cudaHostAllocWriteCombined));
		break;
	}
	return (uint8_t *)p;
}

static void host_free(enum host_kind kind, uint8_t *p)
{
	if (kind == PAGEABLE)
		free(p);
	else
		CHECK(cudaFreeHost(p));
}

// Machines are shared and timers noisy (more so in an emulator): every
// figure is the best of a few trials of @repeat operations each.
#define TRIALS 5

struct row {
	const char *kind;
	const char *dir;
	size_t size;
	double mbps;
	double memcpy_mbps;
};

// The baseline: memcpy() between two ordinary (pageable) host buffers.
struct baseline {
	uint8_t *src, *dst;
};

static double memcpy_trial(const struct baseline *b, size_t n, int repeat)
{
	double t0 = now_seconds();

	for (int r = 0; r < repeat; r++)
		memcpy(b->dst, b->src, n);
	double bw = mb_per_s(n, repeat, now_seconds() - t0);

	// Keep the compiler from discarding the copies.
	if (b->dst[n - 1] != b->src[n - 1])
		exit(sample_result(false));
	return bw;
}

// Time cudaMemcpy(@dst, @src, r->size, @dir) and memcpy() of the same
// size, their trials interleaved so that both see the same load on the
// machine; r->mbps and r->memcpy_mbps get the best of each.
static void timed_copy(struct row *r, void *dst, const void *src,
		       cudaMemcpyKind dir, const struct baseline *b, int repeat)
{
	size_t n = r->size;

	r->mbps = r->memcpy_mbps = 0;
	memcpy(b->dst, b->src, n);		// warm up both
	CHECK(cudaMemcpy(dst, src, n, dir));
	for (int t = 0; t < TRIALS; t++) {
		double base = memcpy_trial(b, n, repeat);
		double t0 = now_seconds();

		for (int i = 0; i < repeat; i++)
			CHECK(cudaMemcpy(dst, src, n, dir));
		// cudaMemcpy between two device buffers does not wait.
		CHECK(cudaDeviceSynchronize());
		double bw = mb_per_s(n, repeat, now_seconds() - t0);

		r->mbps = bw > r->mbps ? bw : r->mbps;
		r->memcpy_mbps = base > r->memcpy_mbps ? base : r->memcpy_mbps;
	}
}

static void print_header(const struct options *o)
{
	if (o->csv)
		printf("kind,direction,bytes,MB/s,memcpy MB/s,fraction\n");
	else
		printf("%-9s %-4s %10s %10s %12s %8s\n", "memory", "dir",
		       "bytes", "MB/s", "memcpy MB/s", "fraction");
}

static void print_row(const struct options *o, const struct row *r)
{
	double frac = r->mbps / r->memcpy_mbps;

	if (o->csv)
		printf("%s,%s,%zu,%.1f,%.1f,%.3f\n", r->kind, r->dir, r->size,
		       r->mbps, r->memcpy_mbps, frac);
	else
		printf("%-9s %-4s %10zu %10.1f %12.1f %7.1f%%\n", r->kind,
		       r->dir, r->size, r->mbps, r->memcpy_mbps, 100 * frac);
}

// Host <-> device for one kind of host memory at one size; checks both
// directions with a pageable scratch buffer @check.
static bool host_device(const struct options *o, enum host_kind kind,
			size_t n, const struct baseline *b, uint8_t *dev,
			uint8_t *check, unsigned int seed)
{
	uint8_t *host = host_alloc(kind, n);
	struct row r = { kind_name[kind], "H2D", n, 0, 0 };
	bool ok = true;

	fill(host, n, seed);
	timed_copy(&r, dev, host, cudaMemcpyHostToDevice, b, o->repeat);
	print_row(o, &r);
	CHECK(cudaMemcpy(check, dev, n, cudaMemcpyDeviceToHost));
	ok &= same(check, host, n, "H2D");

	// The device now holds the pattern for @seed; send it back.
	memset(host, 0, n);
	r.dir = "D2H";
	timed_copy(&r, host, dev, cudaMemcpyDeviceToHost, b, o->repeat);
	print_row(o, &r);
	fill(check, n, seed);
	ok &= same(host, check, n, "D2H");
	host_free(kind, host);
	return ok;
}

static bool device_device(const struct options *o, size_t n,
			  const struct baseline *b, uint8_t *dev,
			  uint8_t *check, unsigned int seed)
{
	struct row r = { "device", "D2D", n, 0, 0 };
	uint8_t *dev2;
	bool ok;

	CHECK(cudaMalloc(&dev2, n));
	fill(check, n, seed);
	CHECK(cudaMemcpy(dev, check, n, cudaMemcpyHostToDevice));
	timed_copy(&r, dev2, dev, cudaMemcpyDeviceToDevice, b, o->repeat);
	print_row(o, &r);
	memset(check, 0, n);
	CHECK(cudaMemcpy(check, dev2, n, cudaMemcpyDeviceToHost));
	uint8_t *want = (uint8_t *)malloc(n);

	if (!want)
		exit(sample_result(false));
	fill(want, n, seed);
	ok = same(check, want, n, "D2D");
	free(want);
	CHECK(cudaFree(dev2));
	return ok;
}

// Each thread copies 16-byte words, so the kernel's memory traffic is as
// wide as the hardware's loads and stores allow.
__global__ void copy_words(const uint4 *in, uint4 *out, size_t words)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words;
	     i += stride)
		out[i] = in[i];
}

// Time the copy kernel between @in and @out (@n bytes each); MB/s counted
// as bytes read plus bytes written.
static double kernel_bandwidth(const void *in, void *out, size_t n, int repeat)
{
	size_t words = n / sizeof(uint4);
	cudaEvent_t start, stop;
	float ms;

	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	copy_words<<<64, 128>>>((const uint4 *)in, (uint4 *)out, words);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(start));
	for (int r = 0; r < repeat; r++)
		copy_words<<<64, 128>>>((const uint4 *)in, (uint4 *)out, words);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(stop));
	CHECK(cudaEventSynchronize(stop));
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	return 2.0 * mb_per_s(n, repeat, ms * 1e-3);
}

// Zero copy: a kernel that reads and writes host memory through its
// mapping, compared with the same kernel on device memory.
static bool mapped_kernel(const struct options *o, size_t n)
{
	uint8_t *in, *out, *din, *dout, *want;
	double mapped, device;
	bool ok = true;

	want = (uint8_t *)malloc(n);
	if (!want)
		exit(sample_result(false));
	CHECK(cudaHostAlloc(&in, n, cudaHostAllocMapped));
	CHECK(cudaHostAlloc(&out, n, cudaHostAllocMapped));
	CHECK(cudaHostGetDevicePointer(&din, in, 0));
	CHECK(cudaHostGetDevicePointer(&dout, out, 0));
	fill(in, n, 99);
	fill(want, n, 99);
	memset(out, 0, n);
	mapped = kernel_bandwidth(din, dout, n, o->repeat);
	// Synchronized (cudaEventSynchronize): the kernel's writes are visible.
	ok &= same(out, want, n, "mapped kernel");

	uint8_t *d1, *d2;

	CHECK(cudaMalloc(&d1, n));
	CHECK(cudaMalloc(&d2, n));
	CHECK(cudaMemcpy(d1, want, n, cudaMemcpyHostToDevice));
	device = kernel_bandwidth(d1, d2, n, o->repeat);
	memset(out, 0, n);
	CHECK(cudaMemcpy(out, d2, n, cudaMemcpyDeviceToHost));
	ok &= same(out, want, n, "device kernel");
	CHECK(cudaFree(d1));
	CHECK(cudaFree(d2));
	CHECK(cudaFreeHost(in));
	CHECK(cudaFreeHost(out));
	free(want);

	if (o->csv) {
		printf("mapped,kernel,%zu,%.1f,,\n", n, mapped);
		printf("device,kernel,%zu,%.1f,,\n", n, device);
	} else {
		printf("\nkernel copying %zu bytes (read + write counted):\n"
		       "  mapped host memory  %10.1f MB/s\n"
		       "  device memory       %10.1f MB/s\n", n, mapped, device);
	}
	return ok;
}

// The fixed cost of one synchronous copy: a 4-byte pinned host-to-device
// copy is all packet, doorbell, fence and wake-up, and no data.  It is
// what keeps small copies far below memcpy() speed.
static bool copy_latency(const struct options *o, uint8_t *dev)
{
	uint8_t *host;
	double best = 1e9;

	CHECK(cudaHostAlloc(&host, 4, cudaHostAllocDefault));
	memset(host, 0x5a, 4);
	CHECK(cudaMemcpy(dev, host, 4, cudaMemcpyHostToDevice));
	for (int t = 0; t < TRIALS; t++) {
		double t0 = now_seconds();

		for (int r = 0; r < o->repeat; r++)
			CHECK(cudaMemcpy(dev, host, 4, cudaMemcpyHostToDevice));
		double us = (now_seconds() - t0) * 1e6 / o->repeat;

		best = us < best ? us : best;
	}
	memset(host, 0, 4);
	CHECK(cudaMemcpy(host, dev, 4, cudaMemcpyDeviceToHost));
	bool ok = host[0] == 0x5a && host[3] == 0x5a;

	CHECK(cudaFreeHost(host));
	if (o->csv)
		printf("pinned,latency-us,4,%.1f,,\n", best);
	else
		printf("\none synchronous 4-byte copy: %.1f us\n", best);
	if (!ok)
		fprintf(stderr, "latency copy: wrong data\n");
	return ok;
}

// Sum a buffer 8 bytes at a time: the CPU's read bandwidth for it.
static double cpu_read_bandwidth(const uint8_t *p, size_t n, int repeat,
				 uint64_t *sum)
{
	const volatile uint64_t *w = (const volatile uint64_t *)p;
	size_t words = n / sizeof(uint64_t);
	uint64_t s = 0;
	double t0 = now_seconds();

	for (int r = 0; r < repeat; r++)
		for (size_t i = 0; i < words; i++)
			s += w[i];
	*sum = s;
	return mb_per_s(n, repeat, now_seconds() - t0);
}

// Write-combined memory is uncached: a CPU read goes all the way to
// memory, one at a time, so it is much slower than a cached read.
static bool wc_reads(const struct options *o, size_t n)
{
	uint8_t *cached, *wc;
	uint64_t sum_cached, sum_wc;
	double cached_mbps, wc_mbps;

	CHECK(cudaHostAlloc(&cached, n, cudaHostAllocDefault));
	CHECK(cudaHostAlloc(&wc, n, cudaHostAllocWriteCombined));
	fill(cached, n, 5);
	fill(wc, n, 5);
	cached_mbps = wc_mbps = 0;
	for (int t = 0; t < TRIALS; t++) {
		double c = cpu_read_bandwidth(cached, n, o->repeat, &sum_cached);
		double w = cpu_read_bandwidth(wc, n, o->repeat, &sum_wc);

		cached_mbps = c > cached_mbps ? c : cached_mbps;
		wc_mbps = w > wc_mbps ? w : wc_mbps;
	}
	CHECK(cudaFreeHost(cached));
	CHECK(cudaFreeHost(wc));

	if (o->csv) {
		printf("pinned,cpu-read,%zu,%.1f,,\n", n, cached_mbps);
		printf("wc,cpu-read,%zu,%.1f,,%.3f\n", n, wc_mbps,
		       wc_mbps / cached_mbps);
	} else {
		printf("\nCPU reads of %zu bytes of pinned memory:\n"
		       "  cached          %10.1f MB/s\n"
		       "  write-combined  %10.1f MB/s (%.2f x cached)\n",
		       n, cached_mbps, wc_mbps, wc_mbps / cached_mbps);
	}
	if (sum_cached != sum_wc) {
		fprintf(stderr, "WC memory read back differently\n");
		return false;
	}
	return true;
}

static void usage(void)
{
	fprintf(stderr, "usage: bandwidthTest [--csv] [--max-size BYTES] "
		"[--repeat N]\n");
	exit(sample_result(false));
}

static struct options parse(int argc, char **argv)
{
	struct options o = { false, 16u << 20, 4 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			o.csv = true;
		} else if (!strcmp(argv[i], "--max-size") && i + 1 < argc) {
			o.max_size = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			o.repeat = atoi(argv[++i]);
		} else {
			usage();
		}
	}
	if (o.max_size < 4096 || o.repeat < 1)
		usage();
	return o;
}

int main(int argc, char **argv)
{
	struct options o = parse(argc, argv);
	struct baseline b = { (uint8_t *)malloc(o.max_size),
			      (uint8_t *)malloc(o.max_size) };
	uint8_t *check = (uint8_t *)malloc(o.max_size);
	uint8_t *dev;
	unsigned int seed = 1;
	bool ok = true;

	if (!b.src || !b.dst || !check) {
		fprintf(stderr, "out of host memory\n");
		return sample_result(false);
	}
	CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
	CHECK(cudaMalloc(&dev, o.max_size));
	fill(b.src, o.max_size, 0);
	memset(b.dst, 0, o.max_size);
	if (!o.csv)
		printf("[bandwidthTest] up to %zu bytes, %d copies each\n\n",
		       o.max_size, o.repeat);
	print_header(&o);
	// Page multiples, and sizes that are not, up to --max-size.
	for (size_t n = 4096; n <= o.max_size; n *= 4) {
		size_t sizes[2] = { n, n + 1000 };	// and one mid-page end

		for (size_t s : sizes) {
			if (s > o.max_size)
				continue;
			for (int k = PAGEABLE; k <= WRITE_COMBINED; k++)
				ok &= host_device(&o, (enum host_kind)k, s,
						  &b, dev, check, seed++);
			ok &= device_device(&o, s, &b, dev, check, seed++);
		}
	}
	ok &= mapped_kernel(&o, o.max_size / 16 < 65536 ? 65536 :
			    o.max_size / 16);
	ok &= copy_latency(&o, dev);
	ok &= wc_reads(&o, o.max_size);
	CHECK(cudaFree(dev));
	free(b.src);
	free(b.dst);
	free(check);
	return sample_result(ok);
}
