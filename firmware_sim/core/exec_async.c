// SPDX-License-Identifier: GPL-2.0
/*
 * exec_async.c - asynchronous data movement: cp.async and its groups,
 * mbarrier objects, cp.async.bulk, and elect.sync (the async class of
 * the opcode table, include/vgpu_visa_ops.h).
 *
 * cp.async is really asynchronous here.  The copy is issued: its source
 * is read (and checked) at once, as a DMA engine fetches it, but nothing
 * is written to shared memory.  The bytes wait in the warp's queue of
 * pending copies, tagged with the lane and the lane's group number, and
 * land only when the thread waits for them (cp.async.wait_group /
 * wait_all) or asks an mbarrier to track them (cp.async.mbarrier.arrive).
 * So a program that reads its destination before waiting sees the old
 * bytes, which is the latest a real copy may land; programs that wait
 * correctly always see the new ones.  Copies of a thread that exits
 * without waiting are dropped (nobody can wait for them).  At most
 * CPA_MAX_PENDING copies wait per warp; more make the oldest land.
 *
 *   lane 3: cp.async A   cp.async B   commit   cp.async C   commit   wait_group 1
 *   queue:  [A g0]       [A g0,B g0]  (g=1)    [.., C g1]   (g=2)    A, B land
 *
 * mbarrier objects live in shared memory in vGPU's own 64-bit layout
 * (include/vgpu_visa_async.h).  A block's warps all run on one SM thread,
 * so the read-modify-write of an object needs no atomics: lanes arrive
 * one after the other, in lane order.
 *
 * cp.async.bulk copies at once and then performs the complete-tx on the
 * mbarrier; the consumer's wait sees the phase complete when the producer
 * has also arrived, as on hardware.
 */
#include <stdlib.h>

#include "core_internal.h"
#include "exec_async.h"

/* One issued cp.async whose bytes have not landed yet. */
struct cpa_copy {
	uint8_t data[16];
	uint32_t dst;		/* shared offset, checked at issue */
	uint32_t group;		/* the lane's group number at issue */
	uint8_t lane, size;
};

struct cpa_state {
	struct cpa_copy *q;	/* issue order */
	uint32_t n, cap;
	uint32_t groups[WARP_SIZE];	/* committed groups per lane */
};

void async_warp_reset(struct warp *w)
{
	if (w->cpa) {
		w->cpa->n = 0;
		memset(w->cpa->groups, 0, sizeof(w->cpa->groups));
	}
}

void async_warp_release(struct warp *w)
{
	if (w->cpa) {
		free(w->cpa->q);
		free(w->cpa);
		w->cpa = NULL;
	}
}

static inline uint64_t opnd(struct warp *w, const struct dinsn *in, int slot,
			    uint16_t r, int l)
{
	return src_row(w, in, slot, r)[l];
}

static int fail(struct warp *w, const struct dinsn *in, int lane,
		uint32_t kind, uint64_t addr, const char *msg)
{
	core_record_fault(w->blk->g, w, lane, pc_of(w, in), kind, addr, msg);
	return EXEC_FAULT;
}

/* ---- cp.async ------------------------------------------------------------ */

/*
 * A warp's copies in flight, at most: a kernel that never waits must not
 * grow the queue without end.  When it is full the older half lands, as
 * a real memory system retires old copies while new ones arrive (a copy
 * may land at any time before its wait).
 */
#define CPA_MAX_PENDING	1024

static void cpa_drain_oldest(struct warp *w)
{
	struct cpa_state *s = w->cpa;
	uint32_t half = s->n / 2;

	for (uint32_t i = 0; i < half; i++)
		memcpy(w->blk->shared + s->q[i].dst, s->q[i].data,
		       s->q[i].size);
	memmove(s->q, s->q + half, (s->n - half) * sizeof(*s->q));
	s->n -= half;
}

