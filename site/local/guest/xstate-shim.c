// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xstate-shim: an LD_PRELOAD library for Debian's user-mode Linux 6.1
 * (linux.uml) on hosts whose XSAVE area is larger than UML knows.
 *
 * UML keeps each guest thread's FPU state in a fixed buffer the size of
 * struct _xstate (832 bytes: x87/SSE, the header, the AVX upper halves) and
 * moves it with ptrace(PTRACE_GETREGSET/SETREGSET, NT_X86_XSTATE).  The host
 * kernel accepts a SETREGSET only with the whole XSAVE buffer
 * (arch/x86/kernel/fpu/regset.c: count != fpu_user_cfg.max_size is EFAULT),
 * which on a CPU with AVX-512 and AMX is some 11 KiB: the guest's first
 * process then dies ("userspace - ptrace set fp regs failed, errno = 14",
 * a kernel panic).  Measured on this machine (Xeon with amx_tile, host
 * kernel 6.18): every boot panics so.
 *
 * This wrapper of ptrace() keeps, for each of UML's buffers (one per guest
 * thread, at a stable address), a shadow of the whole host-sized state:
 * GETREGSET fills the shadow and copies UML's part into its buffer;
 * SETREGSET lays UML's part over the shadow and hands the host the whole
 * buffer.  So each guest thread keeps its own AVX-512 and AMX state too
 * (glibc's string functions use ymm16-31 on such CPUs), and UML's own part
 * (signal frames, exec) is what the host gets.  Every other request passes
 * through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

/* The largest XSAVE area asked for (the host's is found at the first call). */
#define SHADOW_MAX (64 * 1024)
#define NSLOTS 4096

typedef long (*ptrace_fn)(int, pid_t, void *, void *);

struct slot {
	void *key; /* UML's buffer */
	unsigned char *state;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[NSLOTS];
static size_t host_size;

static ptrace_fn real_ptrace(void)
{
	static ptrace_fn fn;
	if (!fn)
		fn = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	return fn;
}

/* The shadow of UML's buffer KEY (open addressing; NULL when full). */
static struct slot *slot_of(void *key)
{
	size_t h = ((size_t)key >> 4) % NSLOTS;
	for (size_t i = 0; i < NSLOTS; i++) {
		struct slot *s = &slots[(h + i) % NSLOTS];
		if (s->key == key)
			return s;
		if (!s->key) {
			s->state = calloc(1, host_size);
			if (!s->state)
				return NULL;
			s->key = key;
			return s;
		}
	}
	return NULL;
}

/* The host's XSAVE size: a GETREGSET with a large buffer returns it. */
static long find_host_size(pid_t pid)
{
	unsigned char *buf = calloc(1, SHADOW_MAX);
	struct iovec iov = {buf, SHADOW_MAX};
	long r;
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	r = real_ptrace()(PTRACE_GETREGSET, pid, (void *)(long)NT_X86_XSTATE,
			  &iov);
	if (r == 0)
		host_size = iov.iov_len;
	free(buf);
	return r;
}

static long xstate(int req, pid_t pid, struct iovec *uml)
{
	struct iovec iov;
	struct slot *s;
	long r;

	if (!host_size && find_host_size(pid) < 0)
		return -1;
	if (uml->iov_len >= host_size)
		return real_ptrace()(req, pid, (void *)(long)NT_X86_XSTATE,
				     uml);
	s = slot_of(uml->iov_base);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	iov.iov_base = s->state;
	iov.iov_len = host_size;
	if (req == PTRACE_GETREGSET) {
		r = real_ptrace()(req, pid, (void *)(long)NT_X86_XSTATE, &iov);
		if (r == 0)
			memcpy(uml->iov_base, s->state, uml->iov_len);
		return r;
	}
	memcpy(s->state, uml->iov_base, uml->iov_len);
	return real_ptrace()(req, pid, (void *)(long)NT_X86_XSTATE, &iov);
}

long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	pid_t pid;
	void *addr, *data;
	long r;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);
	if ((req == PTRACE_GETREGSET || req == PTRACE_SETREGSET) &&
	    (long)addr == NT_X86_XSTATE && data) {
		pthread_mutex_lock(&lock);
		r = xstate(req, pid, data);
		pthread_mutex_unlock(&lock);
		return r;
	}
	return real_ptrace()(req, pid, addr, data);
}
