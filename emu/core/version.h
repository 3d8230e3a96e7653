/* version.h - the tool version echoed in results files and --version. */
#ifndef MMEMU_VERSION_H
#define MMEMU_VERSION_H
#define MMEMU_VERSION "0.1.0"
#endif