static int cpa_issue(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct block *b = w->blk;
	uint32_t size = (uint32_t)in->imm;
	struct cpa_state *s = w->cpa;

	if (size != 4 && size != 8 && size != 16)
		return exec_bad(w, in, mask);
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return fail(w, in, __builtin_ctz(mask),
				    VISA_FAULT_OUT_OF_RESOURCES, 0,
				    "cp.async: out of host memory");
		w->cpa = s;
	}
	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t dst = opnd(w, in, 0, in->a, l);
		uint64_t src = opnd(w, in, 1, in->b, l);
		uint32_t src_size = (uint32_t)opnd(w, in, 2, in->c, l);
		struct cpa_copy *c;

		if (!((mask >> l) & 1))
			continue;
		if ((dst | src) & (size - 1))
			return fail(w, in, l, VISA_FAULT_MISALIGNED,
				    dst & (size - 1) ? dst : src,
				    "cp.async: address not aligned to the copy size");
		if (dst > b->shared_size || b->shared_size - dst < size)
			return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, dst,
				    "cp.async: destination outside the block's shared memory");
		if (src_size > size)
			return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, src_size,
				    "cp.async: src-size larger than the copy size");
		if (s->n == CPA_MAX_PENDING)
			cpa_drain_oldest(w);
		if (s->n == s->cap) {
			uint32_t cap = s->cap ? 2 * s->cap : 64;
			struct cpa_copy *q = realloc(s->q, cap * sizeof(*q));

			if (!q)
				return fail(w, in, l, VISA_FAULT_OUT_OF_RESOURCES,
					    0, "cp.async: out of host memory");
			s->q = q;
			s->cap = cap;
		}
		c = &s->q[s->n];
		memset(c->data, 0, sizeof(c->data));
		/* zero-fill: a src-size of 0 reads nothing at all */
		if (src_size == size) {
			const void *p = mem_resolve(w, pc_of(w, in), l,
						    VISA_SPACE_GLOBAL, src,
						    size, ACC_READ);

			if (!p)
				return EXEC_FAULT;
			memcpy(c->data, p, size);
		} else if (src_size && mem_read_bytes(w, pc_of(w, in), l, src,
						      c->data, src_size)) {
			return EXEC_FAULT;
		}
		c->dst = (uint32_t)dst;
		c->group = s->groups[l];
		c->lane = (uint8_t)l;
		c->size = (uint8_t)size;
		s->n++;
	}
	return EXEC_OK;
}

/*
 * Land the copies of the lanes in @mask whose group is older than the
 * @keep most recent committed ones (keep = UINT32_MAX: none; see the
 * callers), keeping the others queued in order.
 */
static void cpa_land(struct warp *w, uint32_t mask, uint32_t keep, bool all)
{
	struct cpa_state *s = w->cpa;
	uint32_t i, n = 0;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		struct cpa_copy *c = &s->q[i];
		bool mine = (mask >> c->lane) & 1;

		if (mine && (all || (uint64_t)c->group + keep <
					    s->groups[c->lane])) {
			memcpy(w->blk->shared + c->dst, c->data, c->size);
			continue;
		}
		s->q[n++] = *c;
	}
	s->n = n;
}

static void cpa_commit(struct warp *w, uint32_t mask)
{
	if (!w->cpa)
		return;		/* no copies: the group numbers do not matter */
	FOR_LANES(mask, w->cpa->groups[l]++);
}

/* ---- mbarrier ------------------------------------------------------------ */

struct mbar {
	uint32_t pending, expected;
	int32_t tx;
	uint32_t phase;
};

static struct mbar mbar_unpack(uint64_t v)
{
	uint32_t txu = (uint32_t)(v >> VISA_MBAR_TX_SHIFT) &
		       VISA_MBAR_FIELD_MASK;
	struct mbar m = {
		.pending = (uint32_t)(v >> VISA_MBAR_PENDING_SHIFT) &
			   VISA_MBAR_FIELD_MASK,
		.expected = (uint32_t)(v >> VISA_MBAR_EXPECTED_SHIFT) &
			    VISA_MBAR_FIELD_MASK,
		/* sign-extend the 21-bit field */
		.tx = (int32_t)(txu << (32 - VISA_MBAR_FIELD_BITS)) >>
		      (32 - VISA_MBAR_FIELD_BITS),
		.phase = (uint32_t)(v >> VISA_MBAR_PHASE_SHIFT) & 1,
	};
	return m;
}

static uint64_t mbar_pack(const struct mbar *m)
{
	return (uint64_t)m->pending << VISA_MBAR_PENDING_SHIFT |
	       (uint64_t)m->expected << VISA_MBAR_EXPECTED_SHIFT |
	       (uint64_t)((uint32_t)m->tx & VISA_MBAR_FIELD_MASK)
			<< VISA_MBAR_TX_SHIFT |
	       (uint64_t)m->phase << VISA_MBAR_PHASE_SHIFT;
}

