// SPDX-License-Identifier: GPL-2.0
/* ahctl's text output of attributes (see print.h). */
#include <arpa/inet.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "ahctl.h"
#include "maclist.h"
#include "names.h"
#include "print.h"

/* Room for an address, an interface name or a number. */
#define STR_MAX		32

/* IP protocols named in text output; the others print as numbers. */
static const struct {
	uint8_t num;
	const char *name;
} proto_names[] = {
	{ 1, "icmp" }, { 2, "igmp" }, { 6, "tcp" }, { 17, "udp" },
	{ 47, "gre" }, { 48, "dsr" }, { 50, "esp" }, { 51, "ah" },
	{ 132, "sctp" },
};

static const char *addr_str(uint32_t be, char buf[STR_MAX])
{
	struct in_addr in = { .s_addr = be };

	return inet_ntop(AF_INET, &in, buf, STR_MAX) ? buf : "?";
}

static size_t hops_count(const struct nlattr *a)
{
	return (size_t)nla_len(a) / sizeof(uint32_t);
}

static void print_hops(const struct nlattr *a)
{
	char buf[STR_MAX];
	size_t i, n = hops_count(a);
	uint32_t be;

	for (i = 0; i < n; i++) {
		memcpy(&be, (const char *)nla_data(a) + i * sizeof(be),
		       sizeof(be));
		printf("%s%s", i ? " " : "", addr_str(be, buf));
	}
}

/* the u16 attributes of a nest: "22,51820"; how many there are */
static size_t print_ports(const struct nlattr *a, bool print)
{
	const struct nlattr *p;
	size_t n = 0;
	int rem;

	nla_for_each_nested(p, a, rem) {
		if (nla_len(p) < (int)sizeof(uint16_t))
			continue;
		if (print)
			printf("%s%u", n ? "," : "",
			       nla_get_u16((struct nlattr *)p));
		n++;
	}
	return n;
}

static const char *proto_str(uint64_t v, char buf[STR_MAX])
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(proto_names); i++)
		if (proto_names[i].num == v)
			return proto_names[i].name;
	snprintf(buf, STR_MAX, "%" PRIu64, v);
	return buf;
}

static const char *bits_str(const struct attr_desc *d, uint64_t v,
			    char buf[STR_MAX])
{
	if (v < d->nnames && d->names[v])
		return d->names[v];
	snprintf(buf, STR_MAX, "%#" PRIx64, v);
	return buf;
}

/* A string attribute: longer than a number's room (a slice's label) */
static void print_str(const struct nlattr *a)
{
	char buf[ATTR_STR_MAX];

	nla_strlcpy(buf, a, sizeof(buf));
	fputs(buf, stdout);
}

static void print_value(const struct attr_desc *d, const struct nlattr *a,
			unsigned int flags)
{
	uint64_t v = attr_uint(d, a);
	char buf[STR_MAX];

	if (!v && (flags & P_NONE) && attr_type_len(d->type)) {
		fputs("none", stdout);
		return;
	}
	switch (d->type) {
	case AT_ADDR:
		fputs(addr_str((uint32_t)v, buf), stdout);
		break;
	case AT_HOPS:
		print_hops(a);
		break;
	case AT_PORTS:
		print_ports(a, true);
		break;
	case AT_MAC:
		fputs(mac_format(nla_data(a), buf), stdout);
		break;
	case AT_STR:
		print_str(a);
		break;
	case AT_ENUM:
		fputs(name_lookup(d->names, d->nnames, v), stdout);
		break;
	case AT_IFINDEX:
		if (if_indextoname((unsigned int)v, buf))
			fputs(buf, stdout);
		else
			printf("%" PRIu64, v);
		break;
	case AT_PROTO:
		fputs(proto_str(v, buf), stdout);
		break;
	case AT_BITS:
		fputs(bits_str(d, v, buf), stdout);
		break;
	default:
		if (!v && (flags & P_NEVER))
			fputs("never", stdout);
		else
			printf("%" PRIu64 "%s", v,
			       d->flags & AF_TEXT_UNIT ? d->unit : "");
		break;
	}
}

bool attr_text(const struct attr_desc *d, const struct nlattr *a,
	       unsigned int flags, const char *label, bool *first)
{
	if (!attr_valid(d, a))
		return false;
	if ((d->type == AT_HOPS && !hops_count(a)) ||
	    (d->type == AT_PORTS && !print_ports(a, false)))
		return false;
	/* an empty string says nothing: the kernel's "no name" */
	if (d->type == AT_STR &&
	    (nla_len(a) < 1 || !*(const char *)nla_data(a)))
		return false;
	if (((flags & P_NONZERO) || (d->flags & AF_TEXT_NONZERO)) &&
	    !attr_uint(d, a))
		return false;
	if (!label)
		label = d->label ? d->label : d->name;
	if (!*first)
		putchar(' ');
	*first = false;
	if (d->type == AT_FLAG) {
		fputs(label, stdout);
		return true;
	}
	if (!(flags & P_BARE) && !(d->flags & AF_TEXT_BARE))
		printf("%s ", label);
	print_value(d, a, flags);
	return true;
}

bool fam_text(const struct family *f, int id, struct nlattr **tb,
	      unsigned int flags, bool *first)
{
	const struct attr_desc *d = attr_of(f, id);

	return d && attr_text(d, tb[id], flags, NULL, first);
}

/* Every family's device attributes are these. */
#define A_IFINDEX	1
#define A_IFNAME	2

int monitor_print(const struct family *f, const char *event,
		  struct nlattr **tb)
{
	bool first = false;
	struct json j;
	int id;

	if (opts.json) {
		/* one object per line, also with -p */
		json_init(&j, stdout, false);
		json_obj_open(&j);
		json_kv_str(&j, "event", event);
		attrs_json(&j, f, tb, f->event_attr, 0);
		json_obj_close(&j);
		return monitor_flush();
	}
	fputs(event, stdout);
	if (!fam_text(f, A_IFNAME, tb, P_BARE, &first))
		fam_text(f, A_IFINDEX, tb, 0, &first);
	for (id = 1; id <= f->maxattr; id++)
		if (id != A_IFINDEX && id != A_IFNAME && id != f->event_attr)
			fam_text(f, id, tb, 0, &first);
	putchar('\n');
	return monitor_flush();
}
