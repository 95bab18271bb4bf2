// SPDX-License-Identifier: GPL-2.0
/*
 * jit.c - the native tier: per-module state, lazy translation with LLVM's
 * ORC JIT, and jit_warp_run(), which runs a warp's quantum in native code
 * and hands over to the interpreter wherever the native code cannot go.
 *
 * Why LLVM (llvm-15-dev, ORC LLJIT through the LLVM-C API) and not
 * libgccjit: libgccjit compiles by running the system assembler and
 * linker as child processes on temporary files and loads the result with
 * dlopen(), so the firmware would need binutils at run time (the guest's
 * initramfs has none) and pays process start-up per compilation; LLVM
 * compiles in memory, in process.  LLVM's IR has first-class vector types
 * and the masked load/store/gather/scatter intrinsics a warp's 32 lanes
 * map onto directly (libgccjit has vector types but no masked
 * operations: each would be a lane loop hoping to be vectorised), and
 * its x86 back end selects AVX-512/AVX2 per host CPU (detected at run
 * time, so no -march=native in a shipped binary).  POCL makes the same
 * choice for the same job (work-items of a work-group vectorised with
 * LLVM).  The price is a large library (libLLVM-15.so, 112 MiB) and
 * tens to hundreds of milliseconds per compiled kernel: see the
 * benchmark's "jit compile" column (tests/bench/core_bench.c) and
 * Documentation/native-tier.rst.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "jit_internal.h"

/* ---- the tier setting --------------------------------------------------- */

static pthread_once_t tier_once = PTHREAD_ONCE_INIT;
static _Atomic int tier = VGPU_TIER_DEFAULT;
static bool debug;

static const char *const tier_names[] = {
	[VGPU_TIER_INTERP] = "interp",
	[VGPU_TIER_NATIVE] = "native",
};

int vgpu_jit_parse_tier(const char *name)
{
	for (unsigned int i = 0; i < sizeof(tier_names) / sizeof(*tier_names);
	     i++)
		if (name && !strcmp(name, tier_names[i]))
			return (int)i;
	return -1;
}

const char *vgpu_jit_tier_name(enum vgpu_tier t)
{
	return (unsigned int)t < 2 ? tier_names[t] : "?";
}

static void read_env(void)
{
	const char *e = getenv("VGPU_TIER");
	const char *d = getenv("VGPU_JIT_DEBUG");

	debug = d && *d && strcmp(d, "0");
	if (!e || !*e)
		return;
	if (vgpu_jit_parse_tier(e) < 0) {
		fprintf(stderr, "vgpu: VGPU_TIER=%s is not interp or native; "
			"using %s\n", e, tier_names[VGPU_TIER_DEFAULT]);
		return;
	}
	tier = vgpu_jit_parse_tier(e);
}

bool jit_debug(void)
{
	pthread_once(&tier_once, read_env);
	return debug;
}

void vgpu_jit_set_tier(enum vgpu_tier t)
{
	pthread_once(&tier_once, read_env);
	tier = t;
}

enum vgpu_tier vgpu_jit_get_tier(void)
{
	pthread_once(&tier_once, read_env);
	return tier;
}

/* ---- LLVM --------------------------------------------------------------- */

/*
 * The IR passes: O1.  Measured with vgpu-core-bench (same run, CPU time):
 * O2 makes no kernel faster and the reduction 4x slower (0.025 s against
 * 0.099 s), and compiles no faster on the bench kernels.
 */
#define JIT_PASSES	"default<O1>"

/*
 * One target machine for the IR passes of the process; translations are
 * serialised by llvm_lock (they are rare: once per function and module).
 */
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t llvm_lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMTargetMachineRef tm;
static bool llvm_ok;

/* A target machine for the host CPU, its features detected at run time. */
static LLVMTargetMachineRef make_tm(LLVMCodeGenOptLevel level)
{
	char *triple, *cpu, *features, *err = NULL;
	LLVMTargetMachineRef m = NULL;
	LLVMTargetRef target;

	triple = LLVMGetDefaultTargetTriple();
	cpu = LLVMGetHostCPUName();
	features = LLVMGetHostCPUFeatures();
	if (!LLVMGetTargetFromTriple(triple, &target, &err)) {
		m = LLVMCreateTargetMachine(target, triple, cpu, features, level,
					    LLVMRelocDefault,
					    LLVMCodeModelJITDefault);
	} else {
		fprintf(stderr, "vgpu: native tier: %s\n", err);
		LLVMDisposeMessage(err);
	}
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	return m;
}