/* The phase ends when every arrival and every transaction byte is in. */
static void mbar_complete(struct mbar *m)
{
	if (m->pending || m->tx)
		return;
	m->phase ^= 1;
	m->pending = m->expected;
}

/*
 * The object for lane @l, or NULL (fault recorded).  mbarriers live in
 * shared memory: a generic address must point into the shared window.
 */
static uint64_t *mbar_at(struct warp *w, const struct dinsn *in, int l,
			 uint64_t addr)
{
	int space = in->type2;

	if (space == VISA_SPACE_GENERIC) {
		if (addr - VISA_GENERIC_SHARED_BASE >= VISA_GENERIC_WINDOW_SIZE) {
			fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, addr,
			     "mbarrier: the object is not in shared memory");
			return NULL;
		}
		addr -= VISA_GENERIC_SHARED_BASE;
		space = VISA_SPACE_SHARED;
	}
	if (space != VISA_SPACE_SHARED) {
		fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, addr,
		     "mbarrier: the object is not in shared memory");
		return NULL;
	}
	return mem_resolve(w, pc_of(w, in), l, VISA_SPACE_SHARED, addr, 8,
			   ACC_ATOMIC);
}

/* Count operands: 1 .. 2^20 - 1. */
static bool count_ok(uint64_t c)
{
	return c >= 1 && c <= VISA_MBAR_MAX_COUNT;
}

/* One lane's mbarrier operation; returns an exec_status. */
static int mbar_lane(struct warp *w, const struct dinsn *in, int l,
		     uint32_t sub, bool *waited)
{
	uint64_t bval = in->b == VISA_OPND_NONE && !in->lit[1] ? 1 :
			opnd(w, in, 1, in->b, l);
	uint64_t *obj, old;
	struct mbar m;
	bool done;

	obj = mbar_at(w, in, l, opnd(w, in, 0, in->a, l));
	if (!obj)
		return EXEC_FAULT;
	old = *obj;
	m = mbar_unpack(old);
	if (sub == VISA_MBAR_INIT) {
		if (!count_ok(bval))
			return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, bval,
				    "mbarrier.init: count outside 1 .. 2^20-1");
		m = (struct mbar){ .pending = (uint32_t)bval,
				   .expected = (uint32_t)bval };
		*obj = mbar_pack(&m);
		return EXEC_OK;
	}
	if (!m.expected)
		return fail(w, in, l, VISA_FAULT_TRAP, 0,
			    "mbarrier: the object is not an initialised barrier");
	switch (sub) {
	case VISA_MBAR_ARRIVE_EXPECT_TX:
		if (bval > VISA_MBAR_MAX_COUNT ||
		    m.tx + (int64_t)bval > (int64_t)VISA_MBAR_MAX_COUNT)
			return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, bval,
				    "mbarrier: tx-count out of range");
		m.tx += (int32_t)bval;
		bval = 1;
		/* fall through */
	case VISA_MBAR_ARRIVE:
	case VISA_MBAR_ARRIVE_NOCOMPLETE:
	case VISA_MBAR_ARRIVE_DROP:
	case VISA_MBAR_ARRIVE_DROP_NOCOMPLETE:
		if (!count_ok(bval) || bval > m.pending)
			return fail(w, in, l, VISA_FAULT_TRAP, bval,
				    "mbarrier: more arrivals than pending");
		m.pending -= (uint32_t)bval;
		if (sub == VISA_MBAR_ARRIVE_DROP ||
		    sub == VISA_MBAR_ARRIVE_DROP_NOCOMPLETE)
			m.expected -= (uint32_t)bval;
		if (sub != VISA_MBAR_ARRIVE_NOCOMPLETE &&
		    sub != VISA_MBAR_ARRIVE_DROP_NOCOMPLETE)
			mbar_complete(&m);
		if (in->d != VISA_OPND_NONE)
			reg_row(w, in->d)[l] = old;
		break;
	case VISA_MBAR_EXPECT_TX:
	case VISA_MBAR_COMPLETE_TX: {
		int64_t tx = m.tx + (sub == VISA_MBAR_EXPECT_TX ?
				     (int64_t)bval : -(int64_t)bval);

		if (bval > VISA_MBAR_MAX_COUNT ||
		    tx > (int64_t)VISA_MBAR_MAX_COUNT ||
		    tx < -(int64_t)VISA_MBAR_MAX_COUNT)
			return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, bval,
				    "mbarrier: tx-count out of range");
		m.tx = (int32_t)tx;
		if (sub == VISA_MBAR_COMPLETE_TX)
			mbar_complete(&m);
		break;
	}
	case VISA_MBAR_TEST_WAIT:
	case VISA_MBAR_TRY_WAIT:
		done = m.phase != ((bval >> VISA_MBAR_PHASE_SHIFT) & 1);
		goto wait;
	case VISA_MBAR_TEST_WAIT_PARITY:
	case VISA_MBAR_TRY_WAIT_PARITY:
		done = m.phase != (bval & 1);
