// SPDX-License-Identifier: GPL-2.0
/*
 * mem_pool_order.c - which frees a stream is ordered after.
 *
 * A block freed by cuMemFreeAsync on stream A may be handed to an
 * allocation on stream B only if B's later work is sure to run after the
 * free (CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES): B waited on an
 * event recorded on A after the free, or on an event recorded on C after
 * C waited on one of A's, and so on.  That is a vector clock:
 *
 *   - every stream that frees pool memory counts its frees (its epoch);
 *     a free is stamped (stream uid, epoch);
 *   - a stream's clock says, for each stream it is ordered after, the
 *     newest epoch of that stream it has seen;
 *   - cuEventRecord copies the recording stream's clock into the event,
 *     with the stream's own epoch; cuStreamWaitEvent merges the event's
 *     clock into the waiting stream's (the larger epoch of each stream);
 *   - a free (uid, e) is ordered before stream B when B's clock holds an
 *     epoch >= e for uid, or B is the freeing stream itself.
 *
 *      A: alloc x ... free x (A,1) -- record ev [A:1]
 *                                           \
 *      B: ------------------------- wait ev [A:1] -- alloc: x may come back
 *
 * Clocks are small (the streams a program joins), allocated on first use
 * and freed with their stream or event.
 */
#include <stdlib.h>
#include <string.h>

#include "mem_pool.h"

struct cu_pool_dep {
	uint64_t uid;
	uint64_t epoch;
};

struct cu_pool_clock {
	uint64_t uid;			/* the stream's own (0 in an event) */
	uint64_t epoch;			/* its frees so far */
	unsigned int n, cap;
	struct cu_pool_dep *deps;	/* streams it is ordered after */
};

static pthread_mutex_t cu_clock_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t cu_clock_next_uid = 1;

static struct cu_pool_clock *cu_clock_new(void)
{
	return calloc(1, sizeof(struct cu_pool_clock));
}

void cu_pool_clock_free(struct cu_pool_clock **c)
{
	struct cu_pool_clock *old;

	pthread_mutex_lock(&cu_clock_lock);
	old = *c;
	*c = NULL;
	pthread_mutex_unlock(&cu_clock_lock);
	if (old)
		free(old->deps);
	free(old);
}

/* Raise @c's entry for @uid to at least @epoch (cu_clock_lock held). */
static void cu_clock_raise(struct cu_pool_clock *c, uint64_t uid,
			   uint64_t epoch)
{
	struct cu_pool_dep *n;
	unsigned int i;

	if (!uid || uid == c->uid)
		return;
	for (i = 0; i < c->n; i++) {
		if (c->deps[i].uid == uid) {
			if (c->deps[i].epoch < epoch)
				c->deps[i].epoch = epoch;
			return;
		}
	}
	if (c->n == c->cap) {
		unsigned int cap = c->cap ? c->cap * 2 : 4;

		n = realloc(c->deps, cap * sizeof(*n));
		if (!n)
			return;	/* a lost dependency only means less reuse */
		c->deps = n;
		c->cap = cap;
	}
	c->deps[c->n].uid = uid;
	c->deps[c->n].epoch = epoch;
	c->n++;
}

/* The epoch @c has seen of stream @uid (cu_clock_lock held). */
static uint64_t cu_clock_seen(const struct cu_pool_clock *c, uint64_t uid)
{
	unsigned int i;

	if (!c)
		return 0;
	if (c->uid == uid)
		return c->epoch;
	for (i = 0; i < c->n; i++)
		if (c->deps[i].uid == uid)
			return c->deps[i].epoch;
	return 0;
}

/* @s's clock, made if it has none (cu_clock_lock held); NULL: no memory. */
static struct cu_pool_clock *cu_stream_clock(struct cu_stream *s)
{
	if (!s->pool_clock) {
		s->pool_clock = cu_clock_new();
		if (s->pool_clock)
			s->pool_clock->uid = cu_clock_next_uid++;
	}
	return s->pool_clock;
}

bool cu_pool_stream_blocking(const struct cu_stream *s)
{
	return !s->is_null && !(s->flags & CU_STREAM_NON_BLOCKING);
}

bool cu_pool_stream_after_legacy(struct cu_stream *s,
				 const struct cu_pool_stamp *t)
{
	/*
	 * The legacy stream's operations wait for every blocking stream's
	 * last one, and a blocking stream's for the legacy stream's last
	 * (stream_order.c): a free on one side comes before what the other
	 * side does next.
	 */
	return (s->is_null && t->blocking) ||
	       (cu_pool_stream_blocking(s) && t->legacy);
}

struct cu_pool_stamp cu_pool_stream_tick(struct cu_stream *s)
{
	struct cu_pool_stamp t = { 0 };
	struct cu_pool_clock *c;

	pthread_mutex_lock(&cu_clock_lock);
	c = cu_stream_clock(s);
	if (c) {
		t.uid = c->uid;
		t.epoch = ++c->epoch;
	}
	pthread_mutex_unlock(&cu_clock_lock);
	t.legacy = s->is_null;
	t.blocking = cu_pool_stream_blocking(s);
	return t;
}

bool cu_pool_stream_is(struct cu_stream *s, const struct cu_pool_stamp *t)
{
	bool is;

	pthread_mutex_lock(&cu_clock_lock);
	is = t->uid && s->pool_clock && s->pool_clock->uid == t->uid;
	pthread_mutex_unlock(&cu_clock_lock);
	return is;
}

bool cu_pool_stream_after(struct cu_stream *s, const struct cu_pool_stamp *t)
{
	bool after;

	if (!t->uid)
		return true;
	pthread_mutex_lock(&cu_clock_lock);
	after = cu_clock_seen(s->pool_clock, t->uid) >= t->epoch;
	pthread_mutex_unlock(&cu_clock_lock);
	return after;
}

bool cu_pool_event_after(struct cu_event *ev, const struct cu_pool_stamp *t)
{
	bool after;

	if (!t->uid)
		return true;
	pthread_mutex_lock(&cu_clock_lock);
	after = cu_clock_seen(ev->pool_clock, t->uid) >= t->epoch;
	pthread_mutex_unlock(&cu_clock_lock);
	return after;
}

void cu_pool_note_record(struct cu_event *ev, struct cu_stream *s)
{
	struct cu_pool_clock *c, *sc;
	unsigned int i;

	pthread_mutex_lock(&cu_clock_lock);
	sc = s->pool_clock;
	/* A record replaces what the event stood for. */
	if (ev->pool_clock)
		ev->pool_clock->n = 0;
	if (sc) {
		c = ev->pool_clock ? ev->pool_clock : cu_clock_new();
		if (c) {
			cu_clock_raise(c, sc->uid, sc->epoch);
			for (i = 0; i < sc->n; i++)
				cu_clock_raise(c, sc->deps[i].uid,
					       sc->deps[i].epoch);
		}
		ev->pool_clock = c;
	}
	pthread_mutex_unlock(&cu_clock_lock);
}

void cu_pool_note_wait(struct cu_stream *s, struct cu_event *ev)
{
	struct cu_pool_clock *c, *ec;
	unsigned int i;

	pthread_mutex_lock(&cu_clock_lock);
	ec = ev->pool_clock;
	if (ec && ec->n) {
		c = cu_stream_clock(s);
		for (i = 0; c && i < ec->n; i++)
			cu_clock_raise(c, ec->deps[i].uid, ec->deps[i].epoch);
	}
	pthread_mutex_unlock(&cu_clock_lock);
}
