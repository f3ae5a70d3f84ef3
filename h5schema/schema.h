/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schema: the results file layout as data (tables built from schema.def),
 * shared by the writer, the reader and the validator (h5write.c, h5read.c,
 * h5validate.c).  Internal to libiostrata_h5; the public API is h5run.h.
 */
#ifndef IOSTRATA_SCHEMA_H
#define IOSTRATA_SCHEMA_H

#include <stddef.h>

#include "results.h"

#define IOS_H5_REQ 1
#define IOS_H5_OPT 0

/* The value of the root attribute "format". */
#define IOS_H5_FORMAT "iostrata-results"

enum ios_h5_group {
#define IOS_H5_GROUP(ID, PARENT, NAME, COUNT, FLAGS) IOS_G_##ID,
#include "schema.def"
#undef IOS_H5_GROUP
	IOS_G_COUNT
};

enum ios_h5_type {
	IOS_T_STR,
	IOS_T_FSTR,
	IOS_T_I32,
	IOS_T_U32,
	IOS_T_I64,
	IOS_T_U64,
	IOS_T_U8,
	IOS_T_BOOL,
	IOS_T_F64,
	IOS_T_KV,
	IOS_T_TEXT,
	IOS_T_U64_2D,
	IOS_T_F64_1D,
	IOS_T_RANKINFO,
	IOS_T_RANKRES,
	IOS_T_IOERR,
	IOS_T_LAYER,
	IOS_T_NETPAIR,
	IOS_T_METARANK,
};

struct ios_h5_group_def {
	enum ios_h5_group id, parent;
	const char *name;
	const char *count_attr; /* NULL: a single group */
	int flags;
};

struct ios_h5_attr_def {
	enum ios_h5_group group;
	const char *name;
	enum ios_h5_type type;
	size_t off;  /* offset in the group's C struct */
	size_t size; /* size of that member */
	int is_const;
	int flags;
};

struct ios_h5_dset_def {
	enum ios_h5_group group;
	const char *name;
	enum ios_h5_type type;
	int flags;
};

struct ios_h5_member_def {
	enum ios_h5_type compound;
	const char *name;
	enum ios_h5_type type;
	size_t off, size;
};

extern const struct ios_h5_group_def ios_h5_groups[];
extern const struct ios_h5_attr_def ios_h5_attrs[];
extern const size_t ios_h5_nattrs;
extern const struct ios_h5_dset_def ios_h5_dsets[];
extern const size_t ios_h5_ndsets;
extern const struct ios_h5_member_def ios_h5_members[];
extern const size_t ios_h5_nmembers;

/* Size of the C struct behind a compound type tag (0 for other tags). */
size_t ios_h5_compound_size(enum ios_h5_type t);

/* Type tag's name as in schema.def ("STR", "RANKRES", ...). */
const char *ios_h5_type_name(enum ios_h5_type t);

#endif
