/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interop_vk.h - a Vulkan device for the interop tests and samples
 * (Mesa's lavapipe in the guest): an instance and a device with
 * VK_KHR_external_memory_fd, loaded with dlopen, and exportable
 * host-visible memory.
 */
#ifndef VGPU_INTEROP_VK_H
#define VGPU_INTEROP_VK_H

#include <dlfcn.h>
#include <stddef.h>
#include <vulkan/vulkan.h>

struct vk_dev {
	PFN_vkGetInstanceProcAddr gipa;
	VkInstance inst;
	VkPhysicalDevice pd;
	VkDevice dev;
	VkQueue queue;
	uint32_t host_type;	/* a HOST_VISIBLE | HOST_COHERENT type */
};

#define VK_FN(v, name) ((PFN_##name)(v)->gipa((v)->inst, #name))

/* 0, or -1 with *@why set. */
static inline int vk_dev_setup(struct vk_dev *v, const char **why)
{
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
	VkApplicationInfo ai = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL,
				 "vgpu-interop", 1, "vgpu", 1,
				 VK_API_VERSION_1_2 };
	VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     NULL, 0, &ai, 0, NULL, 0, NULL };
	static const char *exts[] = { "VK_KHR_external_memory_fd" };
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.timelineSemaphore = VK_TRUE };
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1,
		&prio };
	VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12,
				   0, 1, &qci, 0, NULL, 1, exts, NULL };
	VkPhysicalDeviceMemoryProperties mp;
	VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
				     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	uint32_t n = 1, i;

	*why = "no libvulkan.so.1";
	if (!lib)
		return -1;
	v->gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib,
						   "vkGetInstanceProcAddr");
	v->inst = NULL;
	*why = "no Vulkan instance";
	if (!v->gipa || VK_FN(v, vkCreateInstance)(&ici, NULL, &v->inst))
		return -1;
	*why = "no Vulkan device";
	if (VK_FN(v, vkEnumeratePhysicalDevices)(v->inst, &n, &v->pd) < 0 ||
	    !n)
		return -1;
	*why = "no device with VK_KHR_external_memory_fd";
	if (VK_FN(v, vkCreateDevice)(v->pd, &dci, NULL, &v->dev))
		return -1;
	VK_FN(v, vkGetDeviceQueue)(v->dev, 0, 0, &v->queue);
	VK_FN(v, vkGetPhysicalDeviceMemoryProperties)(v->pd, &mp);
	for (i = 0; i < mp.memoryTypeCount; i++)
		if ((mp.memoryTypes[i].propertyFlags & want) == want)
			break;
	*why = "no host-visible memory";
	if (i == mp.memoryTypeCount)
		return -1;
	v->host_type = i;
	return 0;
}

/*
 * @size bytes of exportable host-visible memory, and its OPAQUE_FD; 0, or
 * -1.  @buffer (not NULL): a transfer buffer bound to all of it.
 */
static inline int vk_export_memory(struct vk_dev *v, VkDeviceSize size,
				   VkDeviceMemory *mem, VkBuffer *buffer,
				   int *fd)
{
	VkExternalMemoryBufferCreateInfo ebci = {
		VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, NULL,
		VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkBufferCreateInfo bci = { VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &ebci,
				   0, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
				   VK_BUFFER_USAGE_TRANSFER_DST_BIT,
				   VK_SHARING_MODE_EXCLUSIVE, 0, NULL };
	VkExportMemoryAllocateInfo emai = {
		VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
		VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkMemoryAllocateInfo mai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				     &emai, size, v->host_type };
	VkMemoryGetFdInfoKHR gfi = { VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
				     NULL, VK_NULL_HANDLE,
				     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };

	if (buffer &&
	    VK_FN(v, vkCreateBuffer)(v->dev, &bci, NULL, buffer))
		return -1;
	if (VK_FN(v, vkAllocateMemory)(v->dev, &mai, NULL, mem))
		return -1;
	if (buffer &&
	    VK_FN(v, vkBindBufferMemory)(v->dev, *buffer, *mem, 0))
		return -1;
	gfi.memory = *mem;
	return VK_FN(v, vkGetMemoryFdKHR)(v->dev, &gfi, fd) ? -1 : 0;
}

#endif /* VGPU_INTEROP_VK_H */
