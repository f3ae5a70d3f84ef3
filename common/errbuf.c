/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errbuf: negative errno plus a message, for callers that must say why. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errbuf.h"

int ios_errf(struct ios_err *err, int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	errno = saved;
	return code;
}

void ios_err_clear(struct ios_err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
