/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crashlog: say which rank crashed where, then die of it (crashlog.h). */
#include "config.h"

#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdbool.h>
#include <ucontext.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "crashlog.h"

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NSIGS (sizeof(crash_signals) / sizeof(crash_signals[0]))

/* what the handler writes, prepared outside it */
static char prefix[320];
static const char *volatile stage = "start-up";
static struct sigaction previous[NSIGS];
static bool installed;
/* a stack overflow must still reach the handler */
static char altstack[64 * 1024];

/* ---- async-signal-safe formatting ------------------------------------ */

struct line {
	char buf[512];
	size_t len;
};

static void put(struct line *l, const char *s)
{
	while (*s && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

static void put_hex(struct line *l, uintptr_t v)
{
	char d[2 + 2 * sizeof(v) + 1], *p = d + sizeof(d) - 1;

	*p = '\0';
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	put(l, p);
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "SIGSEGV";
	case SIGBUS:
		return "SIGBUS";
	case SIGILL:
		return "SIGILL";
	case SIGFPE:
		return "SIGFPE";
	case SIGABRT:
		return "SIGABRT";
	}
	return "a signal";
}

/* A call through a null function pointer faults with the instruction
 * pointer at 0, where no unwinder finds a frame: the backtrace then ends
 * at the signal trampoline.  The caller's return address is still on top
 * of the stack: print it, so the report names the code that made the
 * call (x86-64; elsewhere nothing is added). */
static void called_from(const siginfo_t *si, void *uc)
{
#if defined(__x86_64__) && defined(REG_RIP) && defined(REG_RSP)
	const ucontext_t *u = uc;
	uintptr_t ip, sp;
	void *ret;
	struct line l = {.len = 0};

	if (!u || !si || si->si_code <= 0)
		return;
	ip = (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
	sp = (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
	if (ip != 0 || sp == 0 || sp % sizeof(void *))
		return;
	ret = *(void *const *)sp;
	put(&l, "a call through a null function pointer, made just before ");
	put_hex(&l, (uintptr_t)ret);
	put(&l, ":\n");
	if (write(STDERR_FILENO, l.buf, l.len) < 0) {
		/* nothing to do about it */
	}
	backtrace_symbols_fd(&ret, 1, STDERR_FILENO);
#else
	(void)si;
	(void)uc;
#endif
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	struct line l = {.len = 0};
	void *frames[64];
	int n;
	size_t i;

	put(&l, prefix);
	put(&l, sig_name(sig));
	if (sig != SIGABRT && si && si->si_code > 0) { /* raised by a fault */
		put(&l, " (address ");
		put_hex(&l, (uintptr_t)si->si_addr);
		put(&l, ")");
	}
	put(&l, " during \"");
	put(&l, stage ? stage : "?");
	put(&l, "\"; backtrace:\n");
	if (write(STDERR_FILENO, l.buf, l.len) < 0) {
		/* nothing to do about it */
	}
	n = backtrace(frames, (int)(sizeof(frames) / sizeof(frames[0])));
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	called_from(si, uc);
	/* the handler that was there before runs next (it prints its own
	 * report and ends the process), else the default action */
	for (i = 0; i < NSIGS; i++)
		if (crash_signals[i] == sig)
			break;
	if (i < NSIGS && (previous[i].sa_flags & SA_SIGINFO ||
			  (previous[i].sa_handler != SIG_IGN &&
			   previous[i].sa_handler != SIG_DFL)))
		sigaction(sig, &previous[i], NULL);
	else
		signal(sig, SIG_DFL);
	errno = saved;
	/* a fault returns to the instruction, which faults again under the
	 * handler now in place; a sent signal is sent again */
	if (!si || si->si_code <= 0 || sig == SIGABRT)
		raise(sig);
}

void mb_crashlog_stage(const char *s)
{
	stage = s;
}

int mb_crashlog_install(int rank, const char *host)
{
	char hostbuf[256];
	struct sigaction sa;
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	void *warm[1];
	size_t i;

	if (!host) {
		if (gethostname(hostbuf, sizeof(hostbuf)) < 0)
			snprintf(hostbuf, sizeof(hostbuf), "?");
		hostbuf[sizeof(hostbuf) - 1] = '\0';
		host = hostbuf;
	}
	if (rank >= 0)
		snprintf(prefix, sizeof(prefix),
			 "iostrata-bench: rank %d on %.200s (pid %ld): ", rank,
			 host, (long)getpid());
	else
		snprintf(prefix, sizeof(prefix),
			 "iostrata-bench: pid %ld on %.200s: ", (long)getpid(),
			 host);
	/* backtrace() loads libgcc on first use: not in the handler */
	backtrace(warm, 1);
	if (sigaltstack(&ss, NULL) < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++) {
		struct sigaction old;

		if (sigaction(crash_signals[i], &sa, &old) < 0)
			return -errno;
		/* installed again (after MPI_Init): keep the first previous
		 * handler unless someone put another one in between */
		if (!installed || old.sa_sigaction != on_crash)
			previous[i] = old;
	}
	installed = true;
	return 0;
}
