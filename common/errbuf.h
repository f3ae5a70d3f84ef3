/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errbuf: an optional "why" next to a negative errno (flux_error_t style).
 * Functions that can fail for a reason the user must read take a
 * struct ios_err * (may be NULL) and fill it with one message line.
 */
#ifndef IOSTRATA_ERRBUF_H
#define IOSTRATA_ERRBUF_H

#define IOS_ERR_MSGLEN 512

struct ios_err {
	int code;                 /* negative errno, 0 when no error */
	char msg[IOS_ERR_MSGLEN]; /* one line, no trailing newline */
};

/*
 * Record [code] (a negative errno) and a printf-style message in [err]
 * (ignored when NULL).  Returns [code] so callers can write
 * `return ios_errf(err, -EINVAL, "...")`.  errno is preserved.  err->msg
 * may itself be an argument ("%s: %s", where, err->msg); a message that
 * does not fit ends in "...".
 */
int ios_errf(struct ios_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear [err] (may be NULL). */
void ios_err_clear(struct ios_err *err);

#endif
