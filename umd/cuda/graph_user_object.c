// SPDX-License-Identifier: GPL-2.0
/*
 * graph_user_object.c - user objects: a pointer and a destructor with a
 * reference count, so that a graph can own resources its work uses.
 *
 * The program holds references (cuUserObjectCreate, Retain, Release),
 * graphs hold references (cuGraphRetainUserObject, ReleaseUserObject),
 * and so do the graph's clones and executable graphs, which copy the
 * graph's references when they are made.  An executable graph drops its
 * references when it is destroyed, after its last launch is complete,
 * so the destructor never runs while the device may use the resource.
 *
 * The destructor runs when the count reaches zero, on a thread of its
 * own, never in the caller: CUDA says destructors run on an internal
 * thread and may not call CUDA, so a program may release its last
 * reference while holding a lock its destructor takes.
 */
#include <limits.h>
#include <stdlib.h>

#include "graph_internal.h"

#define CU_USER_OBJECT_MAGIC	0x4a424f55u	/* "UOBJ" */

/* Live objects (a handle check without a handle type of their own). */
static pthread_mutex_t cu_user_object_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cu_user_object **cu_user_objects;
static size_t cu_num_user_objects, cu_user_objects_cap;

static bool cu_user_object_live(const struct cu_user_object *o)
{
	size_t i;

	for (i = 0; i < cu_num_user_objects; i++)
		if (cu_user_objects[i] == o)
			return true;
	return false;
}

static void *cu_user_object_destroy(void *arg)
{
	struct cu_user_object *o = arg;

	o->destroy(o->ptr);
	free(o);
	return NULL;
}

/* Drop @count references (cu_user_object_lock held); run the destructor
 * on its thread if that was the last. */
static void cu_user_object_put_locked(struct cu_user_object *o,
				      unsigned int count)
{
	pthread_attr_t attr;
	pthread_t t;
	size_t i;

	o->refs -= count;
	if (o->refs)
		return;
	for (i = 0; i < cu_num_user_objects; i++) {
		if (cu_user_objects[i] == o) {
			cu_user_objects[i] =
				cu_user_objects[--cu_num_user_objects];
			break;
		}
	}
	o->magic = CU_DEAD_MAGIC;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* No thread to be had: running it here is better than never. */
	if (pthread_create(&t, &attr, cu_user_object_destroy, o))
		cu_user_object_destroy(o);
	pthread_attr_destroy(&attr);
}

