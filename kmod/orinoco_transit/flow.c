// SPDX-License-Identifier: GPL-2.0
/*
 * The transit flow table and learner; see flow.h.
 *
 * One allocation holds the table, cap flow slots and two bucket arrays
 * (a power of two at least cap long, so chains average under one flow).
 * Flows are linked by slot index:
 *   - a chain per key bucket, for rx;
 *   - a chain per mark bucket, by (saddr, daddr, IP id), for tx and the
 *     drop report, which do not know the ports;
 *   - the LRU list, most recently received first: a new flow in a full
 *     table takes the slot of the tail, and idle flows leave from it;
 *   - the outstanding marks by deadline, so that expiry is O(expired).
 * Every operation is O(1) but for the chain walks.  Buckets come from a
 * keyed hash (Bob Jenkins' lookup3 final mix, as the kernel's
 * jhash_3words()) of a random seed, so a peer that spoofs sources cannot
 * choose a bucket; it can only make flows come and go, which the LRU
 * bounds and the eviction count shows.
 */
#include "flow.h"

/* expired marks resolved per packet, so that no tick is strictly needed */
#define TR_EXPIRE_BUDGET	2

#define TR_MARK_SALT		0x5bd1e995
#define TR_FRAG_SALT		0x27d4eb2f

/* ---- parameters ------------------------------------------------------ */

void tr_params_default(struct tr_params *p)
{
	p->n_misses = 3;
	p->mark_timeout_ms = 200;
	p->probe_interval_ms = 5000;
	p->peek_len = TR_PEEK_LEN_MIN;
	p->table_size = 1024;
	p->key_ports = 0;
	p->idle_timeout_ms = 60000;
}

enum tr_param tr_params_check(const struct tr_params *p)
{
	if (!p->n_misses || p->n_misses > TR_N_MISSES_MAX)
		return TR_PARAM_N_MISSES;
	if (!p->mark_timeout_ms || p->mark_timeout_ms > TR_MARK_TIMEOUT_MAX)
		return TR_PARAM_MARK_TIMEOUT;
	/* a probe must be resolved before the next one is due */
	if (p->probe_interval_ms < TR_PROBE_INTERVAL_MIN ||
	    p->probe_interval_ms > TR_PROBE_INTERVAL_MAX ||
	    p->probe_interval_ms <= p->mark_timeout_ms)
		return TR_PARAM_PROBE_INTERVAL;
	if (p->peek_len < TR_PEEK_LEN_MIN || p->peek_len > TR_PEEK_LEN_MAX)
		return TR_PARAM_PEEK_LEN;
	if (p->table_size < TR_TABLE_SIZE_MIN ||
	    p->table_size > TR_TABLE_SIZE_MAX)
		return TR_PARAM_TABLE_SIZE;
	/* ports must be read on receive to be in the key */
	if (p->key_ports > 1 ||
	    (p->key_ports && p->peek_len < TR_PEEK_LEN_PORTS))
		return TR_PARAM_KEY_PORTS;
	/* a flow must outlive its mark */
	if (p->idle_timeout_ms <= p->mark_timeout_ms ||
	    p->idle_timeout_ms > TR_IDLE_TIMEOUT_MAX)
		return TR_PARAM_IDLE_TIMEOUT;
	return TR_PARAM_OK;
}

static const char * const tr_param_why[__TR_PARAM_MAX] = {
	[TR_PARAM_OK]		  = "valid",
	[TR_PARAM_N_MISSES]	  = "n_misses must be 1..64",
	[TR_PARAM_MARK_TIMEOUT]	  = "mark_timeout_ms must be 1..10000",
	[TR_PARAM_PROBE_INTERVAL] =
		"probe_interval_ms must be 100..3600000 and above mark_timeout_ms",
	[TR_PARAM_PEEK_LEN]	  = "peek_len must be 34..128",
	[TR_PARAM_TABLE_SIZE]	  = "table_size must be 16..65536",
	[TR_PARAM_KEY_PORTS]	  = "key_ports must be 0 or 1, and 1 needs peek_len >= 38",
	[TR_PARAM_IDLE_TIMEOUT]	  =
		"idle_timeout_ms must be above mark_timeout_ms and at most 86400000",
};

