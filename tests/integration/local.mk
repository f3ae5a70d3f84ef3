## tests/integration/: build fragment (owned by the tests/integration area; see Makefile.am).
