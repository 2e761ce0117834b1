// SPDX-License-Identifier: GPL-2.0
/*
 * IP protocol 48 outside dsr devices: a packet that reaches local delivery
 * did not come in on a dsr slave (those are taken before routing).  In a
 * namespace with a dsr device it is dropped quietly; elsewhere it is
 * answered as if the module were not loaded.  Per namespace, how many dsr
 * devices it has.
 */
#include <net/icmp.h>
#include <net/ip.h>
#include <net/netns/generic.h>
#include <net/protocol.h>
#include <net/raw.h>
#include <net/route.h>
#include <net/xfrm.h>

#include "dsr.h"

/* Per namespace: how many dsr devices it has. */
struct dsr_net {
	atomic_t ndevs;
};

static unsigned int dsr_net_id __read_mostly;

static void __net_exit dsr_net_exit(struct net *net)
{
	struct dsr_net *dn = net_generic(net, dsr_net_id);

	/* the namespace's devices went before its subsystems */
	WARN_ON_ONCE(atomic_read(&dn->ndevs));
}

static struct pernet_operations dsr_net_ops = {
	.exit = dsr_net_exit,
	.id = &dsr_net_id,
	.size = sizeof(struct dsr_net),
};

/*
 * Counted as they register and unregister, first in the chain: a
 * notifier that refuses a registration makes it roll back with an
 * unregister, which we then see after the register.  (dsr0 never changes
 * namespace; if it did, it would unregister in one and register in the
 * other.)
 */
static int dsr_count_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct dsr_net *dn;

	if (!dsr_is_dsr(dev))
		return NOTIFY_DONE;
	dn = net_generic(dev_net(dev), dsr_net_id);
	if (event == NETDEV_REGISTER)
		atomic_inc(&dn->ndevs);
	else if (event == NETDEV_UNREGISTER)
		atomic_dec(&dn->ndevs);
	return NOTIFY_DONE;
}

static struct notifier_block dsr_count_notifier = {
	.notifier_call = dsr_count_event,
	.priority = INT_MAX,
};

/* Whether a raw socket got a copy (raw_local_deliver()'s answer). */
static bool dsr_raw_delivered(struct net *net, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct hlist_head *head;
	struct sock *sk;

	head = &raw_v4_hashinfo.ht[raw_hashfunc(net, DSR_IPPROTO)];
	sk_for_each_rcu(sk, head)
		if (raw_v4_match(net, sk, DSR_IPPROTO, iph->saddr, iph->daddr,
				 inet_iif(skb), inet_sdif(skb)))
			return true;
	return false;
}

/*
 * Protocol 48 that reaches local delivery did not come in on a dsr slave
 * (those are taken before routing).  In a namespace with a dsr device it
 * is dropped quietly, never answered with an ICMP protocol unreachable;
 * elsewhere it gets what it would without this handler
 * (ip_protocol_deliver_rcu()): consumed if a raw socket took a copy,
 * otherwise an ICMP protocol unreachable (policy permitting) and a drop.
 * Under RCU (local delivery).
 */
static int dsr_stray_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct dsr_net *dn = net_generic(net, dsr_net_id);

	if (atomic_read(&dn->ndevs) > 0) {
		kfree_skb(skb);
		return 0;
	}
	if (dsr_raw_delivered(net, skb)) {
		consume_skb(skb);
		return 0;
	}
	if (xfrm4_policy_check(NULL, XFRM_POLICY_IN, skb)) {
		__IP_INC_STATS(net, IPSTATS_MIB_INUNKNOWNPROTOS);
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PROT_UNREACH, 0);
	}
	kfree_skb_reason(skb, SKB_DROP_REASON_IP_NOPROTO);
	return 0;
}

static const struct net_protocol dsr_protocol = {
	.handler = dsr_stray_rcv,
	.no_policy = 1,
};

int dsr_stray_init(void)
{
	int err;

	err = register_pernet_subsys(&dsr_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&dsr_count_notifier);
	if (err)
		goto err_pernet;
	err = inet_add_protocol(&dsr_protocol, DSR_IPPROTO);
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_netdevice_notifier(&dsr_count_notifier);
err_pernet:
	unregister_pernet_subsys(&dsr_net_ops);
	return err;
}

void dsr_stray_exit(void)
{
	inet_del_protocol(&dsr_protocol, DSR_IPPROTO);
	synchronize_net();
	unregister_netdevice_notifier(&dsr_count_notifier);
	unregister_pernet_subsys(&dsr_net_ops);
}