const char *tr_params_why(enum tr_param f)
{
	return (unsigned int)f < __TR_PARAM_MAX ? tr_param_why[f] : "?";
}

/* ---- hashing --------------------------------------------------------- */

static u32 tr_rol32(u32 w, unsigned int s)
{
	return w << s | w >> (32 - s);
}

/* jhash_3words(a, b, c, seed), written out so that userspace has it too */
static u32 tr_hash3(u32 a, u32 b, u32 c, u32 seed)
{
	u32 init = 0xdeadbeef + (3 << 2) + seed;

	a += init;
	b += init;
	c += init;
	c ^= b;
	c -= tr_rol32(b, 14);
	a ^= c;
	a -= tr_rol32(c, 11);
	b ^= a;
	b -= tr_rol32(a, 25);
	c ^= b;
	c -= tr_rol32(b, 16);
	a ^= c;
	a -= tr_rol32(c, 4);
	b ^= a;
	b -= tr_rol32(a, 14);
	c ^= b;
	c -= tr_rol32(b, 24);
	return c;
}

/* the protocol goes into the seed: no key can trade it for address bits */
static u32 tr_key_bucket(const struct tr_table *t, const struct tr_key *k)
{
	return tr_hash3((__force u32)k->saddr, (__force u32)k->daddr,
			(u32)k->sport << 16 | k->dport,
			t->seed + k->proto) & t->mask;
}

static u32 tr_mark_bucket(const struct tr_table *t, __be32 saddr,
			  __be32 daddr, u16 id)
{
	return tr_hash3((__force u32)saddr, (__force u32)daddr, id,
			t->seed ^ TR_MARK_SALT) & t->mask;
}

static bool tr_key_eq(const struct tr_key *a, const struct tr_key *b)
{
	return a->saddr == b->saddr && a->daddr == b->daddr &&
	       a->sport == b->sport && a->dport == b->dport &&
	       a->proto == b->proto;
}

static void tr_key_of(const struct tr_table *t, const struct tr_peek *p,
		      struct tr_key *k)
{
	memset(k, 0, sizeof(*k));
	k->saddr = p->saddr;
	k->daddr = p->daddr;
	k->proto = p->protocol;
	/* has_ports: a first fragment whose ports were read */
	if (t->p.key_ports && p->has_ports) {
		k->sport = p->sport;
		k->dport = p->dport;
	}
}

/* ---- lists ----------------------------------------------------------- */

static u32 tr_idx(const struct tr_table *t, const struct tr_flow *f)
{
	return (u32)(f - t->flow);
}

static void tr_lru_unlink(struct tr_table *t, struct tr_flow *f)
{
	if (f->prev != TR_NIL)
		t->flow[f->prev].next = f->next;
	else
		t->lru_head = f->next;
	if (f->next != TR_NIL)
		t->flow[f->next].prev = f->prev;
	else
		t->lru_tail = f->prev;
	f->prev = TR_NIL;
	f->next = TR_NIL;
}

static void tr_lru_push(struct tr_table *t, struct tr_flow *f)
{
	u32 i = tr_idx(t, f);

	f->prev = TR_NIL;
	f->next = t->lru_head;
	if (t->lru_head != TR_NIL)
		t->flow[t->lru_head].prev = i;
	else
		t->lru_tail = i;
	t->lru_head = i;
}

static void tr_lru_touch(struct tr_table *t, struct tr_flow *f)
{
	if (t->lru_head == tr_idx(t, f))
		return;
	tr_lru_unlink(t, f);
	tr_lru_push(t, f);
}

static u32 tr_lookup(const struct tr_table *t, const struct tr_key *k)
{
	u32 i = t->bucket[tr_key_bucket(t, k)];

	while (i != TR_NIL && !tr_key_eq(&t->flow[i].key, k))
		i = t->flow[i].hnext;
	return i;
}

