/*
 * vmstat.c - names of the vm event counters (the list lives in vmstat.h).
 */
#include "models/mm/vmstat.h"

const char *const mm_vm_event_names[MM_NR_VM_EVENTS] = {
#define MM_X_NAME(id, name) name,
	MM_VM_EVENTS(MM_X_NAME)
#undef MM_X_NAME
};
