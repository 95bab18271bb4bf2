// SPDX-License-Identifier: GPL-2.0
/*
 * probe_extsem.c - what NVIDIA's driver answers for Vulkan semaphores
 * imported into CUDA: timeline and binary semaphores imported as either
 * handle type, signalled and waited on by CUDA and by Vulkan (both ways),
 * bad flags, a count of zero, a destroyed handle; the graph nodes that
 * signal and wait (added, queried, changed in a graph and in an
 * executable graph) and stream capture of the signal and wait calls.
 *
 * Crash-proof: every case runs in a child process of its own (fork
 * before anything touches CUDA or Vulkan), so a driver that aborts (the
 * last interop probe lost its tail that way) loses one case, and the
 * parent says so: "CASE: crashed (signal N)".
 *
 * Where no Vulkan driver exports semaphores (lavapipe: vGPU's guest), the
 * probe takes vGPU's convention instead (Documentation/interop.rst): a
 * semaphore is a memfd whose first u64 is the payload, read and written
 * by "the Vulkan side" directly, and exported memory is a memfd.  Lines
 * that only Vulkan can give (a queue submission) are then not printed.
 * test_cu_probe_extsem runs it so against vGPU and compares its lines
 * with the H100's by name.
 *
 *   gcc -o probe_extsem probe_extsem.c -I/usr/local/cuda/include \
 *       -L/usr/local/cuda/lib64/stubs -lcuda -ldl -lpthread
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

static const char *err(CUresult r)
{
	const char *s = NULL;

	cuGetErrorName(r, &s);
	return s ? s : "?";
}

#define P(name, call) printf("%s: %s\n", name, err(call))

/* ---- one Vulkan device with exportable semaphores ------------------------ */

static int conv;	/* no Vulkan semaphores: vGPU's memfd convention */
static PFN_vkGetInstanceProcAddr vk_gipa;
static VkInstance inst;
static VkDevice dev;
static VkQueue queue;
#define VKI(name) ((PFN_##name)vk_gipa(inst, #name))

static int vk_setup(void)
{
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
	VkPhysicalDevice pd;
	uint32_t n = 1;
	float prio = 1.0f;
	VkApplicationInfo ai = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL,
				 "probe", 1, "probe", 1, VK_API_VERSION_1_2 };
	VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     NULL, 0, &ai, 0, NULL, 0, NULL };
	const char *exts[] = { "VK_KHR_external_memory_fd",
			       "VK_KHR_external_semaphore_fd" };
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.timelineSemaphore = VK_TRUE };
	VkDeviceQueueCreateInfo qci = {
		VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1,
		&prio };
	VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12,
				   0, 1, &qci, 0, NULL, 2, exts, NULL };

	VkResult r;

	if (getenv("PROBE_EXTSEM_CONVENTION")) {
		conv = 1;
		return 0;
	}
	if (!lib) {
		printf("vk: no libvulkan.so.1\n");
		return -1;
	}
	vk_gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib,
						   "vkGetInstanceProcAddr");
	r = VKI(vkCreateInstance)(&ici, NULL, &inst);
	if (r) {
		printf("vk: vkCreateInstance %d\n", (int)r);
		return -1;
	}
	r = VKI(vkEnumeratePhysicalDevices)(inst, &n, &pd);
	if (r < 0 || !n) {
		printf("vk: vkEnumeratePhysicalDevices %d, %u\n", (int)r, n);
		return -1;
	}
	r = VKI(vkCreateDevice)(pd, &dci, NULL, &dev);
	if (r) {
		printf("vk: vkCreateDevice %d\n", (int)r);
		return -1;
	}
	VKI(vkGetDeviceQueue)(dev, 0, 0, &queue);
	return 0;
}

/* A semaphore as "the Vulkan side" sees it. */
struct psem {
	VkSemaphore vs;
	volatile uint64_t *payload;	/* vGPU's convention */
};

