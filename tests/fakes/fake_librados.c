// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake_librados: an in-memory librados for the unit tests, loaded like the
 * real one through $IOSTRATA_LIBRADOS (common/ceph_dl.c).  One process, one
 * cluster: objects (namespace, name, data, xattrs) in a list; connect
 * always works, pool "missing" does not exist; aio completes at once on the
 * caller's thread.  Exclusive create, xattr and write_full semantics follow
 * the OSD's (write_full keeps the xattrs; a missing xattr is -ENODATA, a
 * missing object -ENOENT).  Of the monitor commands only "config dump"
 * answers, with $FAKE_RADOS_CONFIG_DUMP.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rados/librados.h>

struct fxattr {
	struct fxattr *next;
	char *name;
	char *val;
	size_t len;
};

struct fobj {
	struct fobj *next;
	char *ns, *oid;
	char *data;
	uint64_t size;
	time_t mtime;
	struct fxattr *xattrs;
};

static struct fobj *objects;

struct fio {
	char ns[256];
};

struct fcomp {
	rados_callback_t cb;
	void *arg;
	int rc;
};

struct flist {
	struct fio *io;
	struct fobj *next;
};

struct fop {
	bool create, excl;
	struct fxattr *set;
};

static struct fobj *find(const struct fio *io, const char *oid)
{
	struct fobj *o;

	for (o = objects; o; o = o->next)
		if (!strcmp(o->ns, io->ns) && !strcmp(o->oid, oid))
			return o;
	return NULL;
}

static struct fobj *get(const struct fio *io, const char *oid)
{
	struct fobj *o = find(io, oid);

	if (o)
		return o;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->ns = strdup(io->ns);
	o->oid = strdup(oid);
	o->next = objects;
	objects = o;
	return o;
}

static int put(struct fobj *o, const char *buf, size_t len, uint64_t off,
	       bool full)
{
	uint64_t end = off + len;

	if (full)
		o->size = 0;
	if (end > o->size) {
		char *d = realloc(o->data, end);

		if (!d)
			return -ENOMEM;
		memset(d + o->size, 0, end - o->size);
		o->data = d;
		o->size = end;
	}
	memcpy(o->data + off, buf, len);
	o->mtime = time(NULL);
	return 0;
}

static struct fxattr *xfind(struct fobj *o, const char *name)
{
	struct fxattr *x;

	for (x = o->xattrs; x; x = x->next)
		if (!strcmp(x->name, name))
			return x;
	return NULL;
}

static int xset(struct fobj *o, const char *name, const char *v, size_t len)
{
	struct fxattr *x = xfind(o, name);
	char *nv = malloc(len ? len : 1);

	if (!nv)
		return -ENOMEM;
	memcpy(nv, v, len);
	if (!x) {
		x = calloc(1, sizeof(*x));
		if (!x) {
			free(nv);
			return -ENOMEM;
		}
		x->name = strdup(name);
		x->next = o->xattrs;
		o->xattrs = x;
	}
	free(x->val);
	x->val = nv;
	x->len = len;
	return 0;
}

int rados_create(rados_t *cluster, const char *const id)
{
	(void)id;
	*cluster = calloc(1, 1);
	return *cluster ? 0 : -ENOMEM;
}

int rados_conf_read_file(rados_t cluster, const char *path)
{
	(void)cluster;
	(void)path;
	return 0;
}

int rados_conf_parse_env(rados_t cluster, const char *var)
{
	(void)cluster;
	(void)var;
	return 0;
}

int rados_conf_set(rados_t cluster, const char *option, const char *value)
{
	(void)cluster;
	(void)option;
	(void)value;
	return 0;
}

int rados_conf_get(rados_t cluster, const char *option, char *buf, size_t len)
{
	(void)cluster;
	(void)option;
	(void)buf;
	(void)len;
	return -ENOENT;
}

int rados_connect(rados_t cluster)
{
	(void)cluster;
	return 0;
}

void rados_shutdown(rados_t cluster)
{
	free(cluster);
}

int rados_cluster_fsid(rados_t cluster, char *buf, size_t len)
{
	(void)cluster;
	(void)buf;
	(void)len;
	return -ENOTSUP;
}

/* "config dump" answers $FAKE_RADOS_CONFIG_DUMP when set (the facts'
 * tests); every other command is not supported. */
