## tests/: build fragment (owned by the tests area; see Makefile.am).
