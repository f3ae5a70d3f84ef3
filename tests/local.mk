## tests/: build fragment (owned by the tests area; see Makefile.am).

# The design's arrows between folders, checked over the sources.
TESTS += tests/unit/arrows.sh
dist_noinst_SCRIPTS += tests/unit/arrows.sh

# Comments and READMEs name only files that exist.
TESTS += tests/unit/refs.sh
dist_noinst_SCRIPTS += tests/unit/refs.sh
