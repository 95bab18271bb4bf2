// SPDX-License-Identifier: GPL-2.0
/*
 * aperture.c - VRAM and GART mappings that survive pages being taken away.
 *
 * See aperture.h for why.  The handler only calls mmap() and touches
 * atomics, both fine in a signal handler on Linux.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aperture.h"

#define FW_PAGE		4096ull
#define FW_MAX_APERTURES	64

/* Every mapped aperture, for the signal handler to find. */
static struct fw_aperture *_Atomic registry[FW_MAX_APERTURES];
static _Thread_local volatile unsigned long thread_bus_errors;

static void registry_set(struct fw_aperture *old, struct fw_aperture *new)
{
	for (int i = 0; i < FW_MAX_APERTURES; i++) {
		struct fw_aperture *expect = old;

		if (atomic_compare_exchange_strong(&registry[i], &expect, new))
			return;
	}
}

static void sigbus_handler(int sig, siginfo_t *si, void *uc)
{
	uintptr_t addr = (uintptr_t)si->si_addr;

	(void)uc;
	for (int i = 0; i < FW_MAX_APERTURES; i++) {
		struct fw_aperture *ap = atomic_load(&registry[i]);
		uintptr_t base;
		uint64_t page;

		if (!ap || !ap->base)
			continue;
		base = (uintptr_t)ap->base;
		if (addr < base || addr - base >= ap->size)
			continue;
		page = (addr - base) / FW_PAGE;
		/* A zero page in place of the one the driver took away. */
		if (mmap(ap->base + page * FW_PAGE, FW_PAGE,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			break;
		atomic_fetch_or(&ap->patched[page / 64], 1ull << (page % 64));
		thread_bus_errors++;
		return;
	}
	/* Not ours: die as SIGBUS would have made us die. */
	signal(sig, SIG_DFL);
	raise(sig);
}

int fw_aperture_install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigbus_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, NULL);
}

int fw_aperture_map(struct fw_aperture *ap, int fd, uint64_t file_offset,
		    uint64_t size)
{
	void *p;

	memset(ap, 0, sizeof(*ap));
	if (!size)
		return 0;
	ap->patched = calloc((size / FW_PAGE + 63) / 64, sizeof(uint64_t));
	if (!ap->patched)
		return -ENOMEM;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)file_offset);
	if (p == MAP_FAILED) {
		int err = -errno;

		free((void *)ap->patched);
		ap->patched = NULL;
		return err;
	}
	ap->fd = fd;
	ap->file_offset = file_offset;
	ap->size = size;
	ap->base = p;
	registry_set(NULL, ap);
	return 0;
}

void fw_aperture_unmap(struct fw_aperture *ap)
{
	if (!ap->base)
		return;
	registry_set(ap, NULL);
	munmap(ap->base, ap->size);
	free((void *)ap->patched);
	memset(ap, 0, sizeof(*ap));
}

void fw_aperture_revalidate(struct fw_aperture *ap, uint64_t off,
			    uint64_t len)
{
	uint64_t first = off / FW_PAGE, last = (off + len - 1) / FW_PAGE;

	for (uint64_t page = first; page <= last; page++) {
		_Atomic uint64_t *word = &ap->patched[page / 64];
		uint64_t bit = 1ull << (page % 64);

		if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
			continue;
		atomic_fetch_and(word, ~bit);
		/* Back to the driver's page; it faults in (or SIGBUSes) anew. */
		mmap(ap->base + page * FW_PAGE, FW_PAGE, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_FIXED, ap->fd,
		     (off_t)(ap->file_offset + page * FW_PAGE));
	}
}

unsigned long fw_aperture_thread_bus_errors(void)
{
	return thread_bus_errors;
}