/* Remove slot i from the singly linked chain starting at *head. */
static void tr_chain_unlink(struct tr_table *t, u32 *head, u32 i,
			    bool mark_chain)
{
	u32 *pp = head;

	while (*pp != TR_NIL && *pp != i)
		pp = mark_chain ? &t->flow[*pp].mhnext : &t->flow[*pp].hnext;
	if (*pp == i)
		*pp = mark_chain ? t->flow[i].mhnext : t->flow[i].hnext;
}

/* ---- marks ----------------------------------------------------------- */

/* Into the deadline list, from the tail: O(1) while time goes forward. */
static void tr_mark_enqueue(struct tr_table *t, struct tr_flow *f)
{
	u32 i = tr_idx(t, f), after = t->mark_tail;

	while (after != TR_NIL &&
	       t->flow[after].mark_deadline > f->mark_deadline)
		after = t->flow[after].mprev;
	f->mprev = after;
	if (after != TR_NIL) {
		f->mnext = t->flow[after].mnext;
		t->flow[after].mnext = i;
	} else {
		f->mnext = t->mark_head;
		t->mark_head = i;
	}
	if (f->mnext != TR_NIL)
		t->flow[f->mnext].mprev = i;
	else
		t->mark_tail = i;
}

static void tr_mark_set(struct tr_table *t, struct tr_flow *f, u16 id,
			u64 now)
{
	u32 h = tr_mark_bucket(t, f->key.saddr, f->key.daddr, id);

	f->marked = true;
	f->mark_id = id;
	f->mark_deadline = now + t->p.mark_timeout_ms;
	f->mhnext = t->mbucket[h];
	t->mbucket[h] = tr_idx(t, f);
	tr_mark_enqueue(t, f);
	f->marks++;
	t->tot.marks++;
}

static void tr_mark_clear(struct tr_table *t, struct tr_flow *f)
{
	u32 h = tr_mark_bucket(t, f->key.saddr, f->key.daddr, f->mark_id);

	tr_chain_unlink(t, &t->mbucket[h], tr_idx(t, f), true);
	if (f->mprev != TR_NIL)
		t->flow[f->mprev].mnext = f->mnext;
	else
		t->mark_head = f->mnext;
	if (f->mnext != TR_NIL)
		t->flow[f->mnext].mprev = f->mprev;
	else
		t->mark_tail = f->mprev;
	f->mhnext = TR_NIL;
	f->mprev = TR_NIL;
	f->mnext = TR_NIL;
	f->marked = false;
}

/* The outstanding mark of (saddr, daddr, id), of flow key k if given. */
static u32 tr_mark_find(const struct tr_table *t, __be32 saddr,
			__be32 daddr, u16 id, const struct tr_key *k)
{
	u32 i = t->mbucket[tr_mark_bucket(t, saddr, daddr, id)];

	for (; i != TR_NIL; i = t->flow[i].mhnext) {
		const struct tr_flow *f = &t->flow[i];

		if (f->key.saddr == saddr && f->key.daddr == daddr &&
		    f->mark_id == id && (!k || tr_key_eq(&f->key, k)))
			break;
	}
	return i;
}

/* The marked packet was not forwarded (or not in time). */
static void tr_miss(struct tr_table *t, struct tr_flow *f, u64 now)
{
	tr_mark_clear(t, f);
	f->misses_total++;
	t->tot.misses++;
	if (f->misses < 0xff)
		f->misses++;
	if (f->state == TR_STATE_DROP)
		return;		/* a lost probe: next one as planned */
	if (f->misses >= t->p.n_misses) {
		f->state = TR_STATE_DROP;
		f->next_mark = now + t->p.probe_interval_ms;
	} else {
		/* confirm at once: the next packet is marked */
		f->next_mark = now;
	}
}

/* The marked packet was forwarded. */
static void tr_seen(struct tr_table *t, struct tr_flow *f, u64 now)
{
	tr_mark_clear(t, f);
	t->tot.seen++;
	if (f->state == TR_STATE_DROP) {
		/* we were dropping a flow the kernel forwards */
		f->false_positives++;
		t->tot.false_positives++;
	}
	f->state = TR_STATE_FORWARD;
	f->misses = 0;
	f->next_mark = now + t->p.probe_interval_ms;
}

