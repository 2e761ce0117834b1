// SPDX-License-Identifier: GPL-2.0
/*
 * mcsend: UDP datagrams at a steady rate, for bench/mcast.sh's fan-out
 * cost, where a Python sender's own cost per datagram (hundreds of us in
 * a TCG guest) would hide the forwarding's.  Each payload starts with the
 * layer tag byte of stream.py's layered stream (layer 0), the rest zero.
 *
 *   mcsend DST PORT PPS SECS SIZE [IFNAME]
 *
 * DST a group or a unicast address; IFNAME the multicast interface (TTL
 * 16, no loopback).  Paced by absolute CLOCK_MONOTONIC deadlines; prints
 * the datagrams sent and refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long sent = 0, refused = 0, pps, secs, size, i, n;
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned char buf[1472] = { 0 };
	struct timespec t;
	int s, ttl = 16, loop = 0;

	if (argc < 6) {
		fprintf(stderr, "usage: mcsend DST PORT PPS SECS SIZE [IFNAME]\n");
		return 2;
	}
	if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "mcsend: bad address %s\n", argv[1]);
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	pps = strtoul(argv[3], NULL, 10);
	secs = strtoul(argv[4], NULL, 10);
	size = strtoul(argv[5], NULL, 10);
	if (!pps || !size || size > sizeof(buf)) {
		fprintf(stderr, "mcsend: PPS > 0, SIZE 1..%zu\n", sizeof(buf));
		return 2;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0) {
		perror("mcsend: socket");
		return 1;
	}
	setsockopt(s, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl));
	setsockopt(s, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof(loop));
	if (argc > 6) {
		struct ip_mreqn m = { .imr_ifindex = if_nametoindex(argv[6]) };

		if (!m.imr_ifindex ||
		    setsockopt(s, IPPROTO_IP, IP_MULTICAST_IF, &m, sizeof(m))) {
			fprintf(stderr, "mcsend: interface %s: %s\n", argv[6],
				strerror(errno));
			return 1;
		}
	}
	n = pps * secs;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++) {
		if (sendto(s, buf, size, 0, (struct sockaddr *)&to,
			   sizeof(to)) < 0)
			refused++;
		else
			sent++;
		t.tv_nsec += 1000000000L / pps;
		while (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t,
				       NULL) == EINTR)
			;
	}
	printf("{\"sent\": %lu, \"refused\": %lu}\n", sent, refused);
	return 0;
}
