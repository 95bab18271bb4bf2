// SPDX-License-Identifier: GPL-2.0
//
// simpleVulkanInterop: Vulkan allocates a buffer and exports its memory;
// CUDA imports it and a kernel fills it; Vulkan copies it into a buffer of
// its own and the CPU checks the copy against its own computation.  The
// two APIs are ordered by timeline semaphores, with no synchronisation of
// the whole device:
//
//   CUDA stream:  kernel -> signal CUDA semaphore = 1
//   Vulkan queue:          wait timeline >= 1 -> copy -> signal timeline = 2
//   host:         CUDA semaphore reaches 1 -> vkSignalSemaphore(timeline, 1)
//                 vkWaitSemaphores(timeline >= 2), read the copy
//
// The Vulkan copy is submitted before CUDA's kernel has finished, and its
// wait is what holds it back.  Mesa's lavapipe (the Vulkan of a vGPU
// machine) exports memory as an fd but no semaphore at all, so the CUDA
// semaphore is vGPU's own (a shared page holding the timeline's value,
// Documentation/interop.rst) and the host carries its value over to the
// Vulkan timeline: with a driver that exports its semaphores, CUDA would
// import the Vulkan timeline itself and the host step would go.
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "../common/sample_check.h"

#define N (1 << 16)

__host__ __device__ static float value(int i)
{
	return (float)(i % 1000) * 0.5f + (float)(i / 1000);
}

__global__ void fill(float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = value(i);
}

#define VK(call)							\
	do {								\
		VkResult r_ = (call);					\
		if (r_ != VK_SUCCESS) {					\
			fprintf(stderr, "%s:%d: %s: VkResult %d\n",	\
				__FILE__, __LINE__, #call, (int)r_);	\
			return sample_result(false);			\
		}							\
	} while (0)

static uint32_t memory_type(VkPhysicalDevice pd, uint32_t bits,
			    VkMemoryPropertyFlags want)
{
	VkPhysicalDeviceMemoryProperties mp;

	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (mp.memoryTypes[i].propertyFlags & want) == want)
			return i;
	return UINT32_MAX;
}