/* vGPU's convention: a memfd, its payload mapped here; the fd to import. */
static int conv_sem(struct psem *out)
{
	int fd = memfd_create("probe-sem", 0);

	if (fd < 0 || ftruncate(fd, 4096))
		return -1;
	out->payload = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
	return out->payload == MAP_FAILED ? -1 : dup(fd);
}

/* An exportable semaphore (OPAQUE_FD) and its fd; -1 if none. */
static int vk_sem(int timeline, uint64_t initial, struct psem *ps)
{
	VkSemaphore *out = &ps->vs;
	VkSemaphoreTypeCreateInfo stci = {
		VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
		timeline ? VK_SEMAPHORE_TYPE_TIMELINE : VK_SEMAPHORE_TYPE_BINARY,
		initial };
	VkExportSemaphoreCreateInfo esci = {
		VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &stci,
		VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkSemaphoreCreateInfo sci = { VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
				      &esci, 0 };
	VkSemaphoreGetFdInfoKHR gfi = {
		VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, NULL,
		VK_NULL_HANDLE, VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT };
	int fd = -1;

	if (conv)
		return conv_sem(ps);
	if (VKI(vkCreateSemaphore)(dev, &sci, NULL, out))
		return -1;
	gfi.semaphore = *out;
	if (VKI(vkGetSemaphoreFdKHR)(dev, &gfi, &fd))
		return -1;
	return fd;
}

static uint64_t vk_counter(struct psem s)
{
	uint64_t v = 0;

	if (conv)
		return __atomic_load_n(s.payload, __ATOMIC_SEQ_CST);
	VKI(vkGetSemaphoreCounterValue)(dev, s.vs, &v);
	return v;
}

/* The host's signal (vkSignalSemaphore). */
static void vk_host_signal(struct psem s, uint64_t v)
{
	VkSemaphoreSignalInfo si = { VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
				     NULL, s.vs, v };

	if (conv)
		__atomic_store_n(s.payload, v, __ATOMIC_SEQ_CST);
	else
		VKI(vkSignalSemaphore)(dev, &si);
}

/* The host's wait (vkWaitSemaphores): its VkResult. */
static int vk_host_wait(struct psem s, uint64_t v, uint64_t timeout_ns)
{
	VkSemaphoreWaitInfo wi = { VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
				   NULL, 0, 1, &s.vs, &v };
	struct timespec ms = { 0, 1000 * 1000 };

	if (!conv)
		return (int)VKI(vkWaitSemaphores)(dev, &wi, timeout_ns);
	for (; timeout_ns; timeout_ns -= timeout_ns < 1000000 ? timeout_ns :
							1000000) {
		if (vk_counter(s) >= v)
			return VK_SUCCESS;
		nanosleep(&ms, NULL);
	}
	return VK_TIMEOUT;
}

/* Import @fd as @type into *@out. */
static CUresult cu_import(int fd, CUexternalSemaphoreHandleType type,
			  CUexternalSemaphore *out)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;

	memset(&d, 0, sizeof(d));
	d.type = type;
	d.handle.fd = fd;
	return cuImportExternalSemaphore(out, &d);
}

static CUresult sig(CUexternalSemaphore s, uint64_t v, unsigned int flags,
		    CUstream st)
{
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p;

	memset(&p, 0, sizeof(p));
	p.params.fence.value = v;
	p.flags = flags;
	return cuSignalExternalSemaphoresAsync(&s, &p, 1, st);
}

static CUresult wai(CUexternalSemaphore s, uint64_t v, unsigned int flags,
		    CUstream st)
{
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p;

	memset(&p, 0, sizeof(p));
	p.params.fence.value = v;
	p.flags = flags;
	return cuWaitExternalSemaphoresAsync(&s, &p, 1, st);
}

/* A timeline semaphore imported as TIMELINE_SEMAPHORE_FD, or exit. */
static CUexternalSemaphore timeline(struct psem *vs)
{
	CUexternalSemaphore s = NULL;
	int fd = vk_sem(1, 0, vs);

	if (fd < 0 || cu_import(fd,
		CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD, &s)) {
		printf("setup: no timeline semaphore\n");
		exit(1);
	}
	return s;
}

