#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# busybox udhcpc's script for node.sh's cellular link: the lease's address
# and default route on $interface, each event logged to $UDHCPC_LOG.
echo "$1 ${ip:-}" >> "${UDHCPC_LOG:-/dev/null}"
case $1 in
deconfig)
	ip -4 addr flush dev "$interface"
	;;
bound|renew)
	old=$(ip -4 -o addr show dev "$interface" | awk '{print $4}')
	[ "$old" = "$ip/$mask" ] || {
		ip -4 addr flush dev "$interface"
		ip addr add "$ip/$mask" dev "$interface"
	}
	ip route replace default via "$router" dev "$interface"
	;;
esac
exit 0