static void llvm_init(void)
{
	if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
		return;
	tm = make_tm(LLVMCodeGenLevelDefault);
	llvm_ok = tm != NULL;
}

static void report(const char *what, LLVMErrorRef e)
{
	char *msg = LLVMGetErrorMessage(e);

	fprintf(stderr, "vgpu: native tier: %s: %s\n", what, msg);
	LLVMDisposeErrorMessage(msg);
}

/* An LLJIT for the host CPU (features detected, as the passes used). */
static LLVMOrcLLJITRef make_lljit(void)
{
	LLVMOrcJITTargetMachineBuilderRef jtmb;
	LLVMTargetMachineRef m;
	LLVMOrcLLJITBuilderRef builder;
	LLVMOrcLLJITRef j;
	LLVMErrorRef e;

	m = make_tm(LLVMCodeGenLevelDefault);
	if (!m)
		return NULL;
	jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(m);
	builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
	e = LLVMOrcCreateLLJIT(&j, builder);
	if (e) {
		report("creating the JIT", e);
		return NULL;
	}
	return j;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool translation_done(struct jit_module *jm);

/*
 * Function @fi as an object file: translated, optimised and compiled
 * (and then kept in the cache), or found in the cache.  0, or -1 when it
 * stays on the interpreter.  @code_count: its instructions.
 */
static int get_object(struct jit_module *jm, uint32_t fi, uint32_t code_count,
		      const char *name, struct jit_translation *tr,
		      LLVMMemoryBufferRef *obj, bool *cached)
{
	const char *dump = getenv("VGPU_JIT_DUMP");
	char why[128] = "", *msg = NULL;
	LLVMPassBuilderOptionsRef opts;
	LLVMContextRef cx;
	LLVMErrorRef e;

	/*
	 * The cache is opened at the first compilation, not at module load:
	 * a program that loads modules and runs nothing (vgpu-objdump)
	 * touches no cache directory.  jm->m is alive until
	 * translation_done().
	 */
	if (!jm->cache_tried) {
		jm->cache_tried = true;
		jit_cache_open(jm, jm->m, JIT_PASSES);
	}
	/* the dumps show the IR, which a cache hit does not make */
	*cached = !dump && !jit_cache_load(jm, fi, code_count, tr, obj);
	if (*cached) {
		if (!translation_done(jm))
			return 0;
		LLVMDisposeMemoryBuffer(*obj);	/* the module is gone */
		free(tr->leader);
		return -1;
	}
	cx = LLVMContextCreate();
	if (jit_translate(cx, jm->m, fi, tr, why, sizeof(why))) {
		translation_done(jm);
		LLVMContextDispose(cx);
		if (jit_debug())
			fprintf(stderr, "vgpu-jit: function %u (%s): interpreter "
				"(%s)\n", fi, name, why);
		return -1;
	}
	if (translation_done(jm))
		goto fail;		/* the module is gone */
	if (LLVMVerifyModule(tr->mod, LLVMReturnStatusAction, &msg)) {
		fprintf(stderr, "vgpu: native tier: function %u: invalid IR: "
			"%s\n", fi, msg);
		LLVMDisposeMessage(msg);
		goto fail;
	}
	LLVMDisposeMessage(msg);
	msg = LLVMGetTargetMachineTriple(tm);
	LLVMSetTarget(tr->mod, msg);
	LLVMDisposeMessage(msg);
	{
		LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);

		LLVMSetModuleDataLayout(tr->mod, td);
		LLVMDisposeTargetData(td);
	}
	if (dump && !strcmp(dump, "ir0"))
		LLVMDumpModule(tr->mod);
	opts = LLVMCreatePassBuilderOptions();
	e = LLVMRunPasses(tr->mod, JIT_PASSES, tm, opts);
	LLVMDisposePassBuilderOptions(opts);
	if (e) {
		report("optimising", e);
		goto fail;
	}
	if (dump && !strcmp(dump, "ir"))
		LLVMDumpModule(tr->mod);
	/* the machine code LLJIT would make of the module, to be kept */
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, tr->mod, LLVMObjectFile,
						&msg, obj)) {
		fprintf(stderr, "vgpu: native tier: function %u: code "
			"generation: %s\n", fi, msg);
		LLVMDisposeMessage(msg);
		goto fail;
	}
	LLVMDisposeModule(tr->mod);
	LLVMContextDispose(cx);
	tr->mod = NULL;
	jit_cache_store(jm, fi, code_count, tr, *obj);
	return 0;