/* ---- the cases ----------------------------------------------------------- */

static void case_import(void)
{
	static const struct {
		const char *name;
		int timeline;
		CUexternalSemaphoreHandleType type;
	} t[] = {
		{ "import.timeline_as_timeline", 1,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD },
		{ "import.timeline_as_opaque", 1,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD },
		{ "import.binary_as_opaque", 0,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD },
		{ "import.binary_as_timeline", 0,
		  CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct psem vs;
		CUexternalSemaphore s = NULL;
		int fd = vk_sem(t[i].timeline, 0, &vs);
		CUresult r = cu_import(fd, t[i].type, &s);

		printf("%s: %s\n", t[i].name, err(r));
		if (r == CUDA_SUCCESS) {
			P("import.then_signal", sig(s, 1, 0, 0));
			P("import.then_sync", cuCtxSynchronize());
			if (t[i].timeline)
				printf("import.then_counter: %llu\n",
				       (unsigned long long)vk_counter(vs));
			cuDestroyExternalSemaphore(s);
		}
	}
}

static void case_timeline(void)
{
	struct psem vs;
	CUexternalSemaphore s = timeline(&vs);
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;

	P("timeline.signal5", sig(s, 5, 0, 0));
	P("timeline.wait5", wai(s, 5, 0, 0));
	P("timeline.sync", cuCtxSynchronize());
	printf("timeline.counter: %llu\n", (unsigned long long)vk_counter(vs));
	P("timeline.wait_reached3", wai(s, 3, 0, 0));
	P("timeline.sync_reached3", cuCtxSynchronize());
	P("timeline.signal_lower3", sig(s, 3, 0, 0));
	P("timeline.sync_lower3", cuCtxSynchronize());
	printf("timeline.counter_after_lower: %llu\n",
	       (unsigned long long)vk_counter(vs));
	P("timeline.signal_same5", sig(s, 5, 0, 0));
	P("timeline.sync_same5", cuCtxSynchronize());
	P("timeline.signal.flags1", sig(s, 6, 1, 0));
	P("timeline.signal.flags2", sig(s, 6, 2, 0));
	P("timeline.signal.flags4", sig(s, 6, 4, 0));
	P("timeline.wait.flags1", wai(s, 1, 1, 0));
	P("timeline.wait.flags2", wai(s, 1, 2, 0));
	P("timeline.sync_flags", cuCtxSynchronize());
	memset(&sp, 0, sizeof(sp));
	memset(&wp, 0, sizeof(wp));
	P("timeline.signal.count0", cuSignalExternalSemaphoresAsync(&s, &sp,
								    0, 0));
	P("timeline.wait.count0", cuWaitExternalSemaphoresAsync(&s, &wp, 0,
								0));
	P("timeline.signal.null_params", cuSignalExternalSemaphoresAsync(&s,
							NULL, 1, 0));
	P("timeline.wait.null_sems", cuWaitExternalSemaphoresAsync(NULL, &wp,
							1, 0));
	sp.params.keyedMutex.key = 77;
	sp.params.fence.value = 8;
	P("timeline.signal.keyed_key", cuSignalExternalSemaphoresAsync(&s,
							&sp, 1, 0));
	P("timeline.sync_keyed", cuCtxSynchronize());
	printf("timeline.counter_end: %llu\n",
	       (unsigned long long)vk_counter(vs));
	P("timeline.destroy", cuDestroyExternalSemaphore(s));
	/* NVIDIA's driver crashes on the double destroy: last. */
	P("timeline.destroy_null", cuDestroyExternalSemaphore(NULL));
	P("timeline.signal_destroyed", sig(s, 9, 0, 0));
	P("timeline.destroy_twice", cuDestroyExternalSemaphore(s));
}

struct later {
	struct psem s;
	uint64_t v;
};

static void *vk_signal_later(void *arg)
{
	struct later *l = arg;
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	vk_host_signal(l->s, l->v);
	return NULL;
}

/* CUDA waits for Vulkan's host signal; Vulkan waits for CUDA's signal. */
static void case_both_ways(void)
{
	struct psem vs;
	CUexternalSemaphore s = timeline(&vs);
	CUstream st;
	pthread_t t;
	struct later l;

	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	P("ways.cuda_waits_vk", wai(s, 7, 0, st));
	P("ways.query_before", cuStreamQuery(st));
	l.s = vs;
	l.v = 7;
	pthread_create(&t, NULL, vk_signal_later, &l);
	P("ways.sync_after_vk_signal", cuStreamSynchronize(st));
	pthread_join(t, NULL);
	P("ways.cuda_signals_vk", sig(s, 9, 0, st));
	printf("ways.vk_wait: %d\n", vk_host_wait(vs, 9, 5000000000ull));
	printf("ways.counter: %llu\n", (unsigned long long)vk_counter(vs));
	/* A queue submission waits for CUDA, then signals for CUDA. */
	if (!conv) {
		uint64_t wv = 11, sv = 12;
		VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
		VkTimelineSemaphoreSubmitInfo tsi = {
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, NULL,
			1, &wv, 1, &sv };
		VkSubmitInfo si = { VK_STRUCTURE_TYPE_SUBMIT_INFO, &tsi, 1,
				    &vs.vs, &stage, 0, NULL, 1, &vs.vs };

		printf("ways.vk_submit: %d\n",
		       (int)VKI(vkQueueSubmit)(queue, 1, &si, VK_NULL_HANDLE));
		P("ways.cuda_signal11", sig(s, 11, 0, st));
		P("ways.cuda_wait12", wai(s, 12, 0, st));
		P("ways.sync_submit", cuStreamSynchronize(st));
		printf("ways.counter_submit: %llu\n",
		       (unsigned long long)vk_counter(vs));
	}
	cuDestroyExternalSemaphore(s);
}

static void case_binary(void)
{
	struct psem vs;
	CUexternalSemaphore s = NULL;
	int fd = vk_sem(0, 0, &vs);
	CUstream st;

	P("binary.import", cu_import(fd,
		CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, &s));
	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	P("binary.signal", sig(s, 0, 0, st));
	P("binary.wait", wai(s, 0, 0, st));
	P("binary.sync", cuStreamSynchronize(st));
	P("binary.signal_value5", sig(s, 5, 0, st));
	P("binary.wait_value5", wai(s, 5, 0, st));
	P("binary.sync_value5", cuStreamSynchronize(st));
	P("binary.wait_unsignalled", wai(s, 0, 0, st));
	P("binary.query_unsignalled", cuStreamQuery(st));
	P("binary.signal_other_stream", sig(s, 0, 0, NULL));
	P("binary.sync_unsignalled", cuStreamSynchronize(st));
	cuDestroyExternalSemaphore(s);
}

static void case_graph(void)
{
	struct psem vs;
	CUexternalSemaphore s = timeline(&vs), two[2] = { s, s };
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS snp, got;
	CUDA_EXT_SEM_WAIT_NODE_PARAMS wnp, wgot;
	CUgraph g;
	CUgraphNode sn = NULL, wn = NULL, en = NULL, x = NULL;
	CUgraphExec e = NULL;
	CUgraphNodeType type;
	CUgraphNodeParams gp;

	memset(sp, 0, sizeof(sp));
	memset(wp, 0, sizeof(wp));
	sp[0].params.fence.value = 11;
	sp[1].params.fence.value = 12;
	wp[0].params.fence.value = 11;
	cuGraphCreate(&g, 0);
	snp.extSemArray = two;
	snp.paramsArray = sp;
	snp.numExtSems = 0;
	P("graph.add_signal.count0",
	  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0, &snp));
	snp.numExtSems = 1;
	P("graph.add_signal.null_node_params",
	  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0, NULL));
	sp[0].flags = 2;
	P("graph.add_signal.bad_flags",
	  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0, &snp));
	sp[0].flags = 0;
	{
		CUexternalSemaphore bogus = (CUexternalSemaphore)&g;

		snp.extSemArray = &bogus;
		P("graph.add_signal.bad_sem",
		  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0,
							 &snp));
		snp.extSemArray = two;
	}
	P("graph.add_signal",
	  cuGraphAddExternalSemaphoresSignalNode(&sn, g, NULL, 0, &snp));
	cuGraphNodeGetType(sn, &type);
	printf("graph.signal_type: %d\n", (int)type);
	memset(&got, 0, sizeof(got));
	P("graph.signal_get", cuGraphExternalSemaphoresSignalNodeGetParams(sn,
									  &got));
	printf("graph.signal_get.count: %u same_arrays: %d value: %llu\n",
	       got.numExtSems, got.extSemArray == two || got.paramsArray == sp,
	       got.paramsArray ? (unsigned long long)
	       got.paramsArray[0].params.fence.value : 0ull);
	P("graph.signal_get.null",
	  cuGraphExternalSemaphoresSignalNodeGetParams(sn, NULL));
	wnp.extSemArray = two;
	wnp.paramsArray = wp;
	wnp.numExtSems = 1;
	P("graph.add_wait",
	  cuGraphAddExternalSemaphoresWaitNode(&wn, g, &sn, 1, &wnp));
	P("graph.wait_get_on_signal_node",
	  cuGraphExternalSemaphoresWaitNodeGetParams(sn, &wgot));
	P("graph.wait_get", cuGraphExternalSemaphoresWaitNodeGetParams(wn,
								     &wgot));
	printf("graph.wait_get.count: %u value: %llu\n", wgot.numExtSems,
	       wgot.paramsArray ? (unsigned long long)
	       wgot.paramsArray[0].params.fence.value : 0ull);
	cuGraphAddEmptyNode(&en, g, NULL, 0);
	P("graph.signal_get_on_empty",
	  cuGraphExternalSemaphoresSignalNodeGetParams(en, &got));
	sp[0].params.fence.value = 13;
	/*
	 * The H100 run had 12 here: the node then left the counter at 12 and
	 * the wait for 13 below never ended (the recording stops there).
	 */
	sp[1].params.fence.value = 13;
	snp.numExtSems = 2;
	P("graph.signal_set2",
	  cuGraphExternalSemaphoresSignalNodeSetParams(sn, &snp));
	cuGraphExternalSemaphoresSignalNodeGetParams(sn, &got);
	printf("graph.signal_set2.count: %u value: %llu\n", got.numExtSems,
	       (unsigned long long)got.paramsArray[0].params.fence.value);
	wp[0].params.fence.value = 13;
	cuGraphExternalSemaphoresWaitNodeSetParams(wn, &wnp);
	P("graph.instantiate", cuGraphInstantiate(&e, g, 0));
	P("graph.launch", cuGraphLaunch(e, 0));
	P("graph.sync", cuCtxSynchronize());
	printf("graph.counter: %llu\n", (unsigned long long)vk_counter(vs));
	sp[0].params.fence.value = 20;
	sp[1].params.fence.value = 21;
	P("graph.exec_set", cuGraphExecExternalSemaphoresSignalNodeSetParams(
		e, sn, &snp));
	snp.numExtSems = 1;
	P("graph.exec_set.other_count",
	  cuGraphExecExternalSemaphoresSignalNodeSetParams(e, sn, &snp));
	snp.numExtSems = 2;
	P("graph.exec_set.wrong_type",
	  cuGraphExecExternalSemaphoresWaitNodeSetParams(e, sn, &wnp));
	wp[0].params.fence.value = 21;
	P("graph.exec_set_wait",
	  cuGraphExecExternalSemaphoresWaitNodeSetParams(e, wn, &wnp));
	P("graph.launch2", cuGraphLaunch(e, 0));
	P("graph.sync2", cuCtxSynchronize());
	printf("graph.counter2: %llu\n", (unsigned long long)vk_counter(vs));
	cuGraphExternalSemaphoresSignalNodeGetParams(sn, &got);
	printf("graph.after_exec_set.node_value: %llu\n",
	       (unsigned long long)got.paramsArray[0].params.fence.value);
	memset(&gp, 0, sizeof(gp));
	gp.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
	gp.extSemSignal.extSemArray = two;
	gp.extSemSignal.paramsArray = sp;
	gp.extSemSignal.numExtSems = 1;
	P("graph.add_node_generic", cuGraphAddNode(&x, g, NULL, NULL, 0, &gp));
	sp[0].params.fence.value = 30;
	P("graph.node_set_generic", cuGraphNodeSetParams(x, &gp));
	P("graph.exec_node_set_generic", cuGraphExecNodeSetParams(e, sn, &gp));
	cuGraphExecDestroy(e);
	P("graph.destroy_sem_in_node", cuDestroyExternalSemaphore(s));
	P("graph.instantiate_after_destroy", cuGraphInstantiate(&e, g, 0));
	/* NVIDIA's driver crashes on a NULL array: last. */
	snp.extSemArray = NULL;
	P("graph.add_signal.null_sems",
	  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0, &snp));
	snp.extSemArray = two;
	snp.paramsArray = NULL;
	P("graph.add_signal.null_params",
	  cuGraphAddExternalSemaphoresSignalNode(&x, g, NULL, 0, &snp));
	cuGraphDestroy(g);
}

