// SPDX-License-Identifier: GPL-2.0
/*
 * ahctl: configure the ad hoc testbed kernel modules.
 *
 *	ahctl [-j [-p]] [-n NETNS] OBJECT COMMAND [ARGS]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ahctl.h"
#include "parse.h"

struct ahctl_opts opts;

static const struct object {
	const char *name;
	int (*main)(int argc, char **argv);
	void (*help)(FILE *f);
	const char *description;
} objects[] = {
	{ "macfilter", macfilter_main, macfilter_help,
	  "drop received frames by source MAC address" },
	{ "dsr", dsr_main, dsr_help,
	  "Dynamic Source Routing (RFC 4728) device" },
	{ "transit", transit_main, transit_help,
	  "learned early drop of transit flows in PIO Wi-Fi drivers" },
	{ "slice", slice_main, slice_help,
	  "lease an interface to a slice (network namespace)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: " PROG_NAME " [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"       " PROG_NAME " help [OBJECT]\n"
		"       " PROG_NAME " -V\n\n"
		"Options:\n"
		"  -j, --json           JSON output (show, flows, monitor)\n"
		"  -p, --pretty         indented JSON output (implies -j)\n"
		"  -n, --netns NETNS    run in network namespace NETNS\n"
		"  -V, --version        print the version and exit\n"
		"  -h, --help           print this help and exit\n\n"
		"Objects:\n");
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		fprintf(f, "  %-12s %s\n", objects[i].name,
			objects[i].description);
	fprintf(f, "\nRun '" PROG_NAME " OBJECT help' for its commands.\n");
}

static const struct object *object_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(name, objects[i].name))
			return &objects[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct object *o;

	if (argc < 1) {
		usage(stdout);
		return EXIT_OK;
	}
	o = object_find(argv[0]);
	if (!o || argc > 1) {
		if (o)
			fprintf(stderr, PROG_NAME ": help: too many arguments\n\n");
		else
			fprintf(stderr, PROG_NAME ": help: unknown object '%s'\n\n",
				argv[0]);
		usage(stderr);
		return EXIT_USAGE;
	}
	o->help(stdout);
	return EXIT_OK;
}

static int version(void)
{
	printf(PROG_NAME " " AHCTL_VERSION "\n");
	return EXIT_OK;
}

static int parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "netns", required_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	/* '+': options end at OBJECT */
	while ((c = getopt_long(argc, argv, "+jpn:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.json = true;
			opts.pretty = true;
			break;
		case 'n':
			opts.netns = optarg;
			break;
		case 'V':
			return version();
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			getopt_complain(PROG_NAME, argv, "n");
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

static int finish(int ret)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, PROG_NAME ": stdout: %s\n", strerror(errno));
		return EXIT_ERR;
	}
	return ret;
}

void object_cmd_usage(FILE *f, const char *object, const char *cmd,
		      const char *args)
{
	fprintf(f, "Usage: " PROG_NAME " [-j [-p]] [-n NETNS] %s %s%s%s\n",
		object, cmd, *args ? " " : "", args);
}

void object_cmd_verr(const char *object, const char *cmd, const char *args,
		     const char *fmt, va_list ap)
{
	fprintf(stderr, PROG_NAME ": %s %s: ", object, cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	object_cmd_usage(stderr, object, cmd, args);
}

int monitor_flush(void)
{
	if (fflush(stdout) == EOF) {
		fprintf(stderr, PROG_NAME ": stdout: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct object *o;
	int ret;

	prog_name = PROG_NAME;
	ret = parse_options(argc, argv);
	if (ret >= 0)
		return finish(ret);
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "help"))
		return finish(cmd_help(argc - 1, argv + 1));
	o = object_find(argv[0]);
	if (!o) {
		fprintf(stderr, PROG_NAME ": unknown object '%s'\n\n", argv[0]);
		usage(stderr);
		return EXIT_USAGE;
	}
	return finish(o->main(argc - 1, argv + 1));
}
