// SPDX-License-Identifier: GPL-2.0
/*
 * fw_test_util.c - firmware process control, a client, and kernels.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fw_test_util.h"
#include "ptx/ptx_compiler.h"
#include "vgpu_launch.h"
#include "vgpu_visa.h"

/* The firmware a test runs, relative to the test's directory. */
#ifndef FW_TEST_FIRMWARE
#define FW_TEST_FIRMWARE "../../bin/vgpu-fw"
#endif

const char *fw_path(void)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "vgpu-fw";
	exe[n] = '\0';
	/* build/tests/firmware/<test> -> build/bin/vgpu-fw */
	snprintf(path, sizeof(path), "%s/%s", dirname(exe), FW_TEST_FIRMWARE);
	return path;
}

bool fw_attached(void)
{
	struct vgpu_info info = { 0 };
	int fd = open(VGPU_DEV, O_RDWR | O_CLOEXEC);
	bool ret;

	if (fd < 0)
		return false;
	ret = !ioctl(fd, VGPU_IOCTL_GET_INFO, &info) &&
	      (info.flags & VGPU_INFO_FW_ATTACHED);
	close(fd);
	return ret;
}

pid_t fw_start(const char *const *extra_args)
{
	const char *argv[16] = { "vgpu-fw", "--sms", "2" };
	int argc = 3, status;
	pid_t pid;

#ifndef FW_TEST_TIER
#define FW_TEST_TIER "interp"
#endif
	/*
	 * The firmware's default is the native tier; these tests pin the
	 * interpreter (the reference) and their -native twins the native
	 * tier, so both run whatever the default is.
	 */
	argv[argc++] = "--tier";
	argv[argc++] = FW_TEST_TIER;
	for (; extra_args && *extra_args && argc < 14; extra_args++)
		argv[argc++] = *extra_args;
	argv[argc++] = VGPU_DEV;
	argv[argc] = NULL;
	/* A firmware of an earlier test may still be detaching. */
	for (int i = 0; i < 1000 && fw_attached(); i++)
		usleep(10000);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* A test that dies must not leave its firmware behind. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execv(fw_path(), (char *const *)argv);
		_exit(127);
	}
	/* Attaching takes a moment, more so under TCG. */
	for (int i = 0; i < 2000; i++) {
		if (fw_attached())
			return pid;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -ECHILD;
		usleep(10000);
	}
	fw_kill(pid);
	return -ETIMEDOUT;
}