fail:
	LLVMDisposeModule(tr->mod);
	LLVMContextDispose(cx);
	free(tr->leader);
	return -1;
}

/* Translate, optimise and load function @fi: its entry, or NULL. */
static jit_entry_fn compile(struct jit_module *jm, uint32_t fi,
			    struct jit_func *jf)
{
	/* jm->m may be freed once the translation is done (async) */
	uint32_t code_count = jm->m->funcs[fi].code_count;
	struct jit_translation tr;
	LLVMMemoryBufferRef obj;
	LLVMOrcExecutorAddress addr = 0;
	LLVMOrcLLJITRef j;
	LLVMErrorRef e;
	double t0 = now_ms();
	char name[64];
	bool cached;

	snprintf(name, sizeof(name), "%s",
		 vgpu_core_module_string(jm->m, jm->m->funcs[fi].name));
	if (!jm->lljit)
		jm->lljit = make_lljit();
	j = jm->lljit;
	if (!j) {
		translation_done(jm);
		return NULL;
	}
	if (get_object(jm, fi, code_count, name, &tr, &obj, &cached))
		return NULL;
	/* LLJIT links the object (and owns it from here) */
	e = LLVMOrcLLJITAddObjectFile(j, LLVMOrcLLJITGetMainJITDylib(j), obj);
	if (e) {
		free(tr.leader);
		report("adding the object", e);
		return NULL;
	}
	e = LLVMOrcLLJITLookup(j, &addr, tr.name);
	if (e) {
		free(tr.leader);
		report("looking the function up", e);
		return NULL;
	}
	jf->leader = tr.leader;
	jf->insns_inline = tr.insns_inline;
	jf->insns_branch = tr.insns_branch;
	jf->insns_helper = tr.insns_helper;
	jf->cached = cached;
	jf->compile_ms = now_ms() - t0;
	if (jit_debug())
		fprintf(stderr, "vgpu-jit: function %u (%s): native%s, %u "
			"instructions inline, %u branches, %u via the "
			"interpreter, %.1f ms\n", fi, name,
			cached ? " (cached)" : "", tr.insns_inline,
			tr.insns_branch, tr.insns_helper, jf->compile_ms);
	return (jit_entry_fn)(uintptr_t)addr;
}

static long budget = -1;	/* functions left to compile; llvm_lock */

void vgpu_jit_set_compile_budget(long n)
{
	pthread_mutex_lock(&llvm_lock);
	budget = n;
	pthread_mutex_unlock(&llvm_lock);
}

/* Compile function @fi unless done; llvm_lock held. */
static void compile_locked(struct jit_module *jm, uint32_t fi)
{
	struct jit_func *jf = &jm->funcs[fi];
	int st = atomic_load_explicit(&jf->state, memory_order_relaxed);

	if ((st == JF_NEW || st == JF_QUEUED) && !budget) {
		if (st == JF_QUEUED)
			translation_done(jm);	/* not started after all */
		if (jit_debug())
			fprintf(stderr, "vgpu-jit: function %u: interpreter "
				"(compile budget spent)\n", fi);
		atomic_store_explicit(&jf->state, JF_INTERP,
				      memory_order_release);
		return;
	}
	if (st == JF_NEW || st == JF_QUEUED) {
		if (budget > 0)
			budget--;
		jf->entry = compile(jm, fi, jf);
		atomic_store_explicit(&jf->state,
				      jf->entry ? JF_NATIVE : JF_INTERP,
				      memory_order_release);
	}
}

/*
 * The background compiler (vgpu_jit_set_async): one thread for the
 * process, a queue of functions.  Lock order: llvm_lock, then queue_lock
 * (nothing waits for llvm_lock while holding queue_lock).  A job holds a
 * reference to its jit_module; a module being freed purges its jobs and,
 * while the thread translates one of its functions (reading the
 * vgpu_module), leaves the module's memory to the thread to free, see
 * translation_done().
 */
struct job {
	struct jit_module *jm;
	uint32_t fi;
	struct job *next;
};

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cv = PTHREAD_COND_INITIALIZER;
static struct job *queue_head, **queue_tail = &queue_head;
static pthread_once_t worker_once = PTHREAD_ONCE_INIT;
static bool worker_ok, worker_quit;
static _Thread_local bool in_compile_thread;
static bool async_default;

