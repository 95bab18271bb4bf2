// SPDX-License-Identifier: GPL-2.0
/*
 * probe_interop.c - what NVIDIA's driver answers to the graphics and
 * external-resource interoperability API: OpenGL buffers and textures
 * registered, mapped twice, unmapped when not mapped, queried as the
 * wrong kind, unregistered; external memory and semaphores imported from
 * bad descriptors, and from Vulkan (an exported buffer memory and a
 * timeline semaphore) when a Vulkan driver is there.  One line per answer,
 * printed as soon as it is known (a call that crashes loses only the
 * lines after it; the calls most likely to crash come last).
 *
 * EGL, GL and Vulkan are loaded with dlopen so that the probe runs (and
 * says what is missing) where one of them is not installed.  The GL
 * context is made current without a surface: on NVIDIA's driver on the
 * EGL device platform, on Mesa on the surfaceless platform.
 *
 *   gcc -o probe_interop probe_interop.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64 -lcuda -ldl
 * (CUDA 13's stub libcuda.so lacks the GL symbols: link against any
 * libcuda.so.1 that has them, vGPU's included; NVIDIA's is used at run time)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda.h>
#include <cudaGL.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

static const char *err(CUresult r)
{
	const char *s = NULL;

	cuGetErrorName(r, &s);
	return s ? s : "?";
}

#define P(name, call) printf("%s: %s\n", name, err(call))

/* ---- EGL and GL ---------------------------------------------------------- */

static PFNEGLGETPROCADDRESSPROC egl_proc;
#define EGLF(name) ((__typeof__(&name))egl_proc(#name))

static void (*gl_gen_buffers)(GLsizei, GLuint *);
static void (*gl_bind_buffer)(GLenum, GLuint);
static void (*gl_buffer_data)(GLenum, GLsizeiptr, const void *, GLenum);
static void (*gl_get_buffer_sub_data)(GLenum, GLintptr, GLsizeiptr, void *);
static void (*gl_gen_textures)(GLsizei, GLuint *);
static void (*gl_bind_texture)(GLenum, GLuint);
static void (*gl_tex_image_2d)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint,
			       GLenum, GLenum, const void *);
static const GLubyte *(*gl_get_string)(GLenum);

static EGLDisplay egl_dpy;
static EGLContext egl_ctx;

static int gl_setup(void)
{
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_dpy;
	PFNEGLQUERYDEVICESEXTPROC query;
	void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
	EGLint n = 0;
	EGLConfig cfg;
	static const EGLint cfg_attr[] = {
		EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
		EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE
	};

	if (!lib) {
		printf("egl: not available\n");
		return -1;
	}
	egl_proc = (PFNEGLGETPROCADDRESSPROC)dlsym(lib, "eglGetProcAddress");
	get_dpy = (PFNEGLGETPLATFORMDISPLAYEXTPROC)
		egl_proc("eglGetPlatformDisplayEXT");
	query = (PFNEGLQUERYDEVICESEXTPROC)egl_proc("eglQueryDevicesEXT");
	egl_dpy = EGL_NO_DISPLAY;
	if (get_dpy && query) {
		EGLDeviceEXT devs[8];
		EGLint nd = 0;

		if (query(8, devs, &nd) && nd > 0)
			egl_dpy = get_dpy(EGL_PLATFORM_DEVICE_EXT, devs[0], NULL);
	}
	if (egl_dpy == EGL_NO_DISPLAY && get_dpy)
		egl_dpy = get_dpy(EGL_PLATFORM_SURFACELESS_MESA,
				  EGL_DEFAULT_DISPLAY, NULL);
	if (egl_dpy == EGL_NO_DISPLAY ||
	    !EGLF(eglInitialize)(egl_dpy, NULL, NULL)) {
		printf("egl: no display\n");
		return -1;
	}
	EGLF(eglBindAPI)(EGL_OPENGL_API);
	if (!EGLF(eglChooseConfig)(egl_dpy, cfg_attr, &cfg, 1, &n) || !n) {
		printf("egl: no config\n");
		return -1;
	}
	egl_ctx = EGLF(eglCreateContext)(egl_dpy, cfg, EGL_NO_CONTEXT, NULL);
	if (egl_ctx == EGL_NO_CONTEXT ||
	    !EGLF(eglMakeCurrent)(egl_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
				  egl_ctx)) {
		printf("egl: no current context\n");
		return -1;
	}
#define GLF(var, name) var = (__typeof__(var))egl_proc(name)
	GLF(gl_gen_buffers, "glGenBuffers");
	GLF(gl_bind_buffer, "glBindBuffer");
	GLF(gl_buffer_data, "glBufferData");
	GLF(gl_get_buffer_sub_data, "glGetBufferSubData");
	GLF(gl_gen_textures, "glGenTextures");
	GLF(gl_bind_texture, "glBindTexture");
	GLF(gl_tex_image_2d, "glTexImage2D");
	GLF(gl_get_string, "glGetString");
	fprintf(stderr, "GL renderer: %s\n", gl_get_string(GL_RENDERER));
	return 0;
}