int fw_stop(pid_t pid)
{
	int status;

	if (pid <= 0 || kill(pid, SIGTERM) || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void fw_kill(pid_t pid)
{
	if (pid > 0 && !kill(pid, SIGKILL))
		waitpid(pid, NULL, 0);
}

static int map(struct fw_client *c, uint32_t handle, uint64_t va,
	       uint64_t size)
{
	struct vgpu_map m = {
		.ctx = c->ctx, .handle = handle, .va = va, .size = size,
	};

	return vgpu_ioctl(c->fd, VGPU_IOCTL_MAP, &m);
}

int fw_client_open(struct fw_client *c, uint64_t vram_size,
		   uint64_t host_size)
{
	struct vgpu_ctx_create cc = { 0 };
	struct vgpu_host_alloc ha = { .size = host_size };
	void *p;
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = vgpu_open();
	if (c->fd < 0)
		return c->fd;
	ret = vgpu_ioctl(c->fd, VGPU_IOCTL_CTX_CREATE, &cc);
	if (ret)
		return ret;
	c->ctx = cc.handle;
	c->ctx_id = cc.ctx_id;
	c->vram_size = vram_size;
	ret = vgpu_vram_alloc(c->fd, vram_size, &c->vram_handle);
	if (!ret)
		ret = map(c, c->vram_handle, FW_TEST_VRAM_VA, vram_size);
	if (!ret)
		ret = vgpu_ioctl(c->fd, VGPU_IOCTL_HOST_ALLOC, &ha);
	if (ret)
		return ret;
	c->host_handle = ha.handle;
	c->host_size = host_size;
	p = mmap(NULL, host_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		 ha.mmap_offset);
	if (p == MAP_FAILED)
		return -errno;
	c->host = p;
	/* Unified addressing: the device sees the pages at their host VA. */
	ret = map(c, c->host_handle, (uintptr_t)p, host_size);
	if (!ret)
		ret = vgpu_tq_create(&c->gr, c->fd, c->ctx,
				     VGPU_ENGINE_COMPUTE, 65536);
	if (!ret)
		ret = vgpu_tq_create(&c->ce, c->fd, c->ctx, VGPU_ENGINE_COPY,
				     65536);
	return ret;
}

void fw_client_close(struct fw_client *c)
{
	if (c->gr.ring)
		vgpu_tq_unmap(&c->gr);
	if (c->ce.ring)
		vgpu_tq_unmap(&c->ce);
	if (c->host)
		munmap(c->host, c->host_size);
	if (c->fd >= 0)
		close(c->fd);	/* the driver releases everything else */
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

uint64_t fw_client_vram(struct fw_client *c, uint64_t size)
{
	uint64_t va = FW_TEST_VRAM_VA + c->vram_next;

	c->vram_next += (size + 0xffff) & ~0xffffull;
	if (c->vram_next > c->vram_size)
		return 0;
	return va;
}

int fw_sync(struct vgpu_tq *q, unsigned int ms)
{
	uint64_t fence = vgpu_tq_fence(q);
	int ret = vgpu_tq_submit(q);

	return ret ? ret : vgpu_tq_wait(q, fence, ms);
}

void fw_emit_copy(struct vgpu_tq *q, uint64_t dst, uint64_t src,
		  uint64_t size)
{
	struct vgpu_pkt_copy p = {
		.hdr = { .opcode = VGPU_PKT_COPY, .size = sizeof(p) },
		.dst = dst, .src = src, .size = size,
	};

	vgpu_tq_emit(q, &p, sizeof(p));
}

void fw_emit_memset(struct vgpu_tq *q, uint64_t dst, uint32_t value,
		    uint32_t elem_size, uint64_t count)
{
	struct vgpu_pkt_memset p = {
		.hdr = { .opcode = VGPU_PKT_MEMSET, .size = sizeof(p) },
		.dst = dst, .count = count, .value = value,
		.elem_size = elem_size,
	};

	vgpu_tq_emit(q, &p, sizeof(p));
}

int fw_ctx_status(struct fw_client *c, struct vgpu_ctx_status *st)
{
	memset(st, 0, sizeof(*st));
	st->handle = c->ctx;
	return vgpu_ioctl(c->fd, VGPU_IOCTL_CTX_STATUS, st);
}

/* --- kernels -------------------------------------------------------------- */

static const struct visa_section *section(const struct fw_module *m,
					  unsigned int id)
{
	const struct visa_image_header *h = m->image;

	return &h->sections[id];
}

int fw_module_kernel(const struct fw_module *m, const char *name)
{
	const struct visa_section *ks = section(m, VISA_SEC_KERNELS);
	const struct visa_section *st = section(m, VISA_SEC_STRTAB);
	const uint8_t *img = m->image;

	for (uint32_t i = 0; ks->entsize && i < ks->size / ks->entsize; i++) {
		const struct visa_kernel *k =
			(const void *)(img + ks->offset + i * ks->entsize);

		if (k->name < st->size &&
		    !strcmp((const char *)img + st->offset + k->name, name))
			return (int)i;
	}
	return -1;
}

uint32_t fw_module_param_size(const struct fw_module *m, const char *name)
{
	const struct visa_section *ks = section(m, VISA_SEC_KERNELS);
	int i = fw_module_kernel(m, name);
	const struct visa_kernel *k;

	if (i < 0)
		return 0;
	k = (const void *)((const uint8_t *)m->image + ks->offset +
			   (uint32_t)i * ks->entsize);
	return k->param_size;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* Apply the image's relocations to the staged segments. */
static void relocate(const struct fw_module *m, uint8_t *global,
		     uint8_t *constant)
{
	const struct visa_section *rs = section(m, VISA_SEC_RELOCS);
	const uint8_t *img = m->image;

	for (uint32_t i = 0; rs->entsize && i < rs->size / rs->entsize; i++) {
		const struct visa_reloc *r =
			(const void *)(img + rs->offset + i * rs->entsize);
		uint64_t base = r->target_space == VISA_SPACE_GLOBAL ?
				m->global_base :
				r->target_space == VISA_SPACE_CONST ?
				m->const_base : VISA_FUNCPTR_BASE;
		uint64_t value = base + (uint64_t)r->addend;
		uint8_t *seg = r->space == VISA_SPACE_GLOBAL ? global :
							      constant;

		memcpy(seg + r->offset, &value, r->width);
	}
}

int fw_module_load(struct fw_client *c, const char *ptx_file,
		   struct fw_module *m)
{
	char path[PATH_MAX], msg[512];
	struct vgpu_ptx_source src;
	struct vgpu_ptx_diag diag;
	const struct visa_image_header *h;
	uint64_t gsize, csize, stage;
	size_t len;
	char *text;
	int ret;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/%s", FW_TEST_DATA, ptx_file);
	text = read_file(path, &len);
	if (!text) {
		fprintf(stderr, "# cannot read %s\n", path);
		return -1;
	}
	src.name = ptx_file;
	src.text = text;
	src.len = len;
	ret = vgpu_ptx_compile(&src, 1, NULL, &m->image, &m->size, &diag);
	free(text);
	if (ret) {
		vgpu_ptx_format_diag(&diag, msg, sizeof(msg));
		fprintf(stderr, "# %s\n", msg);
		return -1;
	}
	h = m->image;
	gsize = h->global_size;
	csize = h->const_size;
	m->code_va = fw_client_vram(c, m->size);
	m->global_base = gsize ? fw_client_vram(c, gsize) : 0;
	m->const_base = csize ? fw_client_vram(c, csize) : 0;
	m->image_id = ++c->next_image_id;
	if (!m->code_va || (gsize && !m->global_base) ||
	    (csize && !m->const_base) ||
	    m->size + gsize + csize > c->host_size)
		return -1;

	/* Stage image and initialised segments in pinned memory, then DMA. */
	memset(c->host, 0, m->size + gsize + csize);
	memcpy(c->host, m->image, m->size);
	stage = m->size;
	memcpy(c->host + stage,
	       (uint8_t *)m->image + h->sections[VISA_SEC_GLOBAL_INIT].offset,
	       h->sections[VISA_SEC_GLOBAL_INIT].size);
	memcpy(c->host + stage + gsize,
	       (uint8_t *)m->image + h->sections[VISA_SEC_CONST_INIT].offset,
	       h->sections[VISA_SEC_CONST_INIT].size);
	relocate(m, c->host + stage, c->host + stage + gsize);
	fw_emit_copy(&c->ce, m->code_va, (uintptr_t)c->host, m->size);
	if (gsize)
		fw_emit_copy(&c->ce, m->global_base,
			     (uintptr_t)c->host + stage, gsize);
	if (csize)
		fw_emit_copy(&c->ce, m->const_base,
			     (uintptr_t)c->host + stage + gsize, csize);
	return fw_sync(&c->ce, 10000);
}

void fw_module_free(struct fw_module *m)
{
	vgpu_ptx_free(m->image);
	m->image = NULL;
}

int fw_emit_launch(struct fw_client *c, const struct fw_module *m,
		   const char *kernel, const struct fw_launch_args *a)
{
	uint8_t buf[sizeof(struct vgpu_pkt_launch) +
		    sizeof(struct vgpu_launch_v1) + 4096];
	struct vgpu_pkt_launch *p = (void *)buf;
	struct vgpu_launch_v1 *v1 = (void *)(p + 1);
	uint32_t size = sizeof(*p) + sizeof(*v1) + ((a->param_size + 7) & ~7u);
	int index = fw_module_kernel(m, kernel);

	if (index < 0 || a->param_size > 4096)
		return -1;
	memset(buf, 0, size);
	p->hdr.opcode = VGPU_PKT_LAUNCH;
	p->hdr.size = size;
	p->isa_version = VGPU_LAUNCH_ISA_V1;
	p->code_va = m->code_va;
	memcpy(p->grid, a->grid, sizeof(p->grid));
	memcpy(p->block, a->block, sizeof(p->block));
	v1->kernel_index = (uint32_t)index;
	v1->flags = VGPU_LAUNCH_F_INLINE_PARAMS;
	v1->image_size = m->size;
	v1->image_id = m->image_id;
	v1->global_base = m->global_base;
	v1->const_base = m->const_base;
	v1->printf_fifo_va = a->printf_fifo_va;
	v1->printf_fifo_size = a->printf_fifo_size;
	v1->param_size = a->param_size;
	v1->priority = a->priority;
	v1->flags |= a->flags;
	v1->counters_size = a->counters_size;
	v1->counters_va = a->counters_va;
	if (a->param_size)
		memcpy(v1 + 1, a->params, a->param_size);
	vgpu_tq_emit(&c->gr, buf, size);
	return 0;
}
