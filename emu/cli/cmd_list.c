/*
 * cmd_list.c - `mmemu list`: every policy module, workload and shipped scenario.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/cli/cli.h"
#include "emu/engine/engine.h"
#include "models/alloc/alloc.h"
#include "models/coloring/coloring.h"
#include "models/kmap/kmap.h"
#include "models/hw/machine.h"
#include "models/mm/kernel.h"
#include "models/reclaim/reclaim.h"
#include "workloads/workload.h"

static const char usage[] =
	"usage: mmemu list [--params]\n"
	"Print every policy module (by kind), workload and shipped scenario with a\n"
	"one-line description. --params also prints each module's parameter table.\n";

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_scenarios(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char *names[512];
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < 512) {
		size_t l = strlen(de->d_name);
		if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0)
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	for (int i = 0; i < n; i++) {
		printf("  %s/%s\n", dir, names[i]);
		free(names[i]);
	}
}

int cmd_list(int argc, char **argv)
{
	int params = 0;
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--params") == 0) {
			params = 1;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	printf("alloc modules:\n");
	for (const struct alloc_ops *const *a = alloc_modules(); *a; a++) {
		printf("  %-12s %s\n", (*a)->name, (*a)->desc);
		if (params && (*a)->params)
			mm_params_doc((*a)->params, stdout);
	}
	printf("reclaim modules:\n");
	for (const struct reclaim_ops *const *r = reclaim_modules(); *r; r++) {
		printf("  %-12s %s\n", (*r)->name, (*r)->desc);
		if (params && (*r)->params)
			mm_params_doc((*r)->params, stdout);
	}
	printf("kmap modules:\n");
	for (const struct kmap_ops *const *m = kmap_modules(); *m; m++) {
		printf("  %-12s %s\n", (*m)->name, (*m)->desc);
		if (params && (*m)->params)
			mm_params_doc((*m)->params, stdout);
	}
	printf("coloring modules:\n");
	for (const struct coloring_ops *const *c = coloring_modules(); *c; c++) {
		printf("  %-12s %s\n", (*c)->name, (*c)->desc);
		if (params && (*c)->params)
			mm_params_doc((*c)->params, stdout);
	}
	printf("workloads:\n");
	for (const struct workload_ops *const *w = workload_modules(); *w; w++) {
		printf("  %-12s %s\n", (*w)->name, (*w)->desc);
		if (params)
			mm_params_doc((*w)->params, stdout);
	}
	if (params) {
		printf("machine section:\n");
		mm_params_doc(machine_params, stdout);
		mm_params_doc(mm_phys_params, stdout);
		printf("machine.costs:\n");
		mm_params_doc(machine_cost_params, stdout);
		printf("machine.bus (shared front-side buses, docs/membus.md):\n");
		mm_params_doc(machine_bus_params, stdout);
		printf("machine.disks[]:\n");
		mm_params_doc(disk_params, stdout);
		printf("machine.disks[].controller (a write-back RAID controller, models/hw/raid.h):\n");
		mm_params_doc(ctl_params, stdout);
		printf("machine.variation (run-to-run variance, docs/scenario.md):\n");
		machine_variation_doc(stdout);
		cache_params_doc(stdout);
		printf("kernel vm knobs (kernels.NAME.vm):\n");
		mm_params_doc(mm_kernel_params, stdout);
		printf("engine section:\n");
		mm_params_doc(engine_params, stdout);
	}
	printf("shipped scenarios:\n");
	list_scenarios("scenarios/seeds");
	list_scenarios("scenarios/teaching");
	list_scenarios("scenarios/capacity");
	return 0;
}