static void tr_expire_marks(struct tr_table *t, u64 now, u32 budget)
{
	while (budget-- && t->mark_head != TR_NIL) {
		struct tr_flow *f = &t->flow[t->mark_head];

		if (now <= f->mark_deadline)
			break;
		tr_miss(t, f, now);
	}
}

/* ---- flows ----------------------------------------------------------- */

static void tr_flow_release(struct tr_table *t, struct tr_flow *f)
{
	u32 i = tr_idx(t, f);

	if (f->marked)
		tr_mark_clear(t, f);
	tr_chain_unlink(t, &t->bucket[tr_key_bucket(t, &f->key)], i, false);
	tr_lru_unlink(t, f);
	memset(f, 0, sizeof(*f));
	f->hnext = t->free_head;
	t->free_head = i;
	t->count--;
}

/* A slot for a new flow: a free one, or the least recently used one. */
static struct tr_flow *tr_flow_new(struct tr_table *t, const struct tr_key *k,
				   u64 now)
{
	struct tr_flow *f;
	u32 i, h;

	if (t->free_head == TR_NIL) {
		tr_flow_release(t, &t->flow[t->lru_tail]);
		t->tot.evictions++;
	}
	i = t->free_head;
	f = &t->flow[i];
	t->free_head = f->hnext;
	memset(f, 0, sizeof(*f));
	f->key = *k;
	f->state = TR_STATE_LEARNING;
	f->created = now;
	f->last = now;
	f->next_mark = now;
	f->mhnext = TR_NIL;
	f->mprev = TR_NIL;
	f->mnext = TR_NIL;
	h = tr_key_bucket(t, k);
	f->hnext = t->bucket[h];
	t->bucket[h] = i;
	tr_lru_push(t, f);
	t->count++;
	t->tot.new_flows++;
	return f;
}

static void tr_reset(struct tr_table *t)
{
	u32 i;

	memset(t->flow, 0, sizeof(*t->flow) * (size_t)t->cap);
	memset(t->bucket, 0xff, sizeof(*t->bucket) * ((size_t)t->mask + 1));
	memset(t->mbucket, 0xff, sizeof(*t->mbucket) * ((size_t)t->mask + 1));
	for (i = 0; i < t->cap; i++)
		t->flow[i].hnext = i + 1 < t->cap ? i + 1 : TR_NIL;
	t->free_head = 0;
	t->lru_head = TR_NIL;
	t->lru_tail = TR_NIL;
	t->mark_head = TR_NIL;
	t->mark_tail = TR_NIL;
	t->count = 0;
	memset(t->frag, 0, sizeof(t->frag));
}

struct tr_table *tr_flow_create(const struct tr_params *p, u32 seed)
{
	struct tr_table *t;
	u32 nb = 1;
	size_t size;

	if (tr_params_check(p) != TR_PARAM_OK)
		return NULL;
	while (nb < p->table_size)
		nb <<= 1;
	size = sizeof(*t) + sizeof(*t->flow) * (size_t)p->table_size +
	       2 * sizeof(u32) * (size_t)nb;
	t = ah_zalloc(size);
	if (!t)
		return NULL;
	t->p = *p;
	t->seed = seed;
	t->cap = p->table_size;
	t->mask = nb - 1;
	t->flow = (struct tr_flow *)(t + 1);
	t->bucket = (u32 *)(t->flow + t->cap);
	t->mbucket = t->bucket + nb;
	tr_reset(t);
	return t;
}

void tr_flow_destroy(struct tr_table *t)
{
	ah_free(t);
}

int tr_flow_set_params(struct tr_table *t, const struct tr_params *p)
{
	bool rekey;

	if (tr_params_check(p) != TR_PARAM_OK ||
	    p->table_size != t->p.table_size)
		return -1;
	rekey = p->peek_len != t->p.peek_len || p->key_ports != t->p.key_ports;
	t->p = *p;
	if (rekey)
		tr_reset(t);
	return 0;
}

void tr_flow_flush(struct tr_table *t)
{
	tr_reset(t);
}

void tr_flow_clear_totals(struct tr_table *t)
{
	memset(&t->tot, 0, sizeof(t->tot));
}

