## man/: the manual pages, made at build time by scripts/mkman from each
## tool's own --help (SYNOPSIS, OPTIONS) and man/<page>.in (the rest), so
## the options in a page cannot drift from the tool.  spank_iostrata(8)
## takes its options from spank/spank-options, which prints the plugin's
## own table (spank/options.h).  tests/unit/test_man.sh checks the pages.

MKMAN = ASAN_OPTIONS=detect_leaks=0 $(SHELL) $(top_srcdir)/scripts/mkman \
	--version='$(PACKAGE_VERSION)' \
	--define=sysconfdir='$(sysconfdir)' \
	--define=sbindir='$(sbindir)' \
	--define=pkgdatadir='$(pkgdatadir)' \
	--define=jobscriptsdir='$(jobscriptsdir)' \
	--define=slurm_plugindir='$(slurmplugindir)'
man_deps = $(top_srcdir)/scripts/mkman
man_gen = $(AM_V_GEN)$(MKDIR_P) man && $(MKMAN)

man_MANS = man/iostrata-node.8
if HAVE_MPI
if HAVE_HDF5
if HAVE_JANSSON
man_MANS += man/iostrata-bench.1
endif
endif
endif
if HAVE_HDF5
if HAVE_JANSSON
if HAVE_INIH
man_MANS += man/iostrata-report.1
endif
endif
endif
if HAVE_JANSSON
man_MANS += man/iostrata-facts.1
endif
if HAVE_LIBSLURM
if HAVE_INIH
man_MANS += man/iostrata-campaign.1
endif
endif
if HAVE_SLURM
man_MANS += man/spank_iostrata.8
endif
# End of man_MANS

man/iostrata-bench.1: $(srcdir)/man/iostrata-bench.1.in mpibench/iostrata-bench$(EXEEXT) $(man_deps)
	$(man_gen) mpibench/iostrata-bench$(EXEEXT) $(srcdir)/man/iostrata-bench.1.in $@
man/iostrata-report.1: $(srcdir)/man/iostrata-report.1.in report/iostrata-report$(EXEEXT) $(man_deps)
	$(man_gen) report/iostrata-report$(EXEEXT) $(srcdir)/man/iostrata-report.1.in $@
man/iostrata-facts.1: $(srcdir)/man/iostrata-facts.1.in facts/iostrata-facts$(EXEEXT) $(man_deps)
	$(man_gen) facts/iostrata-facts$(EXEEXT) $(srcdir)/man/iostrata-facts.1.in $@
man/iostrata-campaign.1: $(srcdir)/man/iostrata-campaign.1.in jobscripts/iostrata-campaign$(EXEEXT) $(man_deps)
	$(man_gen) jobscripts/iostrata-campaign$(EXEEXT) $(srcdir)/man/iostrata-campaign.1.in $@
man/iostrata-node.8: $(srcdir)/man/iostrata-node.8.in spank/iostrata-node$(EXEEXT) $(man_deps)
	$(man_gen) spank/iostrata-node$(EXEEXT) $(srcdir)/man/iostrata-node.8.in $@
man/spank_iostrata.8: $(srcdir)/man/spank_iostrata.8.in spank/spank-options$(EXEEXT) $(man_deps)
	$(man_gen) spank/spank-options$(EXEEXT) $(srcdir)/man/spank_iostrata.8.in $@

CLEANFILES += \
	man/iostrata-bench.1 \
	man/iostrata-report.1 \
	man/iostrata-facts.1 \
	man/iostrata-campaign.1 \
	man/iostrata-node.8 \
	man/spank_iostrata.8 \
	# End of CLEANFILES (man)
EXTRA_DIST += \
	scripts/mkman \
	man/iostrata-bench.1.in \
	man/iostrata-report.1.in \
	man/iostrata-facts.1.in \
	man/iostrata-campaign.1.in \
	man/iostrata-node.8.in \
	man/spank_iostrata.8.in \
	# End of EXTRA_DIST (man)

# The pages render without warnings and hold every option and exit code
# their tool prints.
TESTS += tests/unit/test_man.sh
dist_noinst_SCRIPTS += tests/unit/test_man.sh
