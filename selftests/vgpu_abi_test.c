// SPDX-License-Identifier: GPL-2.0
/*
 * vgpu_abi_test.c - the uAPI and hardware-interface layouts never change
 *
 * A struct of include/uapi/linux/vgpu.h or include/vgpu_hw.h may only grow
 * at its end.  These assertions pin every size and a few offsets, so that
 * an accidental reordering, a missing pad (implicit padding differs between
 * 32- and 64-bit user space) or a changed type fails the build.  Runs on
 * the host; prints TAP.
 */
#include <stddef.h>
#include <stdio.h>

#include <linux/vgpu.h>
#include <vgpu_hw.h>

#define LAYOUT(type, size) _Static_assert(sizeof(type) == (size), #type)
#define AT(type, field, off) \
	_Static_assert(offsetof(type, field) == (off), #type "." #field)

LAYOUT(struct vgpu_info, 72);		/* 64 until 1.1 */
AT(struct vgpu_info, vram_size, 16);
AT(struct vgpu_info, gart_entries, 32);
AT(struct vgpu_info, kernel_exec_timeout_ms, 48);	/* 1.1: watchdog_ms */
AT(struct vgpu_info, hw_version, 56);
AT(struct vgpu_info, hang_timeout_ms, 64);	/* 1.2 */
AT(struct vgpu_info, compute_mode, 68);		/* 1.3: pad1 */
LAYOUT(struct vgpu_ctx_create, 16);
LAYOUT(struct vgpu_handle_arg, 8);
LAYOUT(struct vgpu_fault, 384);
AT(struct vgpu_fault, va, 16);
AT(struct vgpu_fault, block, 32);
AT(struct vgpu_fault, pc, 56);
AT(struct vgpu_fault, kernel_name, 64);
AT(struct vgpu_fault, message, 128);	/* 1.1: the 1.0 struct ended here */
LAYOUT(struct vgpu_ctx_status, 400);	/* 144 in 1.0 */
AT(struct vgpu_ctx_status, fault, 16);
LAYOUT(struct vgpu_vram_alloc, 24);
LAYOUT(struct vgpu_host_alloc, 32);
LAYOUT(struct vgpu_host_register, 24);
LAYOUT(struct vgpu_map, 40);
AT(struct vgpu_map, flags, 32);
LAYOUT(struct vgpu_unmap, 16);
LAYOUT(struct vgpu_queue_create, 48);
AT(struct vgpu_queue_create, ring_offset, 24);
LAYOUT(struct vgpu_wait, 24);
LAYOUT(struct vgpu_queue_eventfd, 8);
LAYOUT(struct vgpu_mem_export, 16);
LAYOUT(struct vgpu_mem_import, 32);
LAYOUT(struct vgpu_fw_attach, 40);
LAYOUT(struct vgpu_fw_signal, 16);
LAYOUT(struct vgpu_fw_fault, 392);	/* 136 in 1.0 */
LAYOUT(struct vgpu_fw_event, 48);
AT(struct vgpu_fw_event, seq, 40);
LAYOUT(struct vgpu_fw_ack, 16);
LAYOUT(struct vgpu_fw_engine_status, 16);
LAYOUT(struct vgpu_fw_heartbeat, 16);
AT(struct vgpu_fw_heartbeat, engines, 8);

/* Since 1.4: managed memory. */
LAYOUT(struct vgpu_managed_alloc, 32);
AT(struct vgpu_managed_alloc, mmap_offset, 16);
LAYOUT(struct vgpu_managed_migrate, 32);
AT(struct vgpu_managed_migrate, target, 24);
LAYOUT(struct vgpu_managed_query, 24);
AT(struct vgpu_managed_query, location, 16);
LAYOUT(struct vgpu_fw_mmu_fault, 16);
AT(struct vgpu_fw_mmu_fault, va, 8);

LAYOUT(struct vgpu_doorbell, 128);
AT(struct vgpu_doorbell, rptr, 64);
AT(struct vgpu_doorbell, fw_sleeping, 72);
LAYOUT(struct vgpu_fence_page, 16);
LAYOUT(struct vgpu_pkt_header, 8);
LAYOUT(struct vgpu_pkt_fence, 16);
LAYOUT(struct vgpu_pkt_wait_mem, 24);
LAYOUT(struct vgpu_pkt_write_mem, 24);
LAYOUT(struct vgpu_pkt_copy, 32);
LAYOUT(struct vgpu_pkt_copy_tiled, 80);
LAYOUT(struct vgpu_pkt_memset, 32);
LAYOUT(struct vgpu_pkt_timestamp, 16);
LAYOUT(struct vgpu_pkt_launch, 88);

int main(void)
{
	unsigned int cmds[] = {
		VGPU_IOCTL_GET_INFO, VGPU_IOCTL_CTX_CREATE, VGPU_IOCTL_WAIT,
		VGPU_IOCTL_FW_FAULT, VGPU_IOCTL_CTX_STATUS,
		VGPU_IOCTL_FW_HEARTBEAT,
	};
	int ok = 1;

	printf("TAP version 13\n1..2\n");
	printf("ok 1 struct layouts (checked at compile time)\n");
	/* The ioctl numbers encode the sizes: they are ABI as well. */
	ok &= cmds[0] == 0x8048b700u;	/* 0x8040b700 until 1.1 */
	ok &= cmds[1] == 0xc010b701u;
	ok &= cmds[2] == 0x4018b70du;
	ok &= cmds[3] == 0x4188b742u;	/* 0x4088b742 in 1.0 */
	ok &= cmds[4] == 0xc190b703u;	/* 0xc090b703 in 1.0 */
	ok &= cmds[5] == 0x4010b744u;
	printf("%s 2 ioctl numbers\n", ok ? "ok" : "not ok");
	return ok ? 0 : 1;
}
