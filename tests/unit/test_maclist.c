// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/common/maclist.c.  Every table case is parsed
 * both from a buffer and from a stream and must give the same result.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "maclist.h"

#define IN(s)	s, sizeof(s) - 1	/* string literal with its NUL bytes */

struct parse_case {
	const char *desc;
	const char *in;
	size_t len;
	size_t max;		/* 0: no limit */
	const char *err;	/* NULL: must parse */
	size_t count;		/* entries when it parses */
};

static const struct parse_case parse_cases[] = {
	/* good files */
	{ "empty input", IN(""), 0, NULL, 0 },
	{ "single entry", IN("02:00:00:00:00:01\n"), 0, NULL, 1 },
	{ "no trailing newline", IN("02:00:00:00:00:01\n02:00:00:00:00:02"),
	  0, NULL, 2 },
	{ "dash separators", IN("02-00-00-00-00-01\n"), 0, NULL, 1 },
	{ "upper and mixed case", IN("AA:BB:CC:DD:EE:FE\naa:Bb:cC:dd:ee:FC\n"),
	  0, NULL, 2 },
	{ "all-zero MAC is unicast", IN("00:00:00:00:00:00\n"), 0, NULL, 1 },
	{ "loss values", IN("02:00:00:00:00:01 loss 0\n"
			    "02:00:00:00:00:02 loss 100\n"
			    "02:00:00:00:00:03 loss 007\n"), 0, NULL, 3 },
	{ "comments and blank lines",
	  IN("# header\n\n   \n\t\n02:00:00:00:00:01 # trailing\n"
	     "02:00:00:00:00:02#glued\n  # indented comment\n"
	     "02:00:00:00:00:03 loss 5# glued\n"), 0, NULL, 3 },
	{ "only comments", IN("# a\n# b 02:00:00:00:00:01\n"), 0, NULL, 0 },
	{ "tabs and multiple spaces",
	  IN("\t02:00:00:00:00:01\t \tloss\t\t42\t\n"), 0, NULL, 1 },
	{ "CRLF line ends", IN("02:00:00:00:00:01\r\n"
			       "02:00:00:00:00:02 loss 5\r\n\r\n# c\r\n"),
	  0, NULL, 2 },
	{ "blank lines only", IN("\n\n\n"), 0, NULL, 0 },
	{ "exactly at the limit", IN("02:00:00:00:00:01\n02:00:00:00:00:02\n"
				     "# not an entry\n02:00:00:00:00:03\n"),
	  3, NULL, 3 },

	/* malformed MAC */
	{ "short MAC", IN("02:00:00:00:00\n"), 0,
	  "t:1: invalid MAC address '02:00:00:00:00'", 0 },
	{ "long MAC", IN("02:00:00:00:00:01:02\n"), 0,
	  "t:1: invalid MAC address '02:00:00:00:00:01:02'", 0 },
	{ "non-hex digit", IN("\n02:00:00:00:00:0g\n"), 0,
	  "t:2: invalid MAC address '02:00:00:00:00:0g'", 0 },
	{ "mixed separators", IN("02:00-00:00:00:01\n"), 0,
	  "t:1: invalid MAC address '02:00-00:00:00:01'", 0 },
	{ "one-digit groups", IN("2:0:0:0:0:1\n"), 0,
	  "t:1: invalid MAC address '2:0:0:0:0:1'", 0 },
	{ "dot separators", IN("0200.0000.0001\n"), 0,
	  "t:1: invalid MAC address '0200.0000.0001'", 0 },
	{ "bad MAC after good lines",
	  IN("02:00:00:00:00:01\n# c\n\nxyz\n02:00:00:00:00:02\n"), 0,
	  "t:4: invalid MAC address 'xyz'", 0 },
	{ "bad MAC on last line without newline",
	  IN("02:00:00:00:00:01\nzz"), 0, "t:2: invalid MAC address 'zz'", 0 },
	{ "non-printable bytes are escaped in messages", IN("\x01\xff\\\n"), 0,
	  "t:1: invalid MAC address '\\x01\\xff\\x5c'", 0 },
	{ "loss keyword first", IN("loss 5\n"), 0,
	  "t:1: invalid MAC address 'loss'", 0 },

	/* multicast */
	{ "multicast MAC", IN("02:00:00:00:00:01\n\n01:00:5e:00:00:01\n"), 0,
	  "t:3: multicast MAC 01:00:5e:00:00:01 cannot be a source address",
	  0 },
	{ "broadcast MAC", IN("FF:FF:FF:FF:FF:FF loss 5\n"), 0,
	  "t:1: multicast MAC ff:ff:ff:ff:ff:ff cannot be a source address",
	  0 },
	{ "multicast bit with other bits", IN("03-00-00-00-00-00\n"), 0,
	  "t:1: multicast MAC 03:00:00:00:00:00 cannot be a source address",
	  0 },

	/* loss */
	{ "loss above 100", IN("02:00:00:00:00:01 loss 101\n"), 0,
	  "t:1: invalid loss '101' (integer 0..100)", 0 },
	{ "negative loss", IN("02:00:00:00:00:01 loss -1\n"), 0,
	  "t:1: invalid loss '-1' (integer 0..100)", 0 },
	{ "plus sign", IN("02:00:00:00:00:01 loss +1\n"), 0,
	  "t:1: invalid loss '+1' (integer 0..100)", 0 },
	{ "fractional loss", IN("02:00:00:00:00:01 loss 1.5\n"), 0,
	  "t:1: invalid loss '1.5' (integer 0..100)", 0 },
	{ "non-numeric loss", IN("02:00:00:00:00:01 loss abc\n"), 0,
	  "t:1: invalid loss 'abc' (integer 0..100)", 0 },
	{ "loss with many digits", IN("02:00:00:00:00:01 loss 0000000000001\n"),
	  0, "t:1: invalid loss '0000000000001' (integer 0..100)", 0 },
	{ "huge loss", IN("02:00:00:00:00:01 loss 99999999999999999999999\n"),
	  0, "t:1: invalid loss '99999999999999999999999' (integer 0..100)",
	  0 },
	{ "missing loss value", IN("02:00:00:00:00:01 loss\n"), 0,
	  "t:1: missing value after 'loss'", 0 },
	{ "missing loss value before comment",
	  IN("02:00:00:00:00:01 loss # 5\n"), 0,
	  "t:1: missing value after 'loss'", 0 },
	{ "missing loss value at end of input",
	  IN("02:00:00:00:00:01\n02:00:00:00:00:02 loss"), 0,
	  "t:2: missing value after 'loss'", 0 },

	/* trailing garbage */
	{ "word instead of loss", IN("02:00:00:00:00:01 drop 5\n"), 0,
	  "t:1: unexpected 'drop' (expected 'loss N')", 0 },
	{ "keyword is case-sensitive", IN("02:00:00:00:00:01 LOSS 5\n"), 0,
	  "t:1: unexpected 'LOSS' (expected 'loss N')", 0 },
	{ "two MACs on a line",
	  IN("02:00:00:00:00:01 02:00:00:00:00:02\n"), 0,
	  "t:1: unexpected '02:00:00:00:00:02' (expected 'loss N')", 0 },
	{ "garbage after loss", IN("02:00:00:00:00:01 loss 5 x\n"), 0,
	  "t:1: unexpected 'x' after the entry", 0 },
	{ "second loss", IN("02:00:00:00:00:01 loss 5 loss 6\n"), 0,
	  "t:1: unexpected 'loss' after the entry", 0 },

	/* duplicates */
	{ "duplicate MAC", IN("02:00:00:00:00:01\n02:00:00:00:00:02\n"
			      "# x\n02:00:00:00:00:01 loss 3\n"), 0,
	  "t:4: duplicate MAC 02:00:00:00:00:01 (first on line 1)", 0 },
	{ "duplicate in other spelling",
	  IN("02:00:00:00:00:0a\n02-00-00-00-00-0A\n"), 0,
	  "t:2: duplicate MAC 02:00:00:00:00:0a (first on line 1)", 0 },

	/* limits */
	{ "one entry over the limit",
	  IN("02:00:00:00:00:01\n02:00:00:00:00:02\n\n02:00:00:00:00:03\n"),
	  2, "t:4: too many entries (at most 2)", 0 },
	{ "limit of one", IN("02:00:00:00:00:01\n02:00:00:00:00:02\n"), 1,
	  "t:2: too many entries (at most 1)", 0 },

	/* NUL bytes */
	{ "NUL byte in entry", IN("02:00:00:00:00:01\n02:00\0:00:00:00:02\n"),
	  0, "t:2: NUL byte in line", 0 },
	{ "NUL byte in comment", IN("# a\0b\n02:00:00:00:00:01\n"), 0,
	  "t:1: NUL byte in line", 0 },
	{ "NUL byte alone", IN("\0"), 0, "t:1: NUL byte in line", 0 },
	{ "NUL byte after last newline", IN("02:00:00:00:00:01\n\0"), 0,
	  "t:2: NUL byte in line", 0 },
};

