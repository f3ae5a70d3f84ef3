## h5schema/: build fragment (owned by the h5schema area; see Makefile.am).
