// SPDX-License-Identifier: GPL-2.0
/*
 * The device's one timer, which serves every deadline: Route Discovery and
 * the Send Buffer (discovery.c, sendbuf.c), Route Maintenance (maint.c),
 * the route cache's expiry, the multicast trees' refresh (mcast.c).
 * dsr_kick() (dsr.h) starts it; it runs every timer_ms while anything
 * waits.
 */
#include "dsr.h"

static bool dsr_has_work(const struct dsr_priv *priv)
{
	return !skb_queue_empty(&priv->sendbuf) || priv->n_maint ||
	       priv->n_discs || !skb_queue_empty(&priv->fwdq) ||
	       dsr_mcast_has_work(priv);
}

/*
 * Every timer_ms while anything waits: Route Discovery, the Send Buffer,
 * Route Maintenance.  timer_runs and timer_ns count its cost (the locked
 * part; the frames it sends are the senders' cost).
 */
static void dsr_timer(struct timer_list *t)
{
	struct dsr_priv *priv = from_timer(priv, t, timer);
	u64 t0 = ktime_get_ns(), now;
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	dsr_lock(priv);
	now = dsr_now(priv);
	if (priv->dead) {
		dsr_unlock(priv);
		return;
	}
	dsr_disc_timer(priv, now, &out);
	dsr_maint_tick(priv, now, &out);
	dsr_mcast_tick(priv, now, &out);
	if (now - priv->last_expire >= 1000) {
		dsr_rc_expire(&priv->rc, now);
		priv->last_expire = now;
	}
	if (dsr_has_work(priv))
		dsr_kick(priv);
	dsr_out_commit(priv, &out);
	dsr_unlock(priv);
	atomic_long_add(ktime_get_ns() - t0, &priv->stats[DSR_S_TIMER_NS]);
	dsr_stat(priv, DSR_S_TIMER_RUNS);
	dsr_out_flush(priv);
}

void dsr_timer_init(struct dsr_priv *priv)
{
	timer_setup(&priv->timer, dsr_timer, 0);
}