/* Parse @len bytes of @in through a stdio stream. */
static int parse_stream(struct maclist *list, const char *in, size_t len,
			size_t max, char *err, size_t errlen)
{
	FILE *f = tmpfile();
	int r;

	if (!f || fwrite(in, 1, len, f) != len || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "tmpfile failed");
		if (f)
			fclose(f);
		return -2;
	}
	r = maclist_parse_file(list, "t", f, max, err, errlen);
	fclose(f);
	return r;
}

static bool check_result(const char *how, const struct parse_case *c, int r,
			 const struct maclist *list, const char *err)
{
	if (c->err) {
		if (r != -1 || strcmp(err, c->err) || list->count ||
		    list->entries) {
			ktap_diag("%s: r=%d count=%zu err='%s', expected '%s'",
				  how, r, list->count, err, c->err);
			return false;
		}
		return true;
	}
	if (r != 0 || list->count != c->count || err[0]) {
		ktap_diag("%s: r=%d count=%zu err='%s', expected %zu entries",
			  how, r, list->count, err, c->count);
		return false;
	}
	return true;
}

static void run_parse_case(const struct parse_case *c)
{
	struct maclist list;
	char err[256];
	bool ok;
	int r;

	maclist_init(&list);
	r = maclist_parse_buf(&list, "t", c->in, c->len, c->max, err,
			      sizeof(err));
	ok = check_result("buffer", c, r, &list, err);
	maclist_free(&list);

	r = parse_stream(&list, c->in, c->len, c->max, err, sizeof(err));
	ok = check_result("stream", c, r, &list, err) && ok;
	maclist_free(&list);
	ktap_result(ok, "%s", c->desc);
}