int rados_mon_command(rados_t cluster, const char **cmd, size_t cmdlen,
		      const char *inbuf, size_t inbuflen, char **outbuf,
		      size_t *outbuflen, char **outs, size_t *outslen)
{
	const char *dump = getenv("FAKE_RADOS_CONFIG_DUMP");

	(void)cluster;
	(void)inbuf;
	(void)inbuflen;
	*outs = NULL;
	*outslen = 0;
	if (!dump || cmdlen != 1 || !strstr(cmd[0], "\"config dump\""))
		return -ENOTSUP;
	*outbuf = strdup(dump);
	if (!*outbuf)
		return -ENOMEM;
	*outbuflen = strlen(dump);
	return 0;
}

void rados_buffer_free(char *buf)
{
	free(buf);
}

int rados_ioctx_create(rados_t cluster, const char *pool_name,
		       rados_ioctx_t *ioctx)
{
	(void)cluster;
	if (!strcmp(pool_name, "missing"))
		return -ENOENT;
	*ioctx = calloc(1, sizeof(struct fio));
	return *ioctx ? 0 : -ENOMEM;
}

void rados_ioctx_destroy(rados_ioctx_t io)
{
	free(io);
}

void rados_ioctx_set_namespace(rados_ioctx_t io, const char *nspace)
{
	struct fio *f = io;

	strncpy(f->ns, nspace ? nspace : "", sizeof(f->ns) - 1);
}

int rados_stat(rados_ioctx_t io, const char *o, uint64_t *psize, time_t *pmtime)
{
	struct fobj *ob = find(io, o);

	if (!ob)
		return -ENOENT;
	*psize = ob->size;
	*pmtime = ob->mtime;
	return 0;
}

int rados_write(rados_ioctx_t io, const char *oid, const char *buf, size_t len,
		uint64_t off)
{
	struct fobj *o = get(io, oid);

	return o ? put(o, buf, len, off, false) : -ENOMEM;
}

int rados_write_full(rados_ioctx_t io, const char *oid, const char *buf,
		     size_t len)
{
	struct fobj *o = get(io, oid);

	return o ? put(o, buf, len, 0, true) : -ENOMEM;
}

int rados_read(rados_ioctx_t io, const char *oid, char *buf, size_t len,
	       uint64_t off)
{
	struct fobj *o = find(io, oid);

	if (!o)
		return -ENOENT;
	if (off >= o->size)
		return 0;
	if (len > o->size - off)
		len = o->size - off;
	memcpy(buf, o->data + off, len);
	return (int)len;
}

int rados_remove(rados_ioctx_t io, const char *oid)
{
	struct fobj **p, *o;
	struct fxattr *x;

	for (p = &objects; *p; p = &(*p)->next)
		if (!strcmp((*p)->ns, ((struct fio *)io)->ns) &&
		    !strcmp((*p)->oid, oid))
			break;
	o = *p;
	if (!o)
		return -ENOENT;
	*p = o->next;
	while ((x = o->xattrs)) {
		o->xattrs = x->next;
		free(x->name);
		free(x->val);
		free(x);
	}
	free(o->ns);
	free(o->oid);
	free(o->data);
	free(o);
	return 0;
}

int rados_nobjects_list_open(rados_ioctx_t io, rados_list_ctx_t *ctx)
{
	struct flist *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->io = io;
	l->next = objects;
	*ctx = l;
	return 0;
}

/* The list is walked ahead of the caller, so the caller may remove the
 * entry it was just given (as with the real listing). */
int rados_nobjects_list_next(rados_list_ctx_t ctx, const char **entry,
			     const char **key, const char **nspace)
{
	struct flist *l = ctx;
	struct fobj *o;

	for (o = l->next; o && strcmp(o->ns, l->io->ns); o = o->next)
		;
	if (!o)
		return -ENOENT;
	l->next = o->next;
	*entry = o->oid;
	if (key)
		*key = NULL;
	if (nspace)
		*nspace = o->ns;
	return 0;
}

void rados_nobjects_list_close(rados_list_ctx_t ctx)
{
	free(ctx);
}

