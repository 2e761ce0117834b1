// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kmod/dsr/blacklist.c: RFC 4728 section 4.6.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacklist.h"
#include "dsr_util.h"
#include "ktap.h"

static struct dsr_blacklist bl;

/* probable, then questionable, then gone */
static bool t_states(void)
{
	memset(&bl, 0, sizeof(bl));
	CHECK_EQ(dsr_bl_state(&bl, node(2), 100), DSR_BL_NONE);
	dsr_bl_add(&bl, node(2), 1000, 500, 5000);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 1000), DSR_BL_PROBABLE);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 1499), DSR_BL_PROBABLE);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 1500), DSR_BL_QUESTIONABLE);
	CHECK_EQ(dsr_bl_state(&bl, node(3), 1500), DSR_BL_NONE);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 5999), DSR_BL_QUESTIONABLE);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 6000), DSR_BL_NONE);
	CHECK_EQ(bl.n, 0u);
	/* expired: nothing to delete */
	CHECK(!dsr_bl_del(&bl, node(2)));
	return true;
}

/* seen again: probable again, and its life starts over */
static bool t_refresh(void)
{
	memset(&bl, 0, sizeof(bl));
	dsr_bl_add(&bl, node(2), 1000, 500, 5000);
	dsr_bl_add(&bl, node(2), 4000, 500, 5000);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 4400), DSR_BL_PROBABLE);
	CHECK_EQ(dsr_bl_state(&bl, node(2), 8000), DSR_BL_QUESTIONABLE);
	CHECK(dsr_bl_del(&bl, node(2)));
	CHECK_EQ(dsr_bl_state(&bl, node(2), 8000), DSR_BL_NONE);
	CHECK(!dsr_bl_del(&bl, node(2)));
	return true;
}

/* one probe per interval, only of a listed node */
static bool t_probe(void)
{
	memset(&bl, 0, sizeof(bl));
	CHECK(!dsr_bl_probe(&bl, node(2), 10, 1000));
	dsr_bl_add(&bl, node(2), 0, 100, 60000);
	CHECK(dsr_bl_probe(&bl, node(2), 200, 1000));
	CHECK(!dsr_bl_probe(&bl, node(2), 1199, 1000));
	CHECK(dsr_bl_probe(&bl, node(2), 1200, 1000));
	return true;
}

/* full: a new entry replaces the one that expires first */
static bool t_bounded(void)
{
	unsigned int i, listed = 0;

	memset(&bl, 0, sizeof(bl));
	for (i = 0; i < DSR_BL_ENTRIES; i++)
		dsr_bl_add(&bl, node(i + 1), 100 + i, 10, 1000);
	dsr_bl_add(&bl, node(200), 500, 10, 1000);
	CHECK_EQ(dsr_bl_state(&bl, node(1), 500), DSR_BL_NONE);
	CHECK_EQ(dsr_bl_state(&bl, node(200), 500), DSR_BL_PROBABLE);
	for (i = 1; i < DSR_BL_ENTRIES; i++)
		listed += dsr_bl_state(&bl, node(i + 1), 500) != DSR_BL_NONE;
	CHECK_EQ(listed, DSR_BL_ENTRIES - 1);
	CHECK_EQ(bl.n, (unsigned int)DSR_BL_ENTRIES);
	dsr_bl_flush(&bl);
	CHECK_EQ(dsr_bl_state(&bl, node(200), 500), DSR_BL_NONE);
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "probable, questionable, expired", t_states },
	{ "seen again: probable again", t_refresh },
	{ "probes rate-limited, only of listed nodes", t_probe },
	{ "bounded: the first to expire makes room", t_bounded },
};

int main(void)
{
	return ktap_main(fn_cases, ARRAY_SIZE(fn_cases));
}
