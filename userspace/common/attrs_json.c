// SPDX-License-Identifier: GPL-2.0
/* Attributes of a message, read and written as JSON by their description. */
#include <arpa/inet.h>
#include <string.h>

#include "attrs.h"
#include "maclist.h"
#include "names.h"

bool attr_valid(const struct attr_desc *d, const struct nlattr *a)
{
	return a && d && d->name && d->type != AT_NONE &&
	       nla_len(a) >= attr_type_len(d->type);
}

uint64_t attr_uint(const struct attr_desc *d, const struct nlattr *a)
{
	uint64_t v64 = 0;
	uint32_t v32;
	uint16_t v16;

	switch (attr_type_len(d->type)) {
	case 1:
		return *(const uint8_t *)nla_data(a);
	case 2:
		memcpy(&v16, nla_data(a), sizeof(v16));
		return v16;
	case 4:
		memcpy(&v32, nla_data(a), sizeof(v32));
		return v32;
	case 8:
		memcpy(&v64, nla_data(a), sizeof(v64));
		return v64;
	default:
		return 0;
	}
}

static void json_addr(struct json *j, uint32_t be)
{
	char buf[INET_ADDRSTRLEN];
	struct in_addr in = { .s_addr = be };

	json_str(j, inet_ntop(AF_INET, &in, buf, sizeof(buf)) ? buf : "?");
}

static void json_hops(struct json *j, const struct nlattr *a)
{
	const char *p = nla_data(a);
	size_t i, n = (size_t)nla_len(a) / 4;
	uint32_t be;

	json_arr_open(j);
	for (i = 0; i < n; i++) {
		memcpy(&be, p + 4 * i, sizeof(be));
		json_addr(j, be);
	}
	json_arr_close(j);
}

/* the u16 attributes of a nest, in their order (others are skipped) */
static void json_ports(struct json *j, const struct nlattr *a)
{
	const struct nlattr *p;
	int rem;

	json_arr_open(j);
	nla_for_each_nested(p, a, rem)
		if (nla_len(p) >= (int)sizeof(uint16_t))
			json_u64(j, nla_get_u16((struct nlattr *)p));
	json_arr_close(j);
}

void attr_json_value(struct json *j, const struct attr_desc *d,
		     const struct nlattr *a)
{
	char buf[ATTR_STR_MAX > MAC_STR_LEN ? ATTR_STR_MAX : MAC_STR_LEN];

	switch (d->type) {
	case AT_BOOL:
		json_bool(j, attr_uint(d, a));
		break;
	case AT_FLAG:
		json_bool(j, true);
		break;
	case AT_ADDR:
		json_addr(j, (uint32_t)attr_uint(d, a));
		break;
	case AT_HOPS:
		json_hops(j, a);
		break;
	case AT_PORTS:
		json_ports(j, a);
		break;
	case AT_MAC:
		json_str(j, mac_format(nla_data(a), buf));
		break;
	case AT_STR:
		nla_strlcpy(buf, a, sizeof(buf));
		json_str(j, buf);
		break;
	case AT_ENUM:
		json_str(j, name_lookup(d->names, d->nnames,
					attr_uint(d, a)));
		break;
	default:
		json_u64(j, attr_uint(d, a));
		break;
	}
}

int fam_params_parse(const struct family *f, struct nlattr **tb,
		     struct nlattr **ptb)
{
	int id;

	memset(ptb, 0, (ATTRS_MAX + 1) * sizeof(*ptb));
	if (!f->param_first)
		return 0;
	if (!f->params_nest) {
		for (id = f->param_first; id <= f->param_last; id++)
			ptb[id] = tb[id];
		return 0;
	}
	if (!tb[f->params_nest])
		return 0;
	if (nla_parse_nested(ptb, f->param_last, tb[f->params_nest], NULL)) {
		memset(ptb, 0, (ATTRS_MAX + 1) * sizeof(*ptb));
		return -1;
	}
	return 0;
}

/* The parameters of the nest in @tb, in their order. */
static void params_json(struct json *j, const struct family *f,
			struct nlattr **tb)
{
	struct nlattr *ptb[ATTRS_MAX + 1];
	const struct attr_desc *d;
	int id;

	fam_params_parse(f, tb, ptb);
	for (id = f->param_first; id <= f->param_last; id++) {
		d = param_of(f, id);
		if (!attr_valid(d, ptb[id]))
			continue;
		json_key(j, d->name);
		attr_json_value(j, d, ptb[id]);
	}
}

void attrs_json(struct json *j, const struct family *f, struct nlattr **tb,
		int skip1, int skip2)
{
	const struct attr_desc *d;
	int id;

	for (id = 1; id <= f->maxattr; id++) {
		if (id == f->params_nest && f->params_nest) {
			params_json(j, f, tb);
			continue;
		}
		d = &f->attrs[id];
		if (id == skip1 || id == skip2 || !attr_valid(d, tb[id]))
			continue;
		json_key(j, d->name);
		attr_json_value(j, d, tb[id]);
	}
}
