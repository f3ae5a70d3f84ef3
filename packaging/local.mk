## packaging/: the Debian source package (debian/), the RPM spec and the
## Spack package, shipped in the tarball; tests/packaging/run builds the
## Debian packages and checks the installed tree (not part of make check);
## tests/unit/test_packaging.sh checks the three descriptions against
## configure and rpmspec in make check.

EXTRA_DIST += \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/iostrata-spank.docs \
	debian/iostrata-spank.install \
	debian/iostrata.docs \
	debian/iostrata.install \
	debian/rules \
	debian/source/format \
	packaging/rpm/iostrata.spec \
	packaging/spack/package.py \
	# End of EXTRA_DIST (packaging)
dist_noinst_SCRIPTS += tests/packaging/run
TESTS += tests/unit/test_packaging.sh
dist_noinst_SCRIPTS += tests/unit/test_packaging.sh
