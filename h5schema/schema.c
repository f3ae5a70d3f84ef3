/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schema: expands schema.def into the tables the writer, reader and
 * validator walk.
 */
#include "config.h"

#include <stddef.h>

#include "schema.h"

#define MSIZE(CTYPE, MEMBER) sizeof(((CTYPE *)0)->MEMBER)

const struct ios_h5_group_def ios_h5_groups[] = {
#define IOS_H5_GROUP(ID, PARENT, NAME, COUNT, FLAGS)                           \
	{IOS_G_##ID, IOS_G_##PARENT, NAME, COUNT, FLAGS},
#include "schema.def"
#undef IOS_H5_GROUP
};

const struct ios_h5_attr_def ios_h5_attrs[] = {
#define IOS_H5_CONST(G, NAME, TYPE, FLAGS)                                     \
	{IOS_G_##G, NAME, IOS_T_##TYPE, 0, 0, 1, FLAGS},
#define IOS_H5_ATTR(G, NAME, TYPE, CTYPE, MEMBER, FLAGS)                       \
	{IOS_G_##G,                                                            \
	 NAME,                                                                 \
	 IOS_T_##TYPE,                                                         \
	 offsetof(CTYPE, MEMBER),                                              \
	 MSIZE(CTYPE, MEMBER),                                                 \
	 0,                                                                    \
	 FLAGS},
#include "schema.def"
#undef IOS_H5_CONST
#undef IOS_H5_ATTR
};
const size_t ios_h5_nattrs = sizeof(ios_h5_attrs) / sizeof(ios_h5_attrs[0]);

const struct ios_h5_dset_def ios_h5_dsets[] = {
#define IOS_H5_DSET(G, NAME, TYPE, FLAGS)                                      \
	{IOS_G_##G, NAME, IOS_T_##TYPE, FLAGS},
#include "schema.def"
#undef IOS_H5_DSET
};
const size_t ios_h5_ndsets = sizeof(ios_h5_dsets) / sizeof(ios_h5_dsets[0]);

const struct ios_h5_member_def ios_h5_members[] = {
#define IOS_H5_MEMBER(C, NAME, TYPE, CTYPE, MEMBER)                            \
	{IOS_T_##C, NAME, IOS_T_##TYPE, offsetof(CTYPE, MEMBER),               \
	 MSIZE(CTYPE, MEMBER)},
#include "schema.def"
#undef IOS_H5_MEMBER
};
const size_t ios_h5_nmembers =
	sizeof(ios_h5_members) / sizeof(ios_h5_members[0]);

size_t ios_h5_compound_size(enum ios_h5_type t)
{
	switch (t) {
	case IOS_T_RANKINFO:
		return sizeof(struct ios_rank_info);
	case IOS_T_RANKRES:
		return sizeof(struct ios_rank_result);
	case IOS_T_IOERR:
		return sizeof(struct ios_io_error);
	case IOS_T_LAYER:
		return sizeof(struct ios_layer);
	case IOS_T_NETPAIR:
		return sizeof(struct ios_net_pair);
	case IOS_T_METARANK:
		return sizeof(struct ios_meta_rank);
	default:
		return 0;
	}
}

const char *ios_h5_type_name(enum ios_h5_type t)
{
	static const char *const names[] = {
		[IOS_T_STR] = "STR",
		[IOS_T_FSTR] = "FSTR",
		[IOS_T_I32] = "I32",
		[IOS_T_U32] = "U32",
		[IOS_T_I64] = "I64",
		[IOS_T_U64] = "U64",
		[IOS_T_U8] = "U8",
		[IOS_T_BOOL] = "BOOL",
		[IOS_T_F64] = "F64",
		[IOS_T_KV] = "KV",
		[IOS_T_TEXT] = "TEXT",
		[IOS_T_U64_2D] = "U64_2D",
		[IOS_T_F64_1D] = "F64_1D",
		[IOS_T_RANKINFO] = "RANKINFO",
		[IOS_T_RANKRES] = "RANKRES",
		[IOS_T_IOERR] = "IOERR",
		[IOS_T_LAYER] = "LAYER",
		[IOS_T_NETPAIR] = "NETPAIR",
		[IOS_T_METARANK] = "METARANK",
	};
	if ((size_t)t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	return "?";
}
