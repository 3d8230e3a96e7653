/*
 * readfile.h - read a whole input file into memory, with the one-line errors of
 * err.h (cannot open, a directory, out of memory, read error).
 */
#ifndef MMEMU_READFILE_H
#define MMEMU_READFILE_H

#include <stddef.h>

#include "emu/core/err.h"

/**
 * mm_read_file() - read all of @path.
 * @what: what the file should be, for messages ("workfile", "trace file")
 * @buf: receives a malloc'ed buffer (not NUL-terminated; free it)
 * @len: receives its length in bytes
 * Returns: 0, or -1 with @e set to "PATH: cannot open (...)", "PATH: expected a
 * WHAT, got a directory", "PATH: out of memory while reading the WHAT" or
 * "PATH: cannot read (...)"; *@buf is then NULL.
 */
int mm_read_file(const char *path, const char *what, char **buf, size_t *len, struct mm_err *e);

#endif
