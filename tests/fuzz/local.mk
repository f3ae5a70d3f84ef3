## tests/fuzz/: libFuzzer harnesses (owned by the tests area; README.md).
## Built only by `make fuzz` in a tree configured with CC=clang
## --enable-sanitizer=address,undefined --enable-fuzzing; tests/run does
## that in build-fuzz/ and runs each harness for a short budget.

EXTRA_DIST += \
	tests/fuzz/README.md \
	tests/fuzz/corpus \
	tests/fuzz/fuzz_util.h \
	tests/fuzz/run \
	# End of EXTRA_DIST (fuzz)

if ENABLE_FUZZING
FUZZ_PROGS = \
	tests/fuzz/fuzz_units \
	tests/fuzz/fuzz_spank_opts \
	tests/fuzz/fuzz_policy \
	tests/fuzz/fuzz_journal \
	# End of FUZZ_PROGS
if HAVE_INIH
FUZZ_PROGS += tests/fuzz/fuzz_siteconf
endif
if HAVE_JANSSON
FUZZ_PROGS += tests/fuzz/fuzz_fio_json
endif
if HAVE_HDF5
FUZZ_PROGS += tests/fuzz/fuzz_h5run
endif
if HAVE_LIBSLURM
if HAVE_INIH
if HAVE_JANSSON
FUZZ_PROGS += tests/fuzz/fuzz_camp_records
endif
endif
endif
EXTRA_PROGRAMS = $(FUZZ_PROGS)

fuzz_ldflags = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
# What every harness shares (the input as a string, a scratch directory),
# compiled once.
check_LTLIBRARIES += tests/fuzz/libfuzz_util.la
tests_fuzz_libfuzz_util_la_SOURCES = tests/fuzz/fuzz_util.c \
	tests/fuzz/fuzz_util.h
fuzz_spank_cppflags = $(AM_CPPFLAGS) $(INC_SPANK)

tests_fuzz_fuzz_units_SOURCES = tests/fuzz/fuzz_units.c
tests_fuzz_fuzz_units_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_fuzz_fuzz_units_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_units_LDADD = tests/fuzz/libfuzz_util.la \
	common/libiostrata_common.la

tests_fuzz_fuzz_spank_opts_SOURCES = tests/fuzz/fuzz_spank_opts.c
tests_fuzz_fuzz_spank_opts_CPPFLAGS = $(fuzz_spank_cppflags)
tests_fuzz_fuzz_spank_opts_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_spank_opts_LDADD = tests/fuzz/libfuzz_util.la \
	spank/libiostrata_node.la

tests_fuzz_fuzz_policy_SOURCES = tests/fuzz/fuzz_policy.c
tests_fuzz_fuzz_policy_CPPFLAGS = $(fuzz_spank_cppflags)
tests_fuzz_fuzz_policy_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_policy_LDADD = tests/fuzz/libfuzz_util.la \
	spank/libiostrata_node.la

tests_fuzz_fuzz_journal_SOURCES = tests/fuzz/fuzz_journal.c
tests_fuzz_fuzz_journal_CPPFLAGS = $(fuzz_spank_cppflags)
tests_fuzz_fuzz_journal_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_journal_LDADD = tests/fuzz/libfuzz_util.la \
	spank/libiostrata_node.la

tests_fuzz_fuzz_siteconf_SOURCES = tests/fuzz/fuzz_siteconf.c
tests_fuzz_fuzz_siteconf_CPPFLAGS = $(AM_CPPFLAGS) $(INC_SITE)
tests_fuzz_fuzz_siteconf_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_siteconf_LDADD = tests/fuzz/libfuzz_util.la \
	site/libiostrata_site.la

tests_fuzz_fuzz_fio_json_SOURCES = tests/fuzz/fuzz_fio_json.c
tests_fuzz_fuzz_fio_json_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_fuzz_fuzz_fio_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_fio_json_LDADD = tests/fuzz/libfuzz_util.la \
	model/libiostrata_model.la

tests_fuzz_fuzz_h5run_SOURCES = tests/fuzz/fuzz_h5run.c
tests_fuzz_fuzz_h5run_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(HDF5_CFLAGS)
tests_fuzz_fuzz_h5run_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_h5run_LDADD = tests/fuzz/libfuzz_util.la \
	h5schema/libiostrata_h5.la \
	model/libiostrata_model.la common/libiostrata_common.la $(HDF5_LIBS)

tests_fuzz_fuzz_camp_records_SOURCES = tests/fuzz/fuzz_camp_records.c
tests_fuzz_fuzz_camp_records_CPPFLAGS = $(jobscripts_iostrata_campaign_CPPFLAGS)
tests_fuzz_fuzz_camp_records_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_camp_records_LDADD = tests/fuzz/libfuzz_util.la \
	$(jobscripts_iostrata_campaign_LDADD)

fuzz: $(FUZZ_PROGS)
else
fuzz:
	@echo "make fuzz: configure with CC=clang --enable-sanitizer=address,undefined --enable-fuzzing (see tests/fuzz/README.md)" >&2
	@exit 1
endif
.PHONY: fuzz