/* ---- fragments ------------------------------------------------------- */

static struct tr_frag *tr_frag_set(struct tr_table *t,
				   const struct tr_peek *p)
{
	u32 h = tr_hash3((__force u32)p->saddr, (__force u32)p->daddr,
			 (u32)p->id << 8 | p->protocol, t->seed ^ TR_FRAG_SALT);

	return &t->frag[(h % (TR_FRAG_SLOTS / TR_FRAG_WAYS)) * TR_FRAG_WAYS];
}

static bool tr_frag_is(const struct tr_frag *r, const struct tr_peek *p)
{
	return r->expires && r->saddr == p->saddr && r->daddr == p->daddr &&
	       r->id == p->id && r->proto == p->protocol;
}

/* A first fragment got verdict v: its datagram's later ones follow. */
static void tr_frag_note(struct tr_table *t, const struct tr_peek *p,
			 enum tr_verdict v, u64 now)
{
	struct tr_frag *set = tr_frag_set(t, p), *r = NULL;
	unsigned int i;

	for (i = 0; i < TR_FRAG_WAYS; i++) {
		if (tr_frag_is(&set[i], p)) {
			r = &set[i];
			break;
		}
		if (!r || set[i].expires < r->expires)
			r = &set[i];
	}
	/* a datagram let through once is never cut by a duplicate */
	if (tr_frag_is(r, p) && r->expires > now && r->verdict == TR_PASS)
		v = TR_PASS;
	r->saddr = p->saddr;
	r->daddr = p->daddr;
	r->id = p->id;
	r->proto = p->protocol;
	r->verdict = v;
	r->expires = now + TR_FRAG_TTL_MS;
}

/* A non-first fragment: its datagram's verdict, or pass if unknown. */
static enum tr_verdict tr_frag_verdict(struct tr_table *t,
				       const struct tr_peek *p, u64 now)
{
	struct tr_frag *set = tr_frag_set(t, p);
	unsigned int i;

	for (i = 0; i < TR_FRAG_WAYS; i++) {
		if (!tr_frag_is(&set[i], p) || set[i].expires <= now)
			continue;
		if (set[i].verdict != TR_DROP)
			break;
		t->tot.frag_drops++;
		return TR_DROP;
	}
	return TR_PASS;
}

/* ---- the hooks ------------------------------------------------------- */

static enum tr_verdict tr_decide(struct tr_table *t, struct tr_flow *f,
				 const struct tr_peek *p, u64 now)
{
	switch (f->state) {
	case TR_STATE_DROP:
		if (f->marked || now < f->next_mark)
			return TR_DROP;
		/* let one through, marked: has a firewall rule gone? */
		f->probes++;
		t->tot.probes++;
		f->next_mark = now + t->p.probe_interval_ms;
		tr_mark_set(t, f, p->id, now);
		return TR_PASS;
	case TR_STATE_FORWARD:
		/* re-mark now and then: has a firewall rule come? */
		if (!f->marked && now >= f->next_mark) {
			f->next_mark = now + t->p.probe_interval_ms;
			tr_mark_set(t, f, p->id, now);
		}
		return TR_PASS;
	default:
		if (!f->marked)
			tr_mark_set(t, f, p->id, now);
		return TR_PASS;
	}
}

static enum tr_verdict tr_flow_verdict(struct tr_table *t,
				       const struct tr_peek *p, u64 now,
				       u32 frame_len)
{
	enum tr_verdict v;
	struct tr_flow *f;
	struct tr_key k;
	u32 i;

	tr_key_of(t, p, &k);
	i = tr_lookup(t, &k);
	f = i != TR_NIL ? &t->flow[i] : tr_flow_new(t, &k, now);
	if (f->marked && now > f->mark_deadline)
		tr_miss(t, f, now);
	tr_lru_touch(t, f);
	f->last = now;
	f->pkts++;
	f->bytes += frame_len;
	v = tr_decide(t, f, p, now);
	if (v == TR_DROP)
		f->dropped++;
	if (p->mf)
		tr_frag_note(t, p, v, now);
	return v;
}