/* ---- function tests -------------------------------------------------- */

static bool mac_eq(const unsigned char *a, unsigned char b0,
		   unsigned char b5)
{
	const unsigned char want[MAC_LEN] = { b0, 0, 0, 0, 0, b5 };

	return !memcmp(a, want, MAC_LEN);
}

static bool t_entry_values(void)
{
	static const char in[] = "# list\n"
				 "02:00:00:00:00:01\n"
				 "\n"
				 "06-00-00-00-00-FF loss 30 # lossy\n"
				 "0a:00:00:00:00:10 loss 0\r\n";
	const struct maclist_entry *e;
	struct maclist list;
	char err[128];
	bool ok;

	maclist_init(&list);
	if (maclist_parse_buf(&list, "t", in, strlen(in), 0, err,
			      sizeof(err))) {
		ktap_diag("%s", err);
		return false;
	}
	e = list.entries;
	ok = list.count == 3 &&
	     mac_eq(e[0].mac, 0x02, 0x01) && !e[0].has_loss &&
	     e[0].line == 2 &&
	     mac_eq(e[1].mac, 0x06, 0xff) && e[1].has_loss &&
	     e[1].loss == 30 && e[1].line == 4 &&
	     mac_eq(e[2].mac, 0x0a, 0x10) && e[2].has_loss &&
	     e[2].loss == 0 && e[2].line == 5;
	maclist_free(&list);
	return ok;
}

static bool t_mac_parse(void)
{
	static const char *const bad[] = {
		"", "02:00:00:00:00:0", "02:00:00:00:00:011",
		"02:00:00:00:00:01 ", " 02:00:00:00:00:01",
		"02:00:00:00:00:01x", "02:00:00:00:00-01", "02.00.00.00.00.01",
		"0x:00:00:00:00:01", "02::00:00:00:00:1", "020000000001",
	};
	unsigned char mac[MAC_LEN] = { 0 };
	size_t i;

	if (mac_parse("02:aB:Cd:eF:10:9f", mac) ||
	    memcmp(mac, "\x02\xab\xcd\xef\x10\x9f", MAC_LEN))
		return false;
	if (mac_parse("ff-ff-ff-ff-ff-ff", mac) ||
	    memcmp(mac, "\xff\xff\xff\xff\xff\xff", MAC_LEN))
		return false;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (!mac_parse(bad[i], mac)) {
			ktap_diag("accepted '%s'", bad[i]);
			return false;
		}
		/* a failed parse leaves the output alone */
		if (memcmp(mac, "\xff\xff\xff\xff\xff\xff", MAC_LEN))
			return false;
	}
	return true;
}

