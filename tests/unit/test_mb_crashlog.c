/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: crashlog.  A child installs it, crashes (a null write, a
 * stack overflow, abort(), a signal sent by kill), and the test reads what
 * it wrote on stderr: rank, host, pid, signal, fault address, stage and a
 * backtrace; the child still dies of the signal (or, under a sanitizer,
 * of the sanitizer's report, the handler that was there before).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "crashlog.h"

enum how { NULL_WRITE, OVERFLOW, ABORT, KILLED, REINSTALL, NULL_CALL };

/* a function pointer the compiler cannot prove null */
static void (*volatile hook)(void);

static volatile int sink;

/* deep until the stack ends ([limit] is never reached: the compiler
 * cannot prove the recursion endless) */
static int recurse(int n, int limit)
{
	volatile char pad[4096];

	pad[0] = (char)n;
	if (n == limit)
		return 0;
	return recurse(n + 1, limit) + pad[0];
}

static __attribute__((noreturn)) void crash(enum how how)
{
	switch (how) {
	case NULL_WRITE:
	case REINSTALL:
		*(volatile int *)(uintptr_t)(sink + 8) = 1;
		break;
	case OVERFLOW:
		sink = recurse(0, sink - 1);
		break;
	case ABORT:
		abort();
	case KILLED:
		kill(getpid(), SIGBUS);
		break;
	case NULL_CALL:
		hook();
		break;
	}
	_exit(99);
}

/* Run [how] in a child; its stderr into [out]; its wait status back. */
static int run_child(enum how how, char *out, size_t cap)
{
	int pfd[2], st;
	pid_t pid;
	size_t len = 0;
	ssize_t k;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction dfl = {.sa_handler = SIG_DFL};

		/* cmocka's own handlers are not the point here */
		sigaction(SIGSEGV, &dfl, NULL);
		sigaction(SIGBUS, &dfl, NULL);
		sigaction(SIGABRT, &dfl, NULL);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		if (mb_crashlog_install(-1, NULL))
			_exit(98);
		if (how == REINSTALL && mb_crashlog_install(7, "c2"))
			_exit(98);
		else if (how != REINSTALL && mb_crashlog_install(3, "hostx"))
			_exit(98);
		mb_crashlog_stage("unit stage");
		crash(how);
	}
	close(pfd[1]);
	while ((k = read(pfd[0], out + len, cap - 1 - len)) > 0)
		len += (size_t)k;
	out[len] = '\0';
	close(pfd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

/* Killed by [sig], or ended by a sanitizer's report (its handler was the
 * one before ours). */
static void died_of(int st, int sig, const char *out)
{
	if (WIFSIGNALED(st)) {
		assert_int_equal(WTERMSIG(st), sig);
		return;
	}
	if (!strstr(out, "Sanitizer"))
		fail_msg("child not killed by signal %d (status 0x%x): %s", sig,
			 st, out);
}

static void has(const char *out, const char *want)
{
	if (!strstr(out, want))
		fail_msg("wanted \"%s\" in:\n%s", want, out);
}

static void test_null_write(void **state)
{
	char out[16384];
	int st = run_child(NULL_WRITE, out, sizeof(out));

	(void)state;
	has(out, "iostrata-bench: rank 3 on hostx (pid ");
	has(out,
	    "): SIGSEGV (address 0x8) during \"unit stage\"; backtrace:\n");
	/* at least one frame line after the header */
	assert_true(strlen(strstr(out, "backtrace:\n")) >
		    strlen("backtrace:\n") + 4);
	died_of(st, SIGSEGV, out);
}

static void test_stack_overflow(void **state)
{
	char out[16384];
	int st = run_child(OVERFLOW, out, sizeof(out));

	(void)state;
	if (strstr(out, "Sanitizer") && !strstr(out, "iostrata-bench:"))
		skip(); /* the sanitizer's own stack handling came first */
	has(out, "): SIGSEGV (address 0x");
	has(out, "during \"unit stage\"");
	died_of(st, SIGSEGV, out);
}

static void test_abort(void **state)
{
	char out[16384];
	int st = run_child(ABORT, out, sizeof(out));

	(void)state;
	has(out, "iostrata-bench: rank 3 on hostx (pid ");
	has(out, "): SIGABRT during \"unit stage\"; backtrace:\n");
	died_of(st, SIGABRT, out);
}

/* a signal sent by kill(): no address; the process still dies of it */
static void test_killed(void **state)
{
	char out[16384];
	int st = run_child(KILLED, out, sizeof(out));

	(void)state;
	has(out, "): SIGBUS during \"unit stage\"");
	assert_null(strstr(out, "address"));
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGBUS);
}

/* installed before MPI_Init (pid only), again after with the rank: the
 * second names the rank, and one report only is written */
/* A call through a null function pointer: the backtrace ends at the
 * signal trampoline (no frame at address 0); the report names the caller
 * from the return address on the stack. */
static void test_null_call(void **state)
{
	char out[16384];
	const char *c;
	int st = run_child(NULL_CALL, out, sizeof(out));

	(void)state;
	has(out,
	    "): SIGSEGV (address 0x0) during \"unit stage\"; backtrace:\n");
#if defined(__x86_64__)
	has(out, "a call through a null function pointer, made just before 0x");
	c = strstr(out, "made just before 0x");
	/* the next line is the caller, in this test program */
	c = c ? strchr(c, '\n') : NULL;
	assert_non_null(c);
	if (!strstr(c + 1, "test_mb_crashlog"))
		fail_msg("caller not in the test program:\n%s", out);
#else
	(void)c;
#endif
	died_of(st, SIGSEGV, out);
}

static void test_reinstall(void **state)
{
	char out[16384];
	int st = run_child(REINSTALL, out, sizeof(out));
	const char *first;

	(void)state;
	has(out, "iostrata-bench: rank 7 on c2 (pid ");
	first = strstr(out, "iostrata-bench:");
	assert_non_null(first);
	assert_null(strstr(first + 1, "iostrata-bench:"));
	died_of(st, SIGSEGV, out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_write),
		cmocka_unit_test(test_stack_overflow),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_reinstall),
		cmocka_unit_test(test_null_call),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
