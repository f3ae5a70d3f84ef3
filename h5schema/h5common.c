/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5common: what the writer (h5write.c), the reader (h5read.c) and the
 * validator (h5validate.c) share: HDF5's error stack, the string, numeric
 * and compound types of schema.def's tags, and the reader's messages
 * (h5run_internal.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <hdf5.h>

#include "h5run_internal.h"
#include "schema.h"

void ios_h5_quiet(void)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *arg)
{
	char *buf = arg;

	(void)n;
	if (buf[0] == '\0' && e->desc && e->desc[0])
		snprintf(buf, 200, "%s", e->desc);
	return 0;
}

const char *ios_h5_why(char *buf)
{
	buf[0] = '\0';
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, buf);
	if (!buf[0])
		snprintf(buf, 200, "HDF5 error");
	return buf;
}

hid_t ios_h5_str_type(void)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

hid_t ios_h5_fstr_type(size_t n)
{
	hid_t t = H5Tcopy(H5T_C_S1);

	H5Tset_size(t, n);
	H5Tset_strpad(t, H5T_STR_NULLTERM);
	return t;
}

hid_t ios_h5_native_type(enum ios_h5_type t)
{
	switch (t) {
	case IOS_T_I32:
		return H5T_NATIVE_INT32;
	case IOS_T_U32:
		return H5T_NATIVE_UINT32;
	case IOS_T_I64:
		return H5T_NATIVE_INT64;
	case IOS_T_U64:
		return H5T_NATIVE_UINT64;
	case IOS_T_U8:
	case IOS_T_BOOL:
		return H5T_NATIVE_UINT8;
	case IOS_T_F64:
		return H5T_NATIVE_DOUBLE;
	default:
		return -1;
	}
}

hid_t ios_h5_compound_type(enum ios_h5_type c)
{
	hid_t t;

	if (c == IOS_T_KV) {
		hid_t s = ios_h5_str_type();

		t = H5Tcreate(H5T_COMPOUND, sizeof(struct ios_kv));
		H5Tinsert(t, "key", offsetof(struct ios_kv, key), s);
		H5Tinsert(t, "value", offsetof(struct ios_kv, value), s);
		H5Tclose(s);
		return t;
	}
	t = H5Tcreate(H5T_COMPOUND, ios_h5_compound_size(c));
	for (size_t i = 0; i < ios_h5_nmembers; i++) {
		const struct ios_h5_member_def *m = &ios_h5_members[i];

		if (m->compound != c)
			continue;
		if (m->type == IOS_T_FSTR) {
			hid_t s = ios_h5_fstr_type(m->size);

			H5Tinsert(t, m->name, m->off, s);
			H5Tclose(s);
		} else {
			H5Tinsert(t, m->name, m->off,
				  ios_h5_native_type(m->type));
		}
	}
	return t;
}

/*
 * Transfer properties of every write (and of the reader's plain and text
 * datasets: a fresh isolated-reader child otherwise faults in two 1 MiB
 * buffers per file): type conversion in strips of 64 KiB
 * instead of HDF5's default two 1 MiB buffers per write call (conversion
 * and background), which HDF5 then keeps on its free lists: they were most
 * of the writer's peak memory, and the writer runs on rank 0.  The free
 * lists themselves are bounded too (set once, with the properties).
 */
hid_t ios_h5_dxpl(void)
{
	static hid_t dxpl = -1;

	if (dxpl >= 0)
		return dxpl;
	H5set_free_list_limits(256 * 1024, 64 * 1024, 256 * 1024, 64 * 1024,
			       256 * 1024, 64 * 1024);
	dxpl = H5Pcreate(H5P_DATASET_XFER);
	if (dxpl < 0 || H5Pset_buffer(dxpl, 64 * 1024, NULL, NULL) < 0)
		return H5P_DEFAULT;
	return dxpl;
}

/* ---- the reader's messages (reader and validator) ------------------ */

int ios_h5_rfail(struct ios_h5_rctx *r, int code, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ios_errf(r->err, code, "h5schema: read %s: %s%s%s", r->path,
			r->obj, r->obj[0] ? ": " : "", msg);
}

int ios_h5_rfail_h5(struct ios_h5_rctx *r, const char *what)
{
	return ios_h5_rfail(r, -EBADMSG, "%s: %s (corrupt file?)", what,
			    ios_h5_why(r->why));
}