static void jm_destroy(struct jit_module *jm)
{
	LLVMErrorRef e;

	if (jm->lljit) {
		e = LLVMOrcDisposeLLJIT(jm->lljit);
		if (e)
			report("freeing the JIT", e);
	}
	for (uint32_t i = 0; i < jm->nfuncs; i++)
		free(jm->funcs[i].leader);
	jit_cache_close(jm);
	free(jm->funcs);
	free(jm);
}

/* Drop a reference (the module's, or a queued job's). */
static void jm_put(struct jit_module *jm)
{
	bool last;

	pthread_mutex_lock(&queue_lock);
	last = --jm->refs == 0;
	pthread_mutex_unlock(&queue_lock);
	if (last)
		jm_destroy(jm);
}

/*
 * The translation no longer needs the vgpu_module (what takes time,
 * LLVM's passes and code generation, comes after).  Only the compile
 * thread's translations count (a test's synchronous compilation runs
 * while its caller holds the module): when the module was unloaded
 * meanwhile, its memory is freed here, by the compile thread, so that
 * unloading never waits for this idle-priority thread (the engine that
 * unloads, at a TLB flush, must not stall behind SM threads that keep
 * every CPU busy).  Returns true when the module is gone: the rest of
 * the compilation is pointless.  Idempotent.
 */
static bool translation_done(struct jit_module *jm)
{
	struct vgpu_module *orphan = NULL;
	bool dead;

	if (!in_compile_thread)
		return false;
	pthread_mutex_lock(&queue_lock);
	jm->translating = false;
	dead = jm->dead;
	if (jm->free_module) {
		/* jit_module_create() keeps it const; it is ours now */
		orphan = (struct vgpu_module *)jm->m;
		jm->free_module = false;
	}
	pthread_mutex_unlock(&queue_lock);
	if (orphan)
		core_module_free(orphan);
	return dead;
}

static void *compile_worker(void *arg)
{
	struct sched_param idle = { .sched_priority = 0 };

	(void)arg;
	/*
	 * Compile only with CPU time nobody else wants: the SM threads and
	 * the engines must keep making progress (the driver's watchdog), and
	 * the interpreter runs the function meanwhile anyway.
	 */
	in_compile_thread = true;
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle))
		(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	for (;;) {
		struct job *j;

		pthread_mutex_lock(&queue_lock);
		while (!queue_head && !worker_quit)
			pthread_cond_wait(&queue_cv, &queue_lock);
		if (worker_quit) {
			pthread_mutex_unlock(&queue_lock);
			return NULL;
		}
		j = queue_head;
		queue_head = j->next;
		if (!queue_head)
			queue_tail = &queue_head;
		j->jm->translating = true;	/* the module stays until done */
		pthread_mutex_unlock(&queue_lock);
		pthread_mutex_lock(&llvm_lock);
		compile_locked(j->jm, j->fi);
		/* compiled meanwhile by a test's vgpu_jit_module_compile() */
		translation_done(j->jm);
		/* under llvm_lock: the last reference disposes of an LLJIT,
		 * which must not race with quiesce() and exit */
		jm_put(j->jm);
		pthread_mutex_unlock(&llvm_lock);
		free(j);
	}
	return NULL;
}

/*
 * At exit: no compilation may be running when libLLVM's own destructors
 * run (they come after this handler, registered later than they were).
 * Forget the queue, wait for the compilation in progress, and keep LLVM
 * to ourselves from then on.
 */
static void quiesce(void)
{
	pthread_mutex_lock(&queue_lock);
	worker_quit = true;
	while (queue_head) {
		struct job *j = queue_head;

		queue_head = j->next;
		j->jm->refs--;
		free(j);
	}
	queue_tail = &queue_head;
	pthread_cond_broadcast(&queue_cv);
	pthread_mutex_unlock(&queue_lock);
	pthread_mutex_lock(&llvm_lock);
}

static void start_worker(void)
{
	pthread_t t;

	worker_ok = !atexit(quiesce) &&
		    !pthread_create(&t, NULL, compile_worker, NULL) &&
		    !pthread_detach(t);
}

void vgpu_jit_set_async(bool async)
{
	async_default = async;
}