enum tr_verdict tr_flow_rx(struct tr_table *t, const struct tr_peek *p,
			   u64 now, u32 frame_len, u32 peek_len)
{
	enum tr_verdict v;

	tr_expire_marks(t, now, TR_EXPIRE_BUDGET);
	t->tot.rx++;
	if (!tr_peek_droppable(p)) {
		t->tot.never_drop++;
		v = TR_PASS;
	} else if (!tr_peek_first_frag(p)) {
		v = tr_frag_verdict(t, p, now);
	} else {
		v = tr_flow_verdict(t, p, now, frame_len);
	}
	if (v == TR_DROP) {
		t->tot.early_drops++;
		if (frame_len > peek_len)
			t->tot.pio_bytes_saved += frame_len - peek_len;
	} else {
		t->tot.passes++;
	}
	return v;
}

void tr_flow_rx_local(struct tr_table *t)
{
	t->tot.rx++;
	t->tot.never_drop++;
	t->tot.passes++;
}

bool tr_flow_tx(struct tr_table *t, const u8 *data, u32 avail,
		u32 frame_len, u64 now)
{
	struct tr_peek p;
	struct tr_key k;
	u32 i;

	tr_expire_marks(t, now, TR_EXPIRE_BUDGET);
	if (avail > t->p.peek_len)
		avail = t->p.peek_len;
	if (tr_peek(data, avail, frame_len, &p) != TR_PEEK_OK)
		return false;
	tr_key_of(t, &p, &k);
	i = tr_mark_find(t, p.saddr, p.daddr, p.id, &k);
	if (i == TR_NIL)
		return false;
	if (now > t->flow[i].mark_deadline) {
		tr_miss(t, &t->flow[i], now);	/* too late */
		return false;
	}
	tr_seen(t, &t->flow[i], now);
	return true;
}

bool tr_flow_mark_dropped(struct tr_table *t, __be32 saddr, __be32 daddr,
			  u16 id, u64 now)
{
	u32 i = tr_mark_find(t, saddr, daddr, id, NULL);

	if (i == TR_NIL)
		return false;
	tr_miss(t, &t->flow[i], now);
	return true;
}

void tr_flow_note_kernel_drop(struct tr_table *t)
{
	t->tot.false_negatives++;
}

unsigned int tr_flow_tick(struct tr_table *t, u64 now)
{
	unsigned int n = 0;

	tr_expire_marks(t, now, U32_MAX);
	while (t->lru_tail != TR_NIL) {
		struct tr_flow *f = &t->flow[t->lru_tail];

		if (now <= f->last || now - f->last <= t->p.idle_timeout_ms)
			break;
		tr_flow_release(t, f);
		n++;
	}
	t->tot.idle_expired += n;
	return n;
}

/* ---- dumps ----------------------------------------------------------- */

static void tr_info(const struct tr_flow *f, struct tr_flow_info *fi,
		    u64 now)
{
	memset(fi, 0, sizeof(*fi));
	fi->key = f->key;
	fi->state = f->state;
	fi->misses = f->misses;
	fi->marked = f->marked;
	fi->pkts = f->pkts;
	fi->bytes = f->bytes;
	fi->dropped = f->dropped;
	fi->marks = f->marks;
	fi->probes = f->probes;
	fi->misses_total = f->misses_total;
	fi->false_positives = f->false_positives;
	fi->idle_ms = now > f->last ? now - f->last : 0;
	fi->age_ms = now > f->created ? now - f->created : 0;
}

bool tr_flow_iter(const struct tr_table *t, u32 *cursor,
		  struct tr_flow_info *fi, u64 now)
{
	u32 i;

	for (i = *cursor; i < t->cap; i++) {
		if (t->flow[i].state == TR_STATE_FREE)
			continue;
		tr_info(&t->flow[i], fi, now);
		*cursor = i + 1;
		return true;
	}
	*cursor = t->cap;
	return false;
}

bool tr_flow_find(const struct tr_table *t, const struct tr_key *k,
		  struct tr_flow_info *fi, u64 now)
{
	u32 i = tr_lookup(t, k);

	if (i == TR_NIL)
		return false;
	tr_info(&t->flow[i], fi, now);
	return true;
}