wait:
		if (in->pd != VISA_OPND_NONE)
			pred_write(&w->preds[in->pd], 1u << l,
				   done ? 1u << l : 0);
		if (!done)
			*waited = true;
		return EXEC_OK;
	case VISA_MBAR_INVAL:
		*obj = 0;
		return EXEC_OK;
	default:
		return exec_bad(w, in, 1u << l);
	}
	*obj = mbar_pack(&m);
	return EXEC_OK;
}

static int exec_mbar(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	uint32_t sub = VISA_MOD_SUB(in->mod);
	bool waited = false;

	if (sub == VISA_MBAR_PENDING_COUNT) {
		uint64_t *d = reg_row(w, in->d);
		const uint64_t *a = src_row(w, in, 0, in->a);

		if (in->d == VISA_OPND_NONE)
			return EXEC_OK;
		FOR_LANES(mask, d[l] = (a[l] >> VISA_MBAR_PENDING_SHIFT) &
				       VISA_MBAR_FIELD_MASK);
		return EXEC_OK;
	}
	for (int l = 0; l < WARP_SIZE; l++) {
		int st;

		if (!((mask >> l) & 1))
			continue;
		st = mbar_lane(w, in, l, sub, &waited);
		if (st != EXEC_OK)
			return st;
	}
	/* A try_wait that must wait lets the block's other warps run. */
	if (waited && (sub == VISA_MBAR_TRY_WAIT ||
		       sub == VISA_MBAR_TRY_WAIT_PARITY))
		return EXEC_YIELD;
	return EXEC_OK;
}

/*
 * complete_tx(@bytes) on the mbarrier at shared offset @addr for lane
 * @l: what the tensor memory accelerator (exec_tma.c) does when a load
 * has landed, as cp.async.bulk does below.
 */
int async_complete_tx(struct warp *w, const struct dinsn *in, int l,
		      uint64_t addr, uint32_t bytes)
{
	uint64_t *obj = mem_resolve(w, pc_of(w, in), l, VISA_SPACE_SHARED,
				    addr, 8, ACC_ATOMIC);
	struct mbar m;
	int64_t tx;

	if (!obj)
		return EXEC_FAULT;
	m = mbar_unpack(*obj);
	if (!m.expected)
		return fail(w, in, l, VISA_FAULT_TRAP, 0,
			    "mbarrier: the object is not an initialised barrier");
	tx = (int64_t)m.tx - bytes;
	if (bytes > VISA_MBAR_MAX_COUNT || tx < -(int64_t)VISA_MBAR_MAX_COUNT)
		return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, bytes,
			    "mbarrier: tx-count out of range");
	m.tx = (int32_t)tx;
	mbar_complete(&m);
	*obj = mbar_pack(&m);
	return EXEC_OK;
}

/* cp.async.mbarrier.arrive: the copies land, then the arrive-on. */
static int cpa_arrive(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	struct dinsn arrive = *in;
	bool waited = false;

	cpa_land(w, mask, 0, true);
	/*
	 * Without .noinc the pending count is raised by one first and the
	 * arrive takes it back: only the completion remains, which happened.
	 * The object must still be a barrier.
	 */
	arrive.d = VISA_OPND_NONE;
	arrive.b = VISA_OPND_NONE;
	arrive.lit[1] = NULL;
	for (int l = 0; l < WARP_SIZE; l++) {
		uint64_t *obj;
		int st;

		if (!((mask >> l) & 1))
			continue;
		if (VISA_MOD_SUB(in->mod) != VISA_CPA_ARRIVE_NOINC) {
			obj = mbar_at(w, in, l, opnd(w, in, 0, in->a, l));
			if (!obj)
				return EXEC_FAULT;
			if (!mbar_unpack(*obj).expected)
				return fail(w, in, l, VISA_FAULT_TRAP, 0,
					    "mbarrier: the object is not an initialised barrier");
			continue;
		}
		st = mbar_lane(w, &arrive, l, VISA_MBAR_ARRIVE, &waited);
		if (st != EXEC_OK)
			return st;
	}
	return EXEC_OK;
}