int main(void)
{
	const VkDeviceSize bytes = N * sizeof(float);
	VkApplicationInfo ai = { VK_STRUCTURE_TYPE_APPLICATION_INFO };
	VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO };
	VkInstance inst;
	VkPhysicalDevice pd;
	VkPhysicalDeviceProperties props;
	uint32_t n = 1;
	float prio = 1.0f;
	const char *exts[] = { VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME };
	VkPhysicalDeviceVulkan12Features f12 = {
		VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
	VkDeviceQueueCreateInfo qci = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO };
	VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO };
	VkDevice dev;
	VkQueue queue;

	ai.pApplicationName = "simpleVulkanInterop";
	ai.apiVersion = VK_API_VERSION_1_2;
	ici.pApplicationInfo = &ai;
	VK(vkCreateInstance(&ici, NULL, &inst));
	if (vkEnumeratePhysicalDevices(inst, &n, &pd) < 0 || !n) {
		fprintf(stderr, "no Vulkan device\n");
		return sample_result(false);
	}
	vkGetPhysicalDeviceProperties(pd, &props);
	printf("Vulkan device: %s\n", props.deviceName);
	f12.timelineSemaphore = VK_TRUE;
	qci.queueFamilyIndex = 0;
	qci.queueCount = 1;
	qci.pQueuePriorities = &prio;
	dci.pNext = &f12;
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.enabledExtensionCount = 1;
	dci.ppEnabledExtensionNames = exts;
	VK(vkCreateDevice(pd, &dci, NULL, &dev));
	vkGetDeviceQueue(dev, 0, 0, &queue);

	// The shared buffer: exportable memory, bound to a transfer source.
	VkExternalMemoryBufferCreateInfo ebci = {
		VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO };
	VkBufferCreateInfo bci = { VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO };
	VkMemoryRequirements req;
	VkExportMemoryAllocateInfo emai = {
		VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO };
	VkMemoryAllocateInfo mai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO };
	VkMemoryGetFdInfoKHR gfi = { VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR };
	PFN_vkGetMemoryFdKHR get_fd = (PFN_vkGetMemoryFdKHR)
		vkGetDeviceProcAddr(dev, "vkGetMemoryFdKHR");
	VkBuffer shared, readback;
	VkDeviceMemory shared_mem, readback_mem;
	int mem_fd;

	ebci.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	bci.pNext = &ebci;
	bci.size = bytes;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
	VK(vkCreateBuffer(dev, &bci, NULL, &shared));
	vkGetBufferMemoryRequirements(dev, shared, &req);
	emai.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	mai.pNext = &emai;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = memory_type(pd, req.memoryTypeBits, 0);
	VK(vkAllocateMemory(dev, &mai, NULL, &shared_mem));
	VK(vkBindBufferMemory(dev, shared, shared_mem, 0));
	gfi.memory = shared_mem;
	gfi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
	if (!get_fd) {
		fprintf(stderr, "no vkGetMemoryFdKHR\n");
		return sample_result(false);
	}
	VK(get_fd(dev, &gfi, &mem_fd));

	// Vulkan's own buffer, which the CPU reads.
	float *host;

	bci.pNext = NULL;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VK(vkCreateBuffer(dev, &bci, NULL, &readback));
	vkGetBufferMemoryRequirements(dev, readback, &req);
	mai.pNext = NULL;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = memory_type(pd, req.memoryTypeBits,
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	VK(vkAllocateMemory(dev, &mai, NULL, &readback_mem));
	VK(vkBindBufferMemory(dev, readback, readback_mem, 0));
	VK(vkMapMemory(dev, readback_mem, 0, bytes, 0, (void **)&host));
	memset(host, 0, bytes);

	// The timeline, and the copy that waits for it: submitted now.
	VkSemaphoreTypeCreateInfo stci = {
		VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO };
	VkSemaphoreCreateInfo sci = { VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
	VkSemaphore timeline;
	VkCommandPoolCreateInfo cpci = {
		VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO };
	VkCommandBufferAllocateInfo cbai = {
		VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO };
	VkCommandBufferBeginInfo cbbi = {
		VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
	VkCommandPool pool;
	VkCommandBuffer cb;
	VkBufferCopy region = { 0, 0, bytes };
	uint64_t wait_value = 1, signal_value = 2;
	VkTimelineSemaphoreSubmitInfo tssi = {
		VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO };
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo si = { VK_STRUCTURE_TYPE_SUBMIT_INFO };

	stci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
	sci.pNext = &stci;
	VK(vkCreateSemaphore(dev, &sci, NULL, &timeline));
	cpci.queueFamilyIndex = 0;
	VK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
	cbai.commandPool = pool;
	cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cbai.commandBufferCount = 1;
	VK(vkAllocateCommandBuffers(dev, &cbai, &cb));
	VK(vkBeginCommandBuffer(cb, &cbbi));
	vkCmdCopyBuffer(cb, shared, readback, 1, &region);
	VK(vkEndCommandBuffer(cb));
	tssi.waitSemaphoreValueCount = 1;
	tssi.pWaitSemaphoreValues = &wait_value;
	tssi.signalSemaphoreValueCount = 1;
	tssi.pSignalSemaphoreValues = &signal_value;
	si.pNext = &tssi;
	si.waitSemaphoreCount = 1;
	si.pWaitSemaphores = &timeline;
	si.pWaitDstStageMask = &stage;
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	si.signalSemaphoreCount = 1;
	si.pSignalSemaphores = &timeline;
	VK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));

	// CUDA: import the memory and a timeline semaphore, fill, signal.
	cudaExternalMemoryHandleDesc md;
	cudaExternalMemoryBufferDesc bd;
	cudaExternalSemaphoreHandleDesc sd;
	cudaExternalSemaphoreSignalParams sp;
	cudaExternalMemory_t ext_mem;
	cudaExternalSemaphore_t ext_sem;
	cudaStream_t stream;
	float *d;
	int sem_fd = memfd_create("cuda-timeline", MFD_CLOEXEC);
	volatile uint64_t *payload;

	if (sem_fd < 0 || ftruncate(sem_fd, 4096)) {
		perror("memfd");
		return sample_result(false);
	}
	payload = (volatile uint64_t *)mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_SHARED, sem_fd, 0);
	if (payload == MAP_FAILED) {
		perror("mmap");
		return sample_result(false);
	}
	memset(&md, 0, sizeof(md));
	md.type = cudaExternalMemoryHandleTypeOpaqueFd;
	md.handle.fd = mem_fd;
	md.size = req.size > bytes ? req.size : bytes;
	CHECK(cudaImportExternalMemory(&ext_mem, &md));
	memset(&bd, 0, sizeof(bd));
	bd.size = bytes;
	CHECK(cudaExternalMemoryGetMappedBuffer((void **)&d, ext_mem, &bd));
	memset(&sd, 0, sizeof(sd));
	sd.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
	sd.handle.fd = dup(sem_fd);
	CHECK(cudaImportExternalSemaphore(&ext_sem, &sd));
	CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	fill<<<N / 256, 256, 0, stream>>>(d, N);
	CHECK(cudaGetLastError());
	memset(&sp, 0, sizeof(sp));
	sp.params.fence.value = 1;
	CHECK(cudaSignalExternalSemaphoresAsync(&ext_sem, &sp, 1, stream));

	// The host carries CUDA's value over to the Vulkan timeline.  The
	// device stores the payload (no futex wake-up): the slice is the poll.
	while (__atomic_load_n(payload, __ATOMIC_ACQUIRE) < 1) {
		struct timespec slice = { 0, 10 * 1000 * 1000 };

		syscall(SYS_futex, (uint32_t *)payload, FUTEX_WAIT, 0, &slice,
			NULL, 0);
	}
	printf("Vulkan copy pending: %s\n",
	       host[N - 1] == 0.0f ? "yes (waiting for the timeline)" : "no");
	VkSemaphoreSignalInfo ssi = { VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO };
	VkSemaphoreWaitInfo swi = { VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO };

	ssi.semaphore = timeline;
	ssi.value = 1;
	VK(vkSignalSemaphore(dev, &ssi));
	swi.semaphoreCount = 1;
	swi.pSemaphores = &timeline;
	swi.pValues = &signal_value;
	VK(vkWaitSemaphores(dev, &swi, 10ull * 1000 * 1000 * 1000));

	int bad = 0;

	for (int i = 0; i < N; i++)
		if (host[i] != value(i) && bad++ < 5)
			fprintf(stderr, "element %d: %g, expected %g\n", i,
				host[i], value(i));
	printf("%d floats written by CUDA into Vulkan's memory, copied by "
	       "Vulkan after the timeline reached 1: %d differ from the CPU's\n",
	       N, bad);

	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaDestroyExternalSemaphore(ext_sem));
	CHECK(cudaFree(d));
	CHECK(cudaDestroyExternalMemory(ext_mem));
	vkDestroySemaphore(dev, timeline, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyBuffer(dev, shared, NULL);
	vkDestroyBuffer(dev, readback, NULL);
	vkFreeMemory(dev, shared_mem, NULL);
	vkFreeMemory(dev, readback_mem, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return sample_result(bad == 0);
}