static bool t_mac_format(void)
{
	static const unsigned char mac[MAC_LEN] = {
		0x02, 0xab, 0x00, 0x0f, 0xf0, 0xff
	};
	unsigned char back[MAC_LEN];
	char buf[MAC_STR_LEN];

	if (strcmp(mac_format(mac, buf), "02:ab:00:0f:f0:ff"))
		return false;
	return !mac_parse(buf, back) && !memcmp(mac, back, MAC_LEN);
}

static bool t_mac_multicast(void)
{
	static const unsigned char uc[MAC_LEN] = { 0x02 };
	static const unsigned char mc[MAC_LEN] = { 0x33, 0x33 };

	return !mac_is_multicast(uc) && mac_is_multicast(mc);
}

static bool t_loss_parse(void)
{
	static const char *const bad[] = {
		"", "101", "-1", "+1", " 1", "1 ", "1.0", "0x1", "1000", "abc",
	};
	unsigned char loss = 0;
	size_t i;

	if (mac_loss_parse("0", &loss) || loss != 0 ||
	    mac_loss_parse("100", &loss) || loss != 100 ||
	    mac_loss_parse("07", &loss) || loss != 7)
		return false;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (!mac_loss_parse(bad[i], &loss)) {
			ktap_diag("accepted '%s'", bad[i]);
			return false;
		}
	}
	return loss == 7;
}

/* @fill repeated @n times, then @tail. */
static char *make_input(char fill, size_t n, const char *head,
			const char *tail, size_t *len)
{
	size_t hl = strlen(head), tl = strlen(tail);
	char *buf = malloc(hl + n + tl);

	if (!buf)
		abort();
	memcpy(buf, head, hl);
	memset(buf + hl, fill, n);
	memcpy(buf + hl + n, tail, tl);
	*len = hl + n + tl;
	return buf;
}

static bool expect(const char *in, size_t len, size_t max, const char *err,
		   size_t count)
{
	const struct parse_case c = {
		.in = in, .len = len, .max = max, .err = err, .count = count,
	};
	struct maclist list;
	char msg[256];
	bool ok;
	int r;

	maclist_init(&list);
	r = maclist_parse_buf(&list, "t", in, len, max, msg, sizeof(msg));
	ok = check_result("buffer", &c, r, &list, msg);
	maclist_free(&list);
	r = parse_stream(&list, in, len, max, msg, sizeof(msg));
	ok = check_result("stream", &c, r, &list, msg) && ok;
	maclist_free(&list);
	return ok;
}

static bool t_long_comment(void)
{
	size_t len;
	char *in = make_input('x', 4 << 20, "# ", "\n02:00:00:00:00:01\n",
			      &len);
	bool ok = expect(in, len, 0, NULL, 1);

	free(in);
	return ok;
}

static bool t_long_indent(void)
{
	size_t len;
	char *in = make_input(' ', 1 << 20, "", "02:00:00:00:00:01 loss 1\n",
			      &len);
	bool ok = expect(in, len, 0, NULL, 1);

	free(in);
	return ok;
}

static bool t_long_token(void)
{
	size_t len;
	char *in = make_input('a', 1 << 20, "\n", "\n", &len);
	bool ok = expect(in, len, 0, "t:2: invalid MAC address "
			 "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'", 0);

	free(in);
	return ok;
}

static bool t_long_garbage(void)
{
	size_t len;
	char *in = make_input('z', 100000, "02:00:00:00:00:01 loss 5 ", "",
			      &len);
	bool ok = expect(in, len, 0, "t:1: unexpected "
			 "'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...' after the entry",
			 0);

	free(in);
	return ok;
}

/* @n lines of distinct MACs, then @extra (if any) */
static char *many_entries(size_t n, const char *extra, size_t *len)
{
	size_t i, o = 0, el = strlen(extra);
	char *buf = malloc(n * 18 + el + 1);	/* sprintf adds a NUL */

	if (!buf)
		abort();
	for (i = 0; i < n; i++)
		o += (size_t)sprintf(buf + o, "02:00:00:%02zx:%02zx:%02zx\n",
				     (i >> 16) & 0xff, (i >> 8) & 0xff,
				     i & 0xff);
	memcpy(buf + o, extra, el);
	*len = o + el;
	return buf;
}