static void gl_current(int on)
{
	EGLF(eglMakeCurrent)(egl_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
			     on ? egl_ctx : EGL_NO_CONTEXT);
}

static void probe_gl(CUcontext ctx)
{
	unsigned char data[1024], back[1024];
	CUgraphicsResource r = NULL, r2 = NULL, img = NULL, two[2];
	CUdeviceptr p = 0;
	size_t size = 0;
	CUarray a = NULL;
	CUmipmappedArray mm = NULL;
	GLuint buf[3], tex[3];
	unsigned int count = 0;
	CUdevice devs[4];
	int i, same = 1;

	for (i = 0; i < 1024; i++)
		data[i] = (unsigned char)(i * 7 + 1);
	gl_gen_buffers(3, buf);
	gl_bind_buffer(GL_ARRAY_BUFFER, buf[0]);
	gl_buffer_data(GL_ARRAY_BUFFER, 1024, data, GL_DYNAMIC_DRAW);
	gl_bind_buffer(GL_ARRAY_BUFFER, 0);
	/* buf[1]: a name with no storage; buf[2] never bound */

	P("gl.register_buffer.null_out",
	  cuGraphicsGLRegisterBuffer(NULL, buf[0], 0));
	P("gl.register_buffer.name0", cuGraphicsGLRegisterBuffer(&r, 0, 0));
	P("gl.register_buffer.unknown_name",
	  cuGraphicsGLRegisterBuffer(&r, 4242, 0));
	P("gl.register_buffer.unbound_name",
	  cuGraphicsGLRegisterBuffer(&r, buf[2], 0));
	P("gl.register_buffer.bad_flags",
	  cuGraphicsGLRegisterBuffer(&r, buf[0], 0x10));
	P("gl.register_buffer", cuGraphicsGLRegisterBuffer(&r, buf[0], 0));
	P("gl.register_buffer.again",
	  cuGraphicsGLRegisterBuffer(&r2, buf[0], 0));
	if (r2)
		P("gl.unregister.again_copy", cuGraphicsUnregisterResource(r2));
	P("gl.mapped_pointer.unmapped",
	  cuGraphicsResourceGetMappedPointer(&p, &size, r));
	P("gl.unmap.unmapped", cuGraphicsUnmapResources(1, &r, 0));
	P("gl.map.count0_null", cuGraphicsMapResources(0, NULL, 0));
	P("gl.map.null_array", cuGraphicsMapResources(1, NULL, 0));
	two[0] = two[1] = r;
	P("gl.map.same_twice_in_call", cuGraphicsMapResources(2, two, 0));
	P("gl.unmap.after_twice", cuGraphicsUnmapResources(1, &r, 0));
	P("gl.map", cuGraphicsMapResources(1, &r, 0));
	P("gl.map.again", cuGraphicsMapResources(1, &r, 0));
	P("gl.mapped_pointer.both_null",
	  cuGraphicsResourceGetMappedPointer(NULL, NULL, r));
	P("gl.mapped_pointer.size_only",
	  cuGraphicsResourceGetMappedPointer(NULL, &size, r));
	P("gl.mapped_pointer", cuGraphicsResourceGetMappedPointer(&p, &size, r));
	printf("gl.mapped_pointer.size: %zu\n", size);
	cuMemcpyDtoH(back, p, sizeof(back));
	printf("gl.map.contents_equal: %d\n", !memcmp(back, data, 1024));
	P("gl.sub_array.of_buffer",
	  cuGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
	P("gl.mipmapped.of_buffer",
	  cuGraphicsResourceGetMappedMipmappedArray(&mm, r));
	P("gl.set_map_flags.mapped", cuGraphicsResourceSetMapFlags(r, 1));
	cuMemsetD8(p, 0x5a, 1024);
	P("gl.unmap", cuGraphicsUnmapResources(1, &r, 0));
	gl_bind_buffer(GL_ARRAY_BUFFER, buf[0]);
	gl_get_buffer_sub_data(GL_ARRAY_BUFFER, 0, 1024, back);
	for (i = 0; i < 1024; i++)
		same &= back[i] == 0x5a;
	printf("gl.unmap.gl_sees_cuda_writes: %d\n", same);
	P("gl.set_map_flags.bad", cuGraphicsResourceSetMapFlags(r, 4));
	P("gl.set_map_flags.read_only", cuGraphicsResourceSetMapFlags(r, 1));
	P("gl.map.read_only", cuGraphicsMapResources(1, &r, 0));
	cuGraphicsResourceGetMappedPointer(&p, &size, r);
	cuMemsetD8(p, 0x11, 1024);
	P("gl.unmap.read_only", cuGraphicsUnmapResources(1, &r, 0));
	gl_get_buffer_sub_data(GL_ARRAY_BUFFER, 0, 1024, back);
	printf("gl.unmap.read_only_gl_keeps: %d\n", back[0] == 0x5a);
	gl_bind_buffer(GL_ARRAY_BUFFER, 0);
	P("gl.map.unregistered_later_ok", cuGraphicsMapResources(1, &r, 0));
	P("gl.unregister.mapped", cuGraphicsUnregisterResource(r));

	/* images */
	gl_gen_textures(3, tex);
	gl_bind_texture(GL_TEXTURE_2D, tex[0]);
	gl_tex_image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 32, 0, GL_RGBA,
			GL_UNSIGNED_BYTE, NULL);
	gl_bind_texture(GL_TEXTURE_2D, tex[1]);
	gl_tex_image_2d(GL_TEXTURE_2D, 0, GL_RGB8, 64, 32, 0, GL_RGB,
			GL_UNSIGNED_BYTE, NULL);
	gl_bind_texture(GL_TEXTURE_2D, 0);
	P("gl.register_image.bad_target",
	  cuGraphicsGLRegisterImage(&img, tex[0], GL_ARRAY_BUFFER, 0));
	P("gl.register_image.wrong_target",
	  cuGraphicsGLRegisterImage(&img, tex[0], GL_TEXTURE_3D, 0));
	P("gl.register_image.unknown_name",
	  cuGraphicsGLRegisterImage(&img, 4243, GL_TEXTURE_2D, 0));
	P("gl.register_image.no_storage",
	  cuGraphicsGLRegisterImage(&img, tex[2], GL_TEXTURE_2D, 0));
	img = NULL;
	P("gl.register_image.rgb8",
	  cuGraphicsGLRegisterImage(&img, tex[1], GL_TEXTURE_2D, 0));
	if (img)
		cuGraphicsUnregisterResource(img);
	P("gl.register_image.bad_flags",
	  cuGraphicsGLRegisterImage(&img, tex[0], GL_TEXTURE_2D, 0x10));
	P("gl.register_image",
	  cuGraphicsGLRegisterImage(&img, tex[0], GL_TEXTURE_2D,
				    CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST));
	P("gl.sub_array.unmapped",
	  cuGraphicsSubResourceGetMappedArray(&a, img, 0, 0));
	P("gl.map.image", cuGraphicsMapResources(1, &img, 0));
	P("gl.sub_array", cuGraphicsSubResourceGetMappedArray(&a, img, 0, 0));
	if (a) {
		CUDA_ARRAY3D_DESCRIPTOR d;

		cuArray3DGetDescriptor(&d, a);
		printf("gl.sub_array.desc: %zux%zux%zu fmt %d ch %u flags %u\n",
		       d.Width, d.Height, d.Depth, (int)d.Format,
		       d.NumChannels, d.Flags);
	}
	P("gl.sub_array.null_out",
	  cuGraphicsSubResourceGetMappedArray(NULL, img, 0, 0));
	P("gl.sub_array.index1",
	  cuGraphicsSubResourceGetMappedArray(&a, img, 1, 0));
	P("gl.sub_array.level1",
	  cuGraphicsSubResourceGetMappedArray(&a, img, 0, 1));
	P("gl.mapped_pointer.of_image",
	  cuGraphicsResourceGetMappedPointer(&p, &size, img));
	P("gl.mipmapped.of_image",
	  cuGraphicsResourceGetMappedMipmappedArray(&mm, img));
	P("gl.unmap.image", cuGraphicsUnmapResources(1, &img, 0));
	P("gl.unregister.image", cuGraphicsUnregisterResource(img));

	P("gl.get_devices.all",
	  cuGLGetDevices(&count, devs, 4, CU_GL_DEVICE_LIST_ALL));
	printf("gl.get_devices.count: %u\n", count);
	P("gl.get_devices.bad_list",
	  cuGLGetDevices(&count, devs, 4, (CUGLDeviceList)9));
	P("gl.get_devices.null_count",
	  cuGLGetDevices(NULL, devs, 4, CU_GL_DEVICE_LIST_ALL));

	gl_current(0);
	P("gl.register_buffer.no_gl_context",
	  cuGraphicsGLRegisterBuffer(&r, buf[0], 0));
	P("gl.get_devices.no_gl_context",
	  cuGLGetDevices(&count, devs, 4, CU_GL_DEVICE_LIST_ALL));
	gl_current(1);
	cuCtxSetCurrent(NULL);
	P("gl.register_buffer.no_cuda_context",
	  cuGraphicsGLRegisterBuffer(&r, buf[0], 0));
	cuCtxSetCurrent(ctx);
	r = NULL;
	P("gl.map.null_handle", cuGraphicsMapResources(1, &r, 0));
	P("gl.unregister.null", cuGraphicsUnregisterResource(NULL));
	P("gl.set_map_flags.null", cuGraphicsResourceSetMapFlags(NULL, 0));
	P("gl.mapped_pointer.null",
	  cuGraphicsResourceGetMappedPointer(&p, &size, NULL));
	fflush(stdout);
}

