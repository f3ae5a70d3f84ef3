## site/: site descriptions and their parser (owned by the jobs area).
## The one-machine site itself (site/local/localsite ...) belongs to the site
## area and is distributed from its own files.

if HAVE_INIH
noinst_LTLIBRARIES += site/libiostrata_site.la
site_libiostrata_site_la_SOURCES = \
	site/siteconf.c \
	site/siteconf_cost.c \
	site/siteconf_internal.h \
	site/siteconf_value.c \
	site/siteconf.h \
	# End of site_libiostrata_site_la_SOURCES
site_libiostrata_site_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_SITE)
site_libiostrata_site_la_CFLAGS = $(AM_CFLAGS) $(INIH_CFLAGS)
site_libiostrata_site_la_LIBADD = \
	common/libiostrata_common.la \
	$(INIH_LIBS) \
	# End of site_libiostrata_site_la_LIBADD

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_siteconf
TESTS += tests/unit/test_siteconf
tests_unit_test_siteconf_CPPFLAGS = $(AM_CPPFLAGS) $(INC_SITE)
tests_unit_test_siteconf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_siteconf_LDADD = \
	site/libiostrata_site.la \
	-lm \
	$(CMOCKA_LIBS) \
	# End of tests_unit_test_siteconf_LDADD
endif
endif

EXTRA_DIST += \
	site/example/site.conf \
	site/example/tiers.conf \
	site/local/site.conf \
	site/local/tiers.conf \
	# End of EXTRA_DIST (site)

# The example site and policy, installed for sites to copy.
siteexampledir = $(pkgdatadir)/site/example
dist_siteexample_DATA = \
	site/example/site.conf \
	site/example/tiers.conf \
	site/example/policy.conf \
	# End of dist_siteexample_DATA
