// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_race_test.c - objects are never visible before they are finished
 *
 * Several threads share one open file and, for a few seconds, create
 * objects (VRAM, host memory, contexts, queues) while the others free,
 * map, mmap, export and destroy whatever handles they guess.  Handles are
 * small integers handed out lowest-free-first, so guessing 1..NHANDLES
 * hits objects that another thread is just creating: if the driver made a
 * handle visible before the object was complete, or read the object after
 * publishing it, this is where a use-after-free or a WARN shows up (the
 * guest runner fails on any kernel report).
 *
 * Unlike the fuzzer, every call has well-formed arguments, so the only
 * acceptable errors are the ones a lost race explains: the object is gone
 * (-ENOENT, -EINVAL from mmap), a context still has queues (-EBUSY), the
 * file's queue limit (-ENOSPC).  Anything else is counted as a failure.
 *
 * An object whose handle is above NHANDLES is never guessed, so nothing
 * would ever free it: its creator frees it at once (which must succeed),
 * so that the number of live objects stays bounded however many calls
 * the threads make, and running out of VRAM (-ENOMEM) stays a failure.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vgpu_lib.h"

#define NTHREADS	4
#define NHANDLES	24	/* guessed handles: 1..NHANDLES */
#define SECONDS		3
/*
 * Calls the threads make at least, running past SECONDS when a slow guest
 * (the debug kernel under TCG) has not made them yet, but never past
 * MAX_SECONDS (the harness gives a test 30 s).
 */
#define MIN_CALLS	200
#define MAX_SECONDS	20

struct race {
	int fd;
	uint64_t end_ns, max_ns;
	atomic_ulong calls;
	atomic_ulong unexpected;
};

struct racer {
	struct race *race;
	unsigned int seed;
	int id;
};

static uint32_t guess(struct racer *r)
{
	return 1 + rand_r(&r->seed) % NHANDLES;
}

/* Count a result; @ok_errs are the errors a lost race explains. */
static void check(struct racer *r, const char *what, int ret,
		  const int *ok_errs, size_t n)
{
	size_t i;

	atomic_fetch_add(&r->race->calls, 1);
	if (!ret)
		return;
	for (i = 0; i < n; i++)
		if (ret == ok_errs[i])
			return;
	if (atomic_fetch_add(&r->race->unexpected, 1) < 10)
		fprintf(stderr, "# thread %d: %s: %s\n", r->id, what,
			strerror(-ret));
}

#define CHECK(r, what, ret, ...) do {					\
	static const int errs_[] = { 0, __VA_ARGS__ };			\
	check(r, what, ret, errs_, sizeof(errs_) / sizeof(errs_[0]));	\
} while (0)

/* mmap the first page at @off, touch it, unmap it; 0 or -errno. */
static int map_touch(int fd, uint64_t off, int prot)
{
	volatile uint8_t *p = mmap(NULL, 4096, prot, MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		return -errno;
	if (prot & PROT_WRITE)
		p[0] = 1;
	(void)p[0];
	munmap((void *)p, 4096);
	return 0;
}

/* Free what no other thread can guess; @op is a *_DESTROY or MEM_FREE. */
static void drop_unguessable(struct racer *r, int fd, unsigned long op,
			     const char *what, uint32_t handle)
{
	struct vgpu_handle_arg h = { .handle = handle };

	if (handle > NHANDLES)
		CHECK(r, what, vgpu_ioctl(fd, op, &h));
}

static void race_create(struct racer *r, int fd)
{
	struct vgpu_host_alloc h = { .size = 8192 };
	struct vgpu_queue_create q = { .ring_size = 4096 };
	uint32_t handle;
	int ret;

	switch (rand_r(&r->seed) % 4) {
	case 0:
		ret = vgpu_vram_alloc(fd, 4096, &handle);
		CHECK(r, "VRAM_ALLOC", ret);
		if (!ret)
			drop_unguessable(r, fd, VGPU_IOCTL_MEM_FREE,
					 "MEM_FREE own", handle);
		break;
	case 1:
		ret = vgpu_ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &h);
		CHECK(r, "HOST_ALLOC", ret);
		/* Another thread may have freed it already: -EINVAL. */
		if (!ret) {
			CHECK(r, "mmap host", map_touch(fd, h.mmap_offset,
							PROT_READ | PROT_WRITE),
			      -EINVAL);
			drop_unguessable(r, fd, VGPU_IOCTL_MEM_FREE,
					 "MEM_FREE own", h.handle);
		}
		break;
	case 2:
		ret = vgpu_ctx_create(fd, &handle);
		CHECK(r, "CTX_CREATE", ret);
		/* its queues need a guessed context: it has none */
		if (!ret)
			drop_unguessable(r, fd, VGPU_IOCTL_CTX_DESTROY,
					 "CTX_DESTROY own", handle);
		break;
	default:
		q.ctx = guess(r);
		ret = vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_CREATE, &q);
		CHECK(r, "QUEUE_CREATE", ret, -ENOENT, -ENOSPC);
		if (!ret) {
			CHECK(r, "mmap ring", map_touch(fd, q.ring_offset,
							PROT_READ | PROT_WRITE),
			      -EINVAL);
			drop_unguessable(r, fd, VGPU_IOCTL_QUEUE_DESTROY,
					 "QUEUE_DESTROY own", q.handle);
		}
		break;
	}
}

