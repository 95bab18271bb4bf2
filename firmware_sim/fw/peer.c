// SPDX-License-Identifier: GPL-2.0
/*
 * peer.c - the VRAM of the other devices, for PEER PTEs.
 *
 * A PEER PTE (include/vgpu_hw.h) names a big page of another device's
 * VRAM: a kernel of this device loading, storing or doing an atomic on
 * memory of /dev/vgpuN.  The driver maps device N's VRAM into this
 * firmware on request (VGPU_IOCTL_FW_PEER); it is the same memory that
 * device N's firmware maps, so plain loads and stores are coherent with
 * it and atomics stay atomic: both firmwares' atomics are CPU atomics on
 * the same host pages.  Pages the owner frees are taken away from this
 * view too (SIGBUS, absorbed as for the own VRAM: aperture.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fw.h"
#include "log.h"

void fw_peers_map(struct fw_device *dev)
{
	unsigned int n, mapped = 0;

	for (n = 0; n < VGPU_PTE_PEER_MAX; n++) {
		struct vgpu_fw_peer args = { .index = n };
		int ret;

		if (ioctl(dev->fd, VGPU_IOCTL_FW_PEER, &args)) {
			if (errno == ENODEV)
				continue;	/* no device N, or ourselves */
			if (errno != ENOTTY)
				fw_log_err("%s: peer %u: %s", dev->path, n,
					   strerror(errno));
			break;	/* ENOTTY: a driver before uAPI 1.5 */
		}
		ret = fw_aperture_map(&dev->peers[n], dev->fd,
				      args.vram_offset, args.vram_size);
		if (ret) {
			fw_log_err("%s: mapping peer %u's VRAM: %s", dev->path,
				   n, strerror(-ret));
			continue;
		}
		mapped++;
	}
	if (mapped)
		fw_log_info("%s: %u peer device(s) reachable", dev->path,
			    mapped);
}

void fw_peers_unmap(struct fw_device *dev)
{
	for (unsigned int n = 0; n < VGPU_PTE_PEER_MAX; n++)
		fw_aperture_unmap(&dev->peers[n]);
}
