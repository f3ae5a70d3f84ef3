## jobscripts/: build fragment (owned by the jobscripts area; see Makefile.am).
