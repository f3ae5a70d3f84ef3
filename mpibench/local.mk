## mpibench/: build fragment (owned by the mpibench area; see Makefile.am).
