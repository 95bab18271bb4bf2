// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_lib.c - device, sysfs and queue helpers for the selftests.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vgpu_lib.h"

int vgpu_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

int vgpu_open(void)
{
	return open(VGPU_DEV, O_RDWR | O_CLOEXEC);
}

int vgpu_sysfs_str(const char *attr, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), VGPU_SYSFS "%s", attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

long long vgpu_sysfs_num(const char *attr)
{
	char buf[64];

	if (vgpu_sysfs_str(attr, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 0);
}

int vgpu_param_write(const char *param, const char *value)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), VGPU_PARAMS "%s", param);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

long long vgpu_sysfs_settle(const char *attr, long long want)
{
	uint64_t end = vgpu_now_ns() + 5000000000ull;
	long long v;

	while ((v = vgpu_sysfs_num(attr)) != want && vgpu_now_ns() < end)
		usleep(5000);
	return v;
}

bool vgpu_accounting_idle(void)
{
	static const char *const attrs[] = {
		"vram_used_bytes", "vram_resident_bytes", "gart_entries_used",
		"pinned_pages", "contexts", "queues", "managed/resident_bytes",
	};
	bool idle = true;
	size_t i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		long long v = vgpu_sysfs_settle(attrs[i], 0);

		if (v != 0) {
			fprintf(stderr, "# %s = %lld, expected 0\n", attrs[i], v);
			idle = false;
		}
	}
	return idle;
}

uint64_t vgpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int vgpu_drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[cap / 32].effective &= ~(1u << (cap % 32));
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

int vgpu_ctx_create(int fd, uint32_t *handle)
{
	struct vgpu_ctx_create args = { 0 };
	int ret = vgpu_ioctl(fd, VGPU_IOCTL_CTX_CREATE, &args);

	*handle = args.handle;
	return ret;
}

int vgpu_vram_alloc(int fd, uint64_t size, uint32_t *handle)
{
	struct vgpu_vram_alloc args = { .size = size };
	int ret = vgpu_ioctl(fd, VGPU_IOCTL_VRAM_ALLOC, &args);

	*handle = args.handle;
	return ret;
}

int vgpu_tq_create(struct vgpu_tq *tq, int fd, uint32_t ctx, uint32_t engine,
		   uint32_t ring_size)
{
	struct vgpu_queue_create args = {
		.ctx = ctx, .engine = engine, .ring_size = ring_size,
	};
	int ret;

	memset(tq, 0, sizeof(*tq));
	ret = vgpu_ioctl(fd, VGPU_IOCTL_QUEUE_CREATE, &args);
	if (ret)
		return ret;
	tq->fd = fd;
	tq->handle = args.handle;
	tq->id = args.queue_id;
	tq->ring_size = ring_size;
	tq->ring = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			fd, args.ring_offset);
	tq->db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      args.doorbell_offset);
	tq->fence = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd,
			 args.fence_offset);
	if (tq->ring == MAP_FAILED || tq->db == MAP_FAILED ||
	    tq->fence == MAP_FAILED)
		return -errno;
	return 0;
}

void vgpu_tq_unmap(struct vgpu_tq *tq)
{
	munmap(tq->ring, tq->ring_size);
	munmap(tq->db, 4096);
	munmap((void *)tq->fence, 4096);
}

void vgpu_tq_emit(struct vgpu_tq *tq, const void *pkt, uint32_t size)
{
	uint32_t pos = tq->wptr % tq->ring_size;

	if (tq->ring_size - pos < size) {
		struct vgpu_pkt_header nop = {
			.opcode = VGPU_PKT_NOP, .size = tq->ring_size - pos,
		};

		memcpy(tq->ring + pos, &nop, sizeof(nop));
		tq->wptr += nop.size;
		pos = 0;
	}
	memcpy(tq->ring + pos, pkt, size);
	tq->wptr += size;
}

uint64_t vgpu_tq_fence(struct vgpu_tq *tq)
{
	struct vgpu_pkt_fence f = {
		.hdr = { .opcode = VGPU_PKT_FENCE, .size = sizeof(f) },
		.value = ++tq->next_fence,
	};

	vgpu_tq_emit(tq, &f, sizeof(f));
	return f.value;
}

int vgpu_tq_submit(struct vgpu_tq *tq)
{
	struct vgpu_handle_arg kick = { .handle = tq->handle };

	/* Publish the packets, then the pointer, then look (SQPOLL). */
	__atomic_store_n(&tq->db->wptr, tq->wptr, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&tq->db->fw_sleeping, __ATOMIC_ACQUIRE))
		return vgpu_ioctl(tq->fd, VGPU_IOCTL_QUEUE_KICK, &kick);
	return 0;
}

int vgpu_tq_wait(struct vgpu_tq *tq, uint64_t fence, unsigned int ms)
{
	struct vgpu_wait w = {
		.queue = tq->handle, .fence = fence,
		.timeout_ns = vgpu_now_ns() + ms * 1000000ull,
	};

	return vgpu_ioctl(tq->fd, VGPU_IOCTL_WAIT, &w);
}