/* ---- external memory and semaphores, bad descriptors --------------------- */

static void probe_ext_bad(void)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC md;
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUexternalMemory m = NULL;
	CUexternalSemaphore s = NULL;
	int fd = memfd_create("probe", 0);
	/*
	 * The semaphore's own descriptor: a driver that imports the memfd as
	 * memory owns (and closes) fd.  (The H100 run took dup(fd) after its
	 * failed memory import: the same object either way.)
	 */
	int sem_fd = dup(fd);

	if (ftruncate(fd, 65536))
		return;
	P("ext.import_memory.null_desc", cuImportExternalMemory(&m, NULL));
	memset(&md, 0, sizeof(md));
	md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	md.handle.fd = fd;
	md.size = 65536;
	P("ext.import_memory.null_out", cuImportExternalMemory(NULL, &md));
	md.size = 0;
	P("ext.import_memory.size0", cuImportExternalMemory(&m, &md));
	md.size = 65536;
	md.flags = 2;
	P("ext.import_memory.bad_flags", cuImportExternalMemory(&m, &md));
	md.flags = 0;
	md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
	P("ext.import_memory.win32", cuImportExternalMemory(&m, &md));
	md.type = (CUexternalMemoryHandleType)99;
	P("ext.import_memory.bad_type", cuImportExternalMemory(&m, &md));
	md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	md.handle.fd = -1;
	P("ext.import_memory.fd_minus1", cuImportExternalMemory(&m, &md));
	md.handle.fd = fd;
	P("ext.import_memory.memfd", cuImportExternalMemory(&m, &md));

	memset(&sd, 0, sizeof(sd));
	P("ext.import_sem.null_desc", cuImportExternalSemaphore(&s, NULL));
	sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	sd.handle.fd = -1;
	P("ext.import_sem.fd_minus1", cuImportExternalSemaphore(&s, &sd));
	sd.type = (CUexternalSemaphoreHandleType)99;
	P("ext.import_sem.bad_type", cuImportExternalSemaphore(&s, &sd));
	sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	sd.handle.fd = sem_fd;
	sd.flags = 1;
	P("ext.import_sem.bad_flags", cuImportExternalSemaphore(&s, &sd));
	sd.flags = 0;
	P("ext.import_sem.memfd", cuImportExternalSemaphore(&s, &sd));
	memset(&sp, 0, sizeof(sp));
	P("ext.signal.count0",
	  cuSignalExternalSemaphoresAsync(NULL, NULL, 0, 0));
	P("ext.signal.null_arrays",
	  cuSignalExternalSemaphoresAsync(NULL, NULL, 1, 0));
	fflush(stdout);
}