static bool t_many_entries(void)
{
	size_t len;
	char *in = many_entries(65536, "", &len);
	bool ok = expect(in, len, 65536, NULL, 65536);

	free(in);
	return ok;
}

static bool t_many_entries_over(void)
{
	size_t len;
	char *in = many_entries(65536, "02:01:00:00:00:00\n", &len);
	bool ok = expect(in, len, 65536,
			 "t:65537: too many entries (at most 65536)", 0);

	free(in);
	return ok;
}

static bool t_many_entries_dup(void)
{
	size_t len;
	char *in = many_entries(100000, "02:00:00:00:ff:fe\n", &len);
	bool ok = expect(in, len, 0, "t:100001: duplicate MAC "
			 "02:00:00:00:ff:fe (first on line 65535)", 0);

	free(in);
	return ok;
}

static bool t_small_errbuf(void)
{
	static const char in[] = "zz\n";
	struct maclist list;
	char err[8];

	maclist_init(&list);
	memset(err, 'X', sizeof(err));
	if (maclist_parse_buf(&list, "t", in, strlen(in), 0, err,
			      sizeof(err)) != -1)
		return false;
	return !strcmp(err, "t:1: in");
}

static bool t_no_errbuf(void)
{
	static const char in[] = "zz\n";
	struct maclist list;

	maclist_init(&list);
	return maclist_parse_buf(&list, "t", in, strlen(in), 0, NULL, 0) == -1;
}

static bool t_reuse_list(void)
{
	static const char a[] = "02:00:00:00:00:01\n02:00:00:00:00:02\n";
	static const char b[] = "02:00:00:00:00:03\n";
	struct maclist list;
	char err[128];
	bool ok;

	maclist_init(&list);
	ok = !maclist_parse_buf(&list, "t", a, strlen(a), 0, err, sizeof(err))
	     && list.count == 2;
	/* a second parse replaces the list, including its duplicate set */
	ok = ok &&
	     !maclist_parse_buf(&list, "t", b, strlen(b), 0, err, sizeof(err))
	     && list.count == 1 && mac_eq(list.entries[0].mac, 0x02, 0x03);
	ok = ok &&
	     !maclist_parse_buf(&list, "t", a, strlen(a), 0, err, sizeof(err))
	     && list.count == 2;
	/* a failed parse leaves it empty */
	ok = ok &&
	     maclist_parse_buf(&list, "t", "x", 1, 0, err, sizeof(err)) == -1
	     && list.count == 0 && !list.entries;
	maclist_free(&list);
	return ok;
}

static bool t_read_error(void)
{
	FILE *f = fopen("/dev/null", "w");	/* reading it fails */
	struct maclist list;
	char err[128];
	int r;

	if (!f)
		return false;
	maclist_init(&list);
	r = maclist_parse_file(&list, "out", f, 0, err, sizeof(err));
	fclose(f);
	if (r != -1 || strncmp(err, "out: read error: ", 17)) {
		ktap_diag("r=%d err='%s'", r, err);
		return false;
	}
	return true;
}

static const struct ktap_case fn_cases[] = {
	{ "entry values, loss flags and line numbers", t_entry_values },
	{ "mac_parse accepts and rejects", t_mac_parse },
	{ "mac_format round trip", t_mac_format },
	{ "mac_is_multicast", t_mac_multicast },
	{ "mac_loss_parse accepts and rejects", t_loss_parse },
	{ "4 MiB comment line", t_long_comment },
	{ "1 MiB of indentation", t_long_indent },
	{ "1 MiB token is cut in the message", t_long_token },
	{ "long trailing garbage without newline", t_long_garbage },
	{ "65536 entries at a limit of 65536", t_many_entries },
	{ "65537 entries at a limit of 65536", t_many_entries_over },
	{ "duplicate after 100000 entries", t_many_entries_dup },
	{ "error buffer too small is truncated", t_small_errbuf },
	{ "no error buffer", t_no_errbuf },
	{ "list reused across parses", t_reuse_list },
	{ "stream read error", t_read_error },
};

int main(void)
{
	size_t np = ARRAY_SIZE(parse_cases);
	size_t nf = ARRAY_SIZE(fn_cases);
	size_t i;

	ktap_plan((unsigned int)(np + nf));
	for (i = 0; i < np; i++)
		run_parse_case(&parse_cases[i]);
	ktap_cases(fn_cases, nf);
	return ktap_finish();
}