static void race_use(struct racer *r, int fd)
{
	struct vgpu_handle_arg h = { .handle = guess(r) };
	struct vgpu_mem_export e = { .handle = guess(r) };
	struct vgpu_map m = {
		.ctx = guess(r), .handle = guess(r),
		.va = (1ull << 32) + ((uint64_t)r->id << 28), .size = 4096,
	};
	struct vgpu_unmap u = { .ctx = m.ctx, .va = m.va };
	uint64_t off = ((uint64_t)1 << 58) | ((uint64_t)guess(r) << 36);
	int ret;

	switch (rand_r(&r->seed) % 6) {
	case 0:
		CHECK(r, "MEM_FREE", vgpu_ioctl(fd, VGPU_IOCTL_MEM_FREE, &h),
		      -ENOENT);
		break;
	case 1:
		CHECK(r, "CTX_DESTROY",
		      vgpu_ioctl(fd, VGPU_IOCTL_CTX_DESTROY, &h),
		      -ENOENT, -EBUSY);
		break;
	case 2:
		CHECK(r, "QUEUE_DESTROY",
		      vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_DESTROY, &h), -ENOENT);
		break;
	case 3:
		/* A host object (mmap offset kind 1) of a guessed handle. */
		CHECK(r, "mmap guessed", map_touch(fd, off, PROT_READ),
		      -EINVAL);
		break;
	case 4:
		ret = vgpu_ioctl(fd, VGPU_IOCTL_MEM_EXPORT, &e);
		CHECK(r, "MEM_EXPORT", ret, -ENOENT);
		if (!ret)
			close(e.fd);
		break;
	default:
		/*
		 * VRAM objects need a 64 KiB-aligned VA and size: -EINVAL
		 * when the guess is one; -EEXIST when this thread's VA is
		 * still mapped.
		 */
		ret = vgpu_ioctl(fd, VGPU_IOCTL_MAP, &m);
		CHECK(r, "MAP", ret, -ENOENT, -EINVAL, -EEXIST);
		if (!ret)
			CHECK(r, "UNMAP", vgpu_ioctl(fd, VGPU_IOCTL_UNMAP, &u),
			      -ENOENT);
		break;
	}
}

static void *racer_main(void *arg)
{
	struct racer *r = arg;

	for (;;) {
		uint64_t now = vgpu_now_ns();

		if (now >= r->race->max_ns ||
		    (now >= r->race->end_ns &&
		     atomic_load(&r->race->calls) > MIN_CALLS))
			break;
		if (rand_r(&r->seed) % 2)
			race_create(r, r->race->fd);
		else
			race_use(r, r->race->fd);
	}
	return NULL;
}

TEST(create_free_map_race)
{
	uint64_t t0 = vgpu_now_ns();
	struct race race = { .end_ns = t0 + SECONDS * 1000000000ull,
			     .max_ns = t0 + MAX_SECONDS * 1000000000ull };
	struct racer racers[NTHREADS];
	pthread_t threads[NTHREADS];
	pid_t fw = vgpu_test_fw_start();	/* contexts need one */
	int i;

	ASSERT_LT(0, fw) TH_LOG("test firmware: %s", strerror(-fw));
	race.fd = vgpu_open();
	ASSERT_LE(0, race.fd);
	for (i = 0; i < NTHREADS; i++) {
		racers[i] = (struct racer){ .race = &race, .seed = 7 * i + 1,
					    .id = i };
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, racer_main,
					    &racers[i]));
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(threads[i], NULL);
	TH_LOG("%lu calls, %lu unexpected results",
	       atomic_load(&race.calls), atomic_load(&race.unexpected));
	/* A few hundred calls even on a slow emulated guest. */
	EXPECT_LT(MIN_CALLS, atomic_load(&race.calls));
	EXPECT_EQ(0, atomic_load(&race.unexpected));
	close(race.fd);
	vgpu_test_fw_kill(fw);
	EXPECT_TRUE(vgpu_accounting_idle());
}

TEST_HARNESS_MAIN