static void case_capture(void)
{
	struct psem vs;
	CUexternalSemaphore s = timeline(&vs);
	CUstream st;
	CUgraph g = NULL;
	CUgraphExec e = NULL;
	CUgraphNode nodes[8];
	size_t n = 8, i;

	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	P("capture.begin", cuStreamBeginCapture(st,
				CU_STREAM_CAPTURE_MODE_GLOBAL));
	P("capture.signal", sig(s, 31, 0, st));
	P("capture.wait", wai(s, 31, 0, st));
	P("capture.signal.bad_flags", sig(s, 32, 4, st));
	P("capture.end", cuStreamEndCapture(st, &g));
	if (!g)
		return;
	cuGraphGetNodes(g, nodes, &n);
	printf("capture.nodes: %zu\n", n);
	for (i = 0; i < n; i++) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[i], &t);
		printf("capture.node%zu.type: %d\n", i, (int)t);
	}
	printf("capture.counter_before_launch: %llu\n",
	       (unsigned long long)vk_counter(vs));
	P("capture.instantiate", cuGraphInstantiate(&e, g, 0));
	P("capture.launch", cuGraphLaunch(e, st));
	P("capture.sync", cuStreamSynchronize(st));
	printf("capture.counter: %llu\n", (unsigned long long)vk_counter(vs));
	/* A second capture, fresh: the capture is not invalidated above? */
	P("capture.begin2", cuStreamBeginCapture(st,
				CU_STREAM_CAPTURE_MODE_GLOBAL));
	P("capture2.signal", sig(s, 40, 0, st));
	P("capture2.end", cuStreamEndCapture(st, &g));
}

