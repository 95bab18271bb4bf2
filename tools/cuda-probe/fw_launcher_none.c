// SPDX-License-Identifier: GPL-2.0
/*
 * fw_launcher_none.c - the firmware launcher of the guest tests, for a
 * machine with a real NVIDIA GPU: there is no vgpu-fw to start, the GPU
 * is always "attached".  run-tests-on-gpu links the driver-API and
 * runtime tests with this file instead of umd/cuda/tests/fw_launcher.c.
 */
#include "fw_launcher.h"

bool fw_launcher_attached(unsigned int index)
{
	(void)index;
	return true;
}

pid_t fw_launcher_start(void)
{
	return 0;
}

pid_t fw_launcher_start_on(unsigned int index)
{
	(void)index;
	return 0;
}

void fw_launcher_stop(pid_t pid)
{
	(void)pid;
}

void fw_launcher_stop_on(pid_t pid, unsigned int index)
{
	(void)pid;
	(void)index;
}

void fw_launcher_kill(pid_t pid)
{
	(void)pid;
}