/* ---- cp.async.bulk ------------------------------------------------------- */

static int bulk_lane(struct warp *w, const struct dinsn *in, int l)
{
	struct block *b = w->blk;
	uint64_t dst = opnd(w, in, 0, in->a, l);
	uint64_t src = opnd(w, in, 1, in->b, l);
	uint32_t size = (uint32_t)opnd(w, in, 2, in->c, l);
	uint64_t soff = in->type2 == VISA_SPACE_SHARED ? dst : src;
	uint32_t pc = pc_of(w, in);
	uint8_t *sh;

	if ((dst | src | size) & 15)
		return fail(w, in, l, VISA_FAULT_MISALIGNED,
			    (dst | src) & 15 ? ((dst & 15) ? dst : src) : size,
			    "cp.async.bulk: addresses and size must be multiples of 16");
	if (soff > b->shared_size || b->shared_size - soff < size)
		return fail(w, in, l, VISA_FAULT_OUT_OF_RANGE, soff,
			    "cp.async.bulk: outside the block's shared memory");
	sh = b->shared + soff;
	if (in->type2 == VISA_SPACE_SHARED) {
		if (mem_read_bytes(w, pc, l, src, sh, size))
			return EXEC_FAULT;
	} else if (mem_write_bytes(w, pc, l, dst, sh, size)) {
		return EXEC_FAULT;
	}
	if (in->e != VISA_OPND_NONE || in->lit[3]) {
		struct dinsn tx = *in;
		bool waited = false;

		/* complete_tx(size) on the mbarrier in e */
		tx.a = in->e;
		tx.lit[0] = in->lit[3];
		tx.b = in->c;
		tx.lit[1] = in->lit[2];
		tx.type2 = VISA_SPACE_SHARED;
		tx.d = VISA_OPND_NONE;
		return mbar_lane(w, &tx, l, VISA_MBAR_COMPLETE_TX, &waited);
	}
	return EXEC_OK;
}

static int exec_bulk(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	if (in->type2 != VISA_SPACE_SHARED && in->type2 != VISA_SPACE_GLOBAL)
		return exec_bad(w, in, mask);
	for (int l = 0; l < WARP_SIZE; l++) {
		int st;

		if (!((mask >> l) & 1))
			continue;
		st = bulk_lane(w, in, l);
		if (st != EXEC_OK)
			return st;
	}
	return EXEC_OK;
}

/* ---- elect.sync ---------------------------------------------------------- */

static int exec_elect(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	const uint64_t *e = src_row(w, in, 3, in->e);
	uint32_t members = (uint32_t)e[__builtin_ctz(mask)] & mask;
	int leader = members ? __builtin_ctz(members) : -1;

	FOR_LANES(mask, {
		if (in->d != VISA_OPND_NONE)
			reg_row(w, in->d)[l] = (uint32_t)leader;
		pred_write(&w->preds[in->pd], 1u << l,
			   l == leader ? 1u << l : 0);
	});
	return EXEC_OK;
}

int exec_async(struct warp *w, const struct dinsn *in, uint32_t mask)
{
	switch (in->op) {
	case VISA_OP_CP_ASYNC:
		return cpa_issue(w, in, mask);
	case VISA_OP_CP_ASYNC_COMMIT:
		cpa_commit(w, mask);
		return EXEC_OK;
	case VISA_OP_CP_ASYNC_WAIT:
		cpa_land(w, mask, in->imm > UINT32_MAX ? UINT32_MAX :
				  (uint32_t)in->imm, false);
		return EXEC_OK;
	case VISA_OP_CP_ASYNC_ARRIVE:
		return cpa_arrive(w, in, mask);
	case VISA_OP_MBAR:
		return exec_mbar(w, in, mask);
	case VISA_OP_CP_BULK:
		return exec_bulk(w, in, mask);
	case VISA_OP_ELECT:
		return exec_elect(w, in, mask);
	case VISA_OP_TMA:
		return exec_tma(w, in, mask);
	}
	return exec_bad(w, in, mask);
}
