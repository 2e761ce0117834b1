// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbours: the IPv4 address, MAC and slave of each node we hear, learned
 * from the frames themselves (dsr0 is IFF_NOARP), and the per-next-hop
 * state of Route Maintenance, including the retransmission timeout.
 * Bounded: DSR_MAX_NEIGH per device, the one heard least recently goes.
 */
#include <linux/etherdevice.h>

#include "dsr.h"

struct dsr_neigh *dsr_neigh_find(struct dsr_priv *priv, __be32 addr)
{
	struct dsr_neigh *n;

	list_for_each_entry(n, &priv->neighs, list)
		if (n->addr == addr)
			return n;
	return NULL;
}

void dsr_neigh_heard(struct dsr_priv *priv, __be32 addr, const u8 *mac,
		     struct dsr_slave *slave)
{
	struct dsr_neigh *n = dsr_neigh_find(priv, addr);

	if (!dsr_addr_routable(addr) || !is_valid_ether_addr(mac))
		return;
	if (!n) {
		if (priv->n_neighs >= DSR_MAX_NEIGH) {
			n = list_last_entry(&priv->neighs, struct dsr_neigh,
					    list);
		} else {
			n = kzalloc(sizeof(*n), GFP_ATOMIC);
			if (!n) {
				dsr_stat(priv, DSR_S_NOMEM);
				return;
			}
			priv->n_neighs++;
			list_add(&n->list, &priv->neighs);
		}
		*n = (struct dsr_neigh){ .list = n->list, .addr = addr };
		n->rto_ms = DSR_P(priv, ACK_TIMEOUT_MS);
	}
	ether_addr_copy(n->mac, mac);
	n->slave = slave;
	n->heard = dsr_now();
	list_move(&n->list, &priv->neighs);	/* most recent first */
}

void dsr_neigh_slave_gone(struct dsr_priv *priv, struct dsr_slave *slave)
{
	struct dsr_neigh *n, *tmp;

	list_for_each_entry_safe(n, tmp, &priv->neighs, list) {
		if (n->slave != slave)
			continue;
		list_del(&n->list);
		priv->n_neighs--;
		kfree(n);
	}
}

void dsr_neigh_flush(struct dsr_priv *priv)
{
	struct dsr_neigh *n, *tmp;

	list_for_each_entry_safe(n, tmp, &priv->neighs, list) {
		list_del(&n->list);
		kfree(n);
	}
	priv->n_neighs = 0;
}

/*
 * The retransmission timeout for the next transmission of m to n: the one
 * place that decides it.  Here a fixed value per kind of acknowledgment
 * awaited (PassiveAckTimeout, or AckTimeout for a network-layer ack);
 * n->rto_ms is where an adaptive per-next-hop estimate will live.
 */
u32 dsr_neigh_rto(struct dsr_priv *priv, struct dsr_neigh *n,
		  const struct dsr_maint *m)
{
	if (!m->explicit)
		return DSR_P(priv, PASSIVE_ACK_TIMEOUT_MS);
	if (n)
		n->rto_ms = DSR_P(priv, ACK_TIMEOUT_MS);
	return DSR_P(priv, ACK_TIMEOUT_MS);
}
