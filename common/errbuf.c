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
		/* Format into a copy first: callers may pass err->msg itself
		 * as an argument ("%s: %s", where, err->msg), and vsnprintf
		 * into a buffer it also reads from is undefined. */
		char buf[sizeof(err->msg)];
		int n;

		va_start(ap, fmt);
		n = vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (n < 0)
			n = snprintf(buf, sizeof(buf), "(bad message format)");
		/* Cut messages say so, never silently. */
		if ((size_t)n >= sizeof(buf))
			memcpy(buf + sizeof(buf) - 4, "...", 4);
		err->code = code;
		memcpy(err->msg, buf, sizeof(buf));
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