int rados_aio_create_completion2(void *cb_arg, rados_callback_t cb_complete,
				 rados_completion_t *pc)
{
	struct fcomp *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->cb = cb_complete;
	c->arg = cb_arg;
	*pc = c;
	return 0;
}

static int complete(rados_completion_t c, int rc)
{
	struct fcomp *fc = c;

	fc->rc = rc;
	if (fc->cb)
		fc->cb(c, fc->arg);
	return 0;
}

int rados_aio_write(rados_ioctx_t io, const char *oid,
		    rados_completion_t completion, const char *buf, size_t len,
		    uint64_t off)
{
	return complete(completion, rados_write(io, oid, buf, len, off));
}

int rados_aio_write_full(rados_ioctx_t io, const char *oid,
			 rados_completion_t completion, const char *buf,
			 size_t len)
{
	return complete(completion, rados_write_full(io, oid, buf, len));
}

int rados_aio_read(rados_ioctx_t io, const char *oid,
		   rados_completion_t completion, char *buf, size_t len,
		   uint64_t off)
{
	return complete(completion, rados_read(io, oid, buf, len, off));
}

int rados_aio_get_return_value(rados_completion_t c)
{
	return ((struct fcomp *)c)->rc;
}

void rados_aio_release(rados_completion_t c)
{
	free(c);
}

int rados_getxattr(rados_ioctx_t io, const char *o, const char *name, char *buf,
		   size_t len)
{
	struct fobj *ob = find(io, o);
	struct fxattr *x;

	if (!ob)
		return -ENOENT;
	x = xfind(ob, name);
	if (!x)
		return -ENODATA;
	if (x->len > len)
		return -ERANGE;
	memcpy(buf, x->val, x->len);
	return (int)x->len;
}

/* Like the OSD: setting an xattr creates the object. */
int rados_setxattr(rados_ioctx_t io, const char *o, const char *name,
		   const char *buf, size_t len)
{
	struct fobj *ob = get(io, o);

	return ob ? xset(ob, name, buf, len) : -ENOMEM;
}

/* Like the OSD: removing an absent xattr is no error. */
int rados_rmxattr(rados_ioctx_t io, const char *o, const char *name)
{
	struct fobj *ob = find(io, o);
	struct fxattr **p, *x;

	if (!ob)
		return -ENOENT;
	for (p = &ob->xattrs; *p; p = &(*p)->next)
		if (!strcmp((*p)->name, name))
			break;
	x = *p;
	if (x) {
		*p = x->next;
		free(x->name);
		free(x->val);
		free(x);
	}
	return 0;
}

rados_write_op_t rados_create_write_op(void)
{
	return calloc(1, sizeof(struct fop));
}

void rados_write_op_create(rados_write_op_t write_op, int exclusive,
			   const char *category)
{
	struct fop *op = write_op;

	(void)category;
	op->create = true;
	op->excl = exclusive == LIBRADOS_CREATE_EXCLUSIVE;
}

void rados_write_op_setxattr(rados_write_op_t write_op, const char *name,
			     const char *value, size_t value_len)
{
	struct fop *op = write_op;
	struct fxattr *x = calloc(1, sizeof(*x));

	if (!x)
		return;
	x->name = strdup(name);
	x->val = malloc(value_len ? value_len : 1);
	if (x->val)
		memcpy(x->val, value, value_len);
	x->len = value_len;
	x->next = op->set;
	op->set = x;
}

/* All or nothing, like the OSD's transaction. */
int rados_write_op_operate(rados_write_op_t write_op, rados_ioctx_t io,
			   const char *oid, time_t *mtime, int flags)
{
	struct fop *op = write_op;
	struct fobj *o = find(io, oid);
	struct fxattr *x;
	int rc = 0;

	(void)mtime;
	(void)flags;
	if (o && op->excl)
		return -EEXIST;
	if (!o && !op->create && !op->set)
		return -ENOENT;
	o = get(io, oid);
	if (!o)
		return -ENOMEM;
	for (x = op->set; x && !rc; x = x->next)
		rc = xset(o, x->name, x->val, x->len);
	return rc;
}

void rados_release_write_op(rados_write_op_t write_op)
{
	struct fop *op = write_op;
	struct fxattr *x;

	while ((x = op->set)) {
		op->set = x->next;
		free(x->name);
		free(x->val);
		free(x);
	}
	free(op);
}