CU_EXPORT CUresult CUDAAPI cuUserObjectCreate(CUuserObject *object_out,
		void *ptr, CUhostFn destroy, unsigned int initialRefcount,
		unsigned int flags)
{
	struct cu_user_object *o, **v;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!object_out || !destroy || !initialRefcount ||
	    initialRefcount > INT_MAX ||
	    flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
		return CUDA_ERROR_INVALID_VALUE;
	o = calloc(1, sizeof(*o));
	if (!o)
		return CUDA_ERROR_OUT_OF_MEMORY;
	o->magic = CU_USER_OBJECT_MAGIC;
	o->refs = initialRefcount;
	o->ptr = ptr;
	o->destroy = destroy;
	pthread_mutex_lock(&cu_user_object_lock);
	if (cu_num_user_objects == cu_user_objects_cap) {
		size_t cap = cu_user_objects_cap ? cu_user_objects_cap * 2 : 8;

		v = realloc(cu_user_objects, cap * sizeof(*v));
		if (!v) {
			pthread_mutex_unlock(&cu_user_object_lock);
			free(o);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		cu_user_objects = v;
		cu_user_objects_cap = cap;
	}
	cu_user_objects[cu_num_user_objects++] = o;
	pthread_mutex_unlock(&cu_user_object_lock);
	*object_out = (CUuserObject)o;
	return CUDA_SUCCESS;
}

/* Add (@sign 1) or drop (-1) @count of the caller's references. */
static CUresult cu_user_object_count(CUuserObject object, unsigned int count,
				     int sign)
{
	struct cu_user_object *o = (struct cu_user_object *)object;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!count || count > INT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_user_object_lock);
	if (!cu_user_object_live(o) || (sign < 0 && count > o->refs))
		res = CUDA_ERROR_INVALID_VALUE;
	else if (sign > 0)
		o->refs += count;
	else
		cu_user_object_put_locked(o, count);
	pthread_mutex_unlock(&cu_user_object_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuUserObjectRetain(CUuserObject object,
					      unsigned int count)
{
	return cu_user_object_count(object, count, 1);
}

CU_EXPORT CUresult CUDAAPI cuUserObjectRelease(CUuserObject object,
					       unsigned int count)
{
	return cu_user_object_count(object, count, -1);
}

/* The entry of @o in @refs, or NULL. */
static struct cu_user_ref *cu_user_ref_find(struct cu_user_ref *refs,
					    size_t n,
					    const struct cu_user_object *o)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (refs[i].obj == o)
			return &refs[i];
	return NULL;
}

/* Record @count more references of @o in the array (lock held). */
static CUresult cu_user_ref_add(struct cu_user_ref **refs, size_t *n,
				struct cu_user_object *o, unsigned int count)
{
	struct cu_user_ref *r = cu_user_ref_find(*refs, *n, o), *v;

	if (!r) {
		v = realloc(*refs, (*n + 1) * sizeof(*v));
		if (!v)
			return CUDA_ERROR_OUT_OF_MEMORY;
		*refs = v;
		r = &v[(*n)++];
		r->obj = o;
		r->count = 0;
	}
	r->count += count;
	return CUDA_SUCCESS;
}

CUresult cu_user_refs_copy(struct cu_user_ref **to, size_t *num_to,
			   const struct cu_user_ref *from, size_t n)
{
	CUresult res = CUDA_SUCCESS;
	size_t i;

	pthread_mutex_lock(&cu_user_object_lock);
	for (i = 0; i < n && res == CUDA_SUCCESS; i++) {
		res = cu_user_ref_add(to, num_to, from[i].obj, from[i].count);
		if (res == CUDA_SUCCESS)
			from[i].obj->refs += from[i].count;
	}
	pthread_mutex_unlock(&cu_user_object_lock);
	return res;
}

void cu_user_refs_drop(struct cu_user_ref *refs, size_t n)
{
	size_t i;

	pthread_mutex_lock(&cu_user_object_lock);
	for (i = 0; i < n; i++)
		cu_user_object_put_locked(refs[i].obj, refs[i].count);
	pthread_mutex_unlock(&cu_user_object_lock);
	free(refs);
}

CU_EXPORT CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph,
		CUuserObject object, unsigned int count, unsigned int flags)
{
	struct cu_graph *g = (struct cu_graph *)graph;
	struct cu_user_object *o = (struct cu_user_object *)object;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g) || !count || count > INT_MAX ||
	    (flags & ~(unsigned int)CU_GRAPH_USER_OBJECT_MOVE))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_user_object_lock);
	if (!cu_user_object_live(o) ||
	    ((flags & CU_GRAPH_USER_OBJECT_MOVE) && count > o->refs)) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		res = cu_user_ref_add(&g->users, &g->num_users, o, count);
		/* MOVE: the caller's references become the graph's. */
		if (res == CUDA_SUCCESS && !(flags & CU_GRAPH_USER_OBJECT_MOVE))
			o->refs += count;
	}
	pthread_mutex_unlock(&cu_user_object_lock);
	return res;
}

CU_EXPORT CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph,
		CUuserObject object, unsigned int count)
{
	struct cu_graph *g = (struct cu_graph *)graph;
	struct cu_user_object *o = (struct cu_user_object *)object;
	struct cu_user_ref *r;
	CUresult res = cu_initialized();

	if (res != CUDA_SUCCESS)
		return res;
	if (!cu_graph_valid(g) || !count || count > INT_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&cu_user_object_lock);
	r = cu_user_object_live(o) ?
	    cu_user_ref_find(g->users, g->num_users, o) : NULL;
	if (!r || count > r->count) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		r->count -= count;
		if (!r->count)
			*r = g->users[--g->num_users];
		cu_user_object_put_locked(o, count);
	}
	pthread_mutex_unlock(&cu_user_object_lock);
	return res;
}
