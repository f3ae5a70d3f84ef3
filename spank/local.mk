## spank/: build fragment (owned by the spank area; see Makefile.am).