/* Exported memory mapped as a mipmapped array (numLevels >= 1 only). */
static void case_mipmap(void)
{
	VkExportMemoryAllocateInfo emai = {
		VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, NULL,
		VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkMemoryAllocateInfo mai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				     &emai, 1 << 20, 0 };
	VkMemoryGetFdInfoKHR mgfi = { VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
				      NULL, VK_NULL_HANDLE,
				      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT };
	VkDeviceMemory mem;
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC md;
	CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC ad;
	CUexternalMemory m = NULL;
	CUmipmappedArray mm = NULL;
	CUarray a = NULL;
	CUDA_ARRAY3D_DESCRIPTOR d;
	int fd = -1;

	if (conv) {
		fd = memfd_create("probe-mem", 0);
		if (fd < 0 || ftruncate(fd, 1 << 20))
			return;
	} else {
		if (VKI(vkAllocateMemory)(dev, &mai, NULL, &mem))
			return;
		mgfi.memory = mem;
		if (VKI(vkGetMemoryFdKHR)(dev, &mgfi, &fd))
			return;
	}
	memset(&md, 0, sizeof(md));
	md.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	md.handle.fd = fd;
	md.size = 1 << 20;
	P("mipmap.import", cuImportExternalMemory(&m, &md));
	memset(&ad, 0, sizeof(ad));
	ad.arrayDesc.Width = 64;
	ad.arrayDesc.Height = 64;
	ad.arrayDesc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
	ad.arrayDesc.NumChannels = 4;
	ad.numLevels = 1;
	ad.offset = 1;
	P("mipmap.offset1", cuExternalMemoryGetMappedMipmappedArray(&mm, m,
								    &ad));
	ad.offset = 0;
	ad.arrayDesc.Width = 4096;
	ad.arrayDesc.Height = 4096;
	P("mipmap.too_big", cuExternalMemoryGetMappedMipmappedArray(&mm, m,
								    &ad));
	ad.arrayDesc.Width = 64;
	ad.arrayDesc.Height = 64;
	ad.numLevels = 7;
	P("mipmap.levels7", cuExternalMemoryGetMappedMipmappedArray(&mm, m,
								    &ad));
	if (mm) {
		P("mipmap.levels7.level6", cuMipmappedArrayGetLevel(&a, mm, 6));
		P("mipmap.levels7.level7", cuMipmappedArrayGetLevel(&a, mm, 7));
		P("mipmap.levels7.destroy", cuMipmappedArrayDestroy(mm));
		mm = NULL;
	}
	ad.numLevels = 1;
	ad.arrayDesc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
	P("mipmap.surface", cuExternalMemoryGetMappedMipmappedArray(&mm, m,
								    &ad));
	if (mm) {
		P("mipmap.surface.level0", cuMipmappedArrayGetLevel(&a, mm, 0));
		P("mipmap.surface.desc", cuArray3DGetDescriptor(&d, a));
		printf("mipmap.surface.desc: %zux%zux%zu flags %u\n", d.Width,
		       d.Height, d.Depth, d.Flags);
		P("mipmap.surface.array_destroy", cuArrayDestroy(a));
		P("mipmap.surface.destroy", cuMipmappedArrayDestroy(mm));
		mm = NULL;
	}
	ad.arrayDesc.Flags = 0;
	P("mipmap.null_out", cuExternalMemoryGetMappedMipmappedArray(NULL, m,
								     &ad));
	P("mipmap.null_desc", cuExternalMemoryGetMappedMipmappedArray(&mm, m,
								      NULL));
	P("mipmap.destroy_memory", cuDestroyExternalMemory(m));
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "import", case_import },
	{ "timeline", case_timeline },
	{ "ways", case_both_ways },
	{ "binary", case_binary },
	{ "graph", case_graph },
	{ "capture", case_capture },
	{ "mipmap", case_mipmap },
};

static void run_case(unsigned int i)
{
	CUcontext ctx;
	CUdevice d;
	char name[128];

	if (cuInit(0) || cuDeviceGet(&d, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, d) || cuCtxSetCurrent(ctx)) {
		printf("%s: no CUDA\n", cases[i].name);
		exit(1);
	}
	if (i == 0) {
		cuDeviceGetName(name, sizeof(name), d);
		printf("device: %s\n", name);
	}
	if (vk_setup()) {
		printf("%s: no Vulkan device with semaphore fds\n",
		       cases[i].name);
		exit(1);
	}
	cases[i].fn();
	fflush(stdout);
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t pid;
		int st;

		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			alarm(20);	/* a wait that never ends */
			run_case(i);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return 1;
		if (WIFSIGNALED(st))
			printf("%s: crashed (signal %d)\n", cases[i].name,
			       WTERMSIG(st));
		else if (WEXITSTATUS(st))
			printf("%s: exit %d\n", cases[i].name,
			       WEXITSTATUS(st));
	}
	return 0;
}
