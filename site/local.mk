## site/: build fragment (owned by the site area; see Makefile.am).