/* ---- Vulkan -------------------------------------------------------------- */

static PFN_vkGetInstanceProcAddr vk_gipa;
#define VKI(inst, name) ((PFN_##name)vk_gipa(inst, #name))

static void probe_vulkan(void)
{
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
	VkInstance inst;
	VkPhysicalDevice pd;
	VkDevice dev;
	uint32_t n = 1, qf = 0;
	float prio = 1.0f;
	VkDeviceMemory mem;
	VkSemaphore sem;
	int fd = -1, sfd = -1;
	uint64_t value = 0;
	CUexternalMemory m = NULL;
	CUexternalSemaphore s = NULL;
	CUdeviceptr p = 0;
	CUmipmappedArray mm = NULL;
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC md;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
	CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC ad;
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC sd;
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	VkApplicationInfo ai = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL,
				 "probe", 1, "probe", 1, VK_API_VERSION_1_2 };
	VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     NULL, 0, &ai, 0, NULL, 0, NULL };
	const char *exts[] = { "VK_KHR_external_memory_fd",
			       "VK_KHR_external_semaphore_fd" };
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
	VkDeviceQueueCreateInfo qci = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
					NULL, 0, 0, 1, &prio };
	VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12, 0,
				   1, &qci, 0, NULL, 2, exts, NULL };
	VkExportMemoryAllocateInfo emai = {
		VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
		VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkMemoryAllocateInfo mai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				     &emai, 1 << 20, 0 };
	VkMemoryGetFdInfoKHR mgfi = { VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
				      NULL, VK_NULL_HANDLE,
				      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkSemaphoreTypeCreateInfo stci = {
		VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
		VK_SEMAPHORE_TYPE_TIMELINE, 0 };
	VkExportSemaphoreCreateInfo esci = {
		VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &stci,
		VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkSemaphoreCreateInfo sci = { VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
				      &esci, 0 };
	VkSemaphoreGetFdInfoKHR sgfi = {
		VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, NULL,
		VK_NULL_HANDLE, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkPhysicalDeviceMemoryProperties mp;
	uint32_t i;

	if (!lib) {
		printf("vk: not available\n");
		return;
	}
	vk_gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
	if (VKI(NULL, vkCreateInstance)(&ici, NULL, &inst) ||
	    VKI(inst, vkEnumeratePhysicalDevices)(inst, &n, &pd) < 0 || !n) {
		printf("vk: no device\n");
		return;
	}
	f12.timelineSemaphore = VK_TRUE;
	qci.queueFamilyIndex = qf;
	/* Semaphore fds only where the driver has them (not lavapipe). */
	{
		VkExtensionProperties e[512];
		uint32_t ne = 512, k;

		dci.enabledExtensionCount = 1;
		VKI(inst, vkEnumerateDeviceExtensionProperties)(pd, NULL, &ne, e);
		for (k = 0; k < ne; k++)
			if (!strcmp(e[k].extensionName, exts[1]))
				dci.enabledExtensionCount = 2;
	}
	if (VKI(inst, vkCreateDevice)(pd, &dci, NULL, &dev)) {
		printf("vk: no device with external fds\n");
		return;
	}
	VKI(inst, vkGetPhysicalDeviceMemoryProperties)(pd, &mp);
	for (i = 0; i < mp.memoryTypeCount; i++)
		if (mp.memoryTypes[i].propertyFlags &
		    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
			break;
	mai.memoryTypeIndex = i < mp.memoryTypeCount ? i : 0;
	if (VKI(inst, vkAllocateMemory)(dev, &mai, NULL, &mem)) {
		printf("vk: no exportable memory\n");
		goto out_dev;
	}
	mgfi.memory = mem;
	if (VKI(inst, vkGetMemoryFdKHR)(dev, &mgfi, &fd)) {
		printf("vk: no memory fd\n");
		goto out_mem;
	}
	memset(&md, 0, sizeof(md));
	md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	md.handle.fd = fd;
	md.size = 1 << 20;
	P("vk.import_memory", cuImportExternalMemory(&m, &md));
	memset(&bd, 0, sizeof(bd));
	bd.offset = 1 << 20;
	bd.size = 4096;
	P("vk.mapped_buffer.past_end", cuExternalMemoryGetMappedBuffer(&p, m, &bd));
	bd.offset = 4096;
	bd.size = 1 << 20;
	P("vk.mapped_buffer.too_big", cuExternalMemoryGetMappedBuffer(&p, m, &bd));
	bd.size = 4096;
	bd.flags = 1;
	P("vk.mapped_buffer.bad_flags", cuExternalMemoryGetMappedBuffer(&p, m, &bd));
	bd.flags = 0;
	bd.size = 0;
	P("vk.mapped_buffer.size0", cuExternalMemoryGetMappedBuffer(&p, m, &bd));
	bd.size = 4096;
	P("vk.mapped_buffer.null_out",
	  cuExternalMemoryGetMappedBuffer(NULL, m, &bd));
	P("vk.mapped_buffer", cuExternalMemoryGetMappedBuffer(&p, m, &bd));
	P("vk.mapped_buffer.memset", cuMemsetD32(p, 0x12345678, 1024));
	P("vk.mapped_buffer.free", cuMemFree(p));
	memset(&ad, 0, sizeof(ad));
	ad.arrayDesc.Width = 64;
	ad.arrayDesc.Height = 64;
	ad.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
	ad.arrayDesc.NumChannels = 4;
	ad.numLevels = 0;
	P("vk.mipmapped.levels0",
	  cuExternalMemoryGetMappedMipmappedArray(&mm, m, &ad));
	ad.numLevels = 1;
	P("vk.mipmapped", cuExternalMemoryGetMappedMipmappedArray(&mm, m, &ad));
	if (mm)
		P("vk.mipmapped.destroy", cuMipmappedArrayDestroy(mm));
	P("vk.destroy_memory", cuDestroyExternalMemory(m));

	if (VKI(inst, vkCreateSemaphore)(dev, &sci, NULL, &sem)) {
		printf("vk: no exportable timeline semaphore\n");
		goto out_mem;
	}
	sgfi.semaphore = sem;
	if (VKI(inst, vkGetSemaphoreFdKHR)(dev, &sgfi, &sfd)) {
		printf("vk: no semaphore fd\n");
		goto out_sem;
	}
	memset(&sd, 0, sizeof(sd));
	sd.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	sd.handle.fd = sfd;
	P("vk.import_timeline", cuImportExternalSemaphore(&s, &sd));
	memset(&sp, 0, sizeof(sp));
	sp.params.fence.value = 5;
	P("vk.signal", cuSignalExternalSemaphoresAsync(&s, &sp, 1, 0));
	memset(&wp, 0, sizeof(wp));
	wp.params.fence.value = 5;
	P("vk.wait", cuWaitExternalSemaphoresAsync(&s, &wp, 1, 0));
	P("vk.sync", cuCtxSynchronize());
	VKI(inst, vkGetSemaphoreCounterValue)(dev, sem, &value);
	printf("vk.counter_value: %llu\n", (unsigned long long)value);
	sp.flags = 4;
	P("vk.signal.bad_flags", cuSignalExternalSemaphoresAsync(&s, &sp, 1, 0));
	P("vk.destroy_sem", cuDestroyExternalSemaphore(s));
out_sem:
	VKI(inst, vkDestroySemaphore)(dev, sem, NULL);
out_mem:
	VKI(inst, vkFreeMemory)(dev, mem, NULL);
out_dev:
	/* Vulkan's objects go, so that a leak checker sees only ours. */
	VKI(inst, vkDestroyDevice)(dev, NULL);
	VKI(inst, vkDestroyInstance)(inst, NULL);
	fflush(stdout);
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;
	char name[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDeviceGetName(name, sizeof(name), dev);
	printf("device: %s\n", name);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (!gl_setup())
		probe_gl(ctx);
	probe_ext_bad();
	probe_vulkan();
	return 0;
}