/* Queue @fi for the compile thread; false if that cannot be done. */
static bool enqueue(struct jit_module *jm, uint32_t fi)
{
	struct job *j;
	int expected = JF_NEW;

	pthread_once(&worker_once, start_worker);
	if (!worker_ok)
		return false;
	j = malloc(sizeof(*j));
	if (!j)
		return false;
	*j = (struct job){ .jm = jm, .fi = fi };
	pthread_mutex_lock(&queue_lock);
	if (atomic_compare_exchange_strong(&jm->funcs[fi].state, &expected,
					   JF_QUEUED)) {
		jm->refs++;		/* the job's */
		*queue_tail = j;
		queue_tail = &j->next;
		pthread_cond_signal(&queue_cv);
		j = NULL;
	}
	pthread_mutex_unlock(&queue_lock);
	free(j);
	return true;
}

/* Forget the queued functions of @jm; queue_lock held. */
static void purge_queue(struct jit_module *jm)
{
	struct job **p = &queue_head;

	while (*p) {
		struct job *j = *p;

		if (j->jm == jm) {
			*p = j->next;
			jm->refs--;	/* never the last: the module's */
			free(j);
		} else {
			p = &j->next;
		}
	}
	queue_tail = &queue_head;
	while (*queue_tail)
		queue_tail = &(*queue_tail)->next;
}

/*
 * The function's native code, or NULL: it runs on the interpreter (for
 * good, or until the compile thread is done with it).
 */
static const struct jit_func *get_func(struct jit_module *jm, uint32_t fi)
{
	struct jit_func *jf = &jm->funcs[fi];
	int st = atomic_load_explicit(&jf->state, memory_order_acquire);

	if (st == JF_NEW && jm->async && enqueue(jm, fi))
		return NULL;
	if (st == JF_NEW) {
		pthread_mutex_lock(&llvm_lock);
		compile_locked(jm, fi);
		pthread_mutex_unlock(&llvm_lock);
		st = atomic_load_explicit(&jf->state, memory_order_acquire);
	}
	return st == JF_NATIVE ? jf : NULL;
}

/* ---- per module --------------------------------------------------------- */

int vgpu_jit_init(void)
{
	pthread_once(&llvm_once, llvm_init);
	return llvm_ok ? 0 : -1;
}

struct jit_module *jit_module_create(const struct vgpu_module *m)
{
	static atomic_flag said_unavailable = ATOMIC_FLAG_INIT;
	struct jit_module *jm;

	if (vgpu_jit_get_tier() != VGPU_TIER_NATIVE)
		return NULL;
	pthread_once(&llvm_once, llvm_init);
	if (!llvm_ok) {
		/* the default tier: say it once, not at every module load */
		if (!atomic_flag_test_and_set(&said_unavailable))
			fprintf(stderr, "vgpu: native tier unavailable (LLVM "
				"did not start): using the interpreter\n");
		return NULL;
	}
	jm = calloc(1, sizeof(*jm));
	if (!jm)
		return NULL;
	jm->funcs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(*jm->funcs));
	if (!jm->funcs) {
		free(jm);
		return NULL;
	}
	jm->m = m;
	jm->nfuncs = m->nfuncs;
	jm->env = (struct jit_env){
		.code = m->code,
		.exec_insn = (void *)warp_exec_insn,
		.exec_mem = (void *)exec_mem,
		.branch = (void *)warp_branch,
		.mem_resolve = (void *)mem_resolve,
	};
	jm->enabled = 1;
	jm->refs = 1;		/* the module's */
	jm->async = async_default;
	return jm;
}

bool jit_module_free(struct jit_module *jm)
{
	bool deferred;

	if (!jm)
		return false;
	/*
	 * Nothing of ours is queued after this.  A translation in progress
	 * reads the module: the compile thread frees it when done (see
	 * translation_done()); a compilation past that point keeps the
	 * jit_module alive itself and drops it.
	 */
	pthread_mutex_lock(&queue_lock);
	purge_queue(jm);
	jm->dead = true;
	deferred = jm->free_module = jm->translating;
	pthread_mutex_unlock(&queue_lock);
	jm_put(jm);
	return deferred;
}

int vgpu_jit_module_select(struct vgpu_module *mod, enum vgpu_tier t)
{
	if (!mod->jit)
		return -1;
	atomic_store(&mod->jit->enabled, t == VGPU_TIER_NATIVE);
	return 0;
}

