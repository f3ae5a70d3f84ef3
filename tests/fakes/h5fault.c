/* SPDX-License-Identifier: GPL-2.0-or-later */
/* h5fault: see h5fault.h. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "h5fault.h"

/* The marker the file named [name] ends with: 'c', 'h' or 0. */
static int marker(const char *name)
{
	char tail[64];
	struct stat st;
	size_t nc = sizeof(IOS_H5FAULT_CRASH) - 1;
	size_t nh = sizeof(IOS_H5FAULT_HANG) - 1;
	size_t n = nc > nh ? nc : nh;
	ssize_t k;
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	int m = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size >= n) {
		k = pread(fd, tail, n, st.st_size - (off_t)n);
		if (k == (ssize_t)n) {
			if (!memcmp(tail + n - nc, IOS_H5FAULT_CRASH, nc))
				m = 'c';
			else if (!memcmp(tail + n - nh, IOS_H5FAULT_HANG, nh))
				m = 'h';
		}
	}
	close(fd);
	return m;
}

hid_t H5Fopen(const char *name, unsigned flags, hid_t fapl)
{
	hid_t (*real)(const char *, unsigned, hid_t);
	int m = name ? marker(name) : 0;

	if (m == 'c') {
		/* what a heap overrun inside the library ends in; whatever
		 * handler the caller had is not reset here (the isolated
		 * reader must not run it in the child) */
		raise(SIGSEGV);
	}
	if (m == 'h')
		for (volatile unsigned long spin = 0;; spin++)
			;
	*(void **)&real = dlsym(RTLD_NEXT, "H5Fopen");
	return real ? real(name, flags, fapl) : H5I_INVALID_HID;
}