void vgpu_jit_module_stats(const struct vgpu_module *mod,
			   struct vgpu_jit_stats *st)
{
	const struct jit_module *jm = mod->jit;

	memset(st, 0, sizeof(*st));
	if (!jm)
		return;
	pthread_mutex_lock(&llvm_lock);	/* the compile thread writes them */
	for (uint32_t i = 0; i < jm->nfuncs; i++) {
		const struct jit_func *jf = &jm->funcs[i];
		int s = atomic_load(&jf->state);

		if (s == JF_NATIVE) {
			st->funcs_native++;
			st->insns_inline += jf->insns_inline;
			st->insns_branch += jf->insns_branch;
			st->insns_helper += jf->insns_helper;
			st->funcs_cached += jf->cached;
		} else if (s == JF_INTERP) {
			st->funcs_interp++;
		}
		st->compile_ms += jf->compile_ms;
	}
	pthread_mutex_unlock(&llvm_lock);
}

int vgpu_jit_module_compile(struct vgpu_module *mod, int kernel)
{
	const struct visa_kernel *k;
	int n = 0;

	if (!mod->jit)
		return -1;
	pthread_mutex_lock(&llvm_lock);
	if (kernel >= 0) {
		k = vgpu_core_module_kernel(mod, (unsigned int)kernel);
		if (k)
			compile_locked(mod->jit, k->func);
		n = k && mod->jit->funcs[k->func].state == JF_NATIVE;
	} else {
		for (uint32_t i = 0; i < mod->jit->nfuncs; i++) {
			compile_locked(mod->jit, i);
			n += mod->jit->funcs[i].state == JF_NATIVE;
		}
	}
	pthread_mutex_unlock(&llvm_lock);
	return n;
}

int vgpu_jit_kernel_native(const struct vgpu_module *mod, int kernel)
{
	const struct visa_kernel *k;
	int st;

	if (!mod->jit || kernel < 0)
		return -1;
	k = vgpu_core_module_kernel(mod, (unsigned int)kernel);
	if (!k || k->func >= mod->jit->nfuncs)
		return -1;
	st = atomic_load(&mod->jit->funcs[k->func].state);
	return st == JF_NATIVE ? 1 : st == JF_INTERP ? -1 : 0;
}

/* ---- running a warp ----------------------------------------------------- */

static bool is_leader(const struct jit_func *jf, const struct mfunc *f,
		      uint32_t pc)
{
	return pc - f->code_start < f->code_count &&
	       jf->leader[pc - f->code_start];
}

/*
 * warp_run() for a module with a native tier: the same contract and, to
 * the instruction, the same effects as warp_interp().
 */
int jit_warp_run(struct warp *w, uint32_t quantum)
{
	const struct vgpu_module *m = w->blk->g->mod;
	struct jit_module *jm = m->jit;
	uint32_t q = quantum;

	if (!atomic_load_explicit(&jm->enabled, memory_order_relaxed))
		return warp_interp(w, quantum);
	for (;;) {
		const struct jit_func *jf = get_func(jm, w->func);
		const struct mfunc *f = &m->funcs[w->func];
		const struct rentry *top = &w->rs[w->rs_n - 1];
		int st;

		if (!jf)
			return warp_interp(w, q);
		if (!is_leader(jf, f, top->pc)) {
			/*
			 * The interpreter stopped mid-block for the quantum:
			 * step it to the next leader.  Only inline
			 * instructions lie between leaders, and they never
			 * yield early, so one step is one quantum unit.
			 */
			if (!q)
				return RUN_YIELD;
			st = warp_interp(w, 1);
			q--;
			if (st != RUN_YIELD)
				return st;
			continue;
		}
		/* a reconvergence point the translation does not know */
		if (top->rpc != VISA_RECONV_EXIT && !is_leader(jf, f, top->rpc))
			return warp_interp(w, q);
		st = jf->entry(w, &q, &jm->env);
		switch (st) {
		case EXEC_FAULT:
			return RUN_FAULT;
		case EXEC_BARRIER:
			return warp_settle(w) ? RUN_BARRIER : RUN_DONE;
		case EXEC_YIELD:
			return warp_settle(w) ? RUN_YIELD : RUN_DONE;
		case EXEC_CONTROL:
		case JIT_EXIT_SETTLE:
			if (!warp_settle(w))
				return RUN_DONE;
			break;
		default:	/* JIT_EXIT_INTERP */
			return warp_interp(w, q);
		}
	}
}
