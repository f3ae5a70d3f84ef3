# SPDX-License-Identifier: GPL-2.0-or-later
#
# Spack package of iostrata: `spack repo add` a repository holding this file
# as packages/iostrata/package.py, then `spack install iostrata+slurm+rados`.
# Each variant maps onto configure's three-state --with-NAME options
# (configure.ac), given as yes or no, so a missing dependency is an error
# instead of a part silently left out.

from spack.package import *

# variant: (default, configure --with-NAME options, what it builds)
IOSTRATA_VARIANTS = {
    "mpi": (True, ["mpi"], "iostrata-bench (needs +hdf5 too)"),
    "hdf5": (True, ["hdf5"], "results files: iostrata-bench, iostrata-report"),
    "rados": (False, ["rados"], "rados backend (headers; librados loaded at run time)"),
    "cephfs": (False, ["cephfs"], "cephfs backend (headers; libcephfs loaded at run time)"),
    "slurm": (True, ["slurm", "libslurm"],
              "spank_iostrata.so, iostrata-campaign, the node health check"),
    "hwloc": (True, ["hwloc"], "topology metadata"),
    "aio": (True, ["libaio", "liburing"], "the libaio and io_uring engines"),
}


class Iostrata(AutotoolsPackage):
    """Slurm-integrated storage benchmark suite (CephFS first): an MPI
    benchmark writing HDF5 results, a report tool, a campaign tool for Slurm
    sweeps and a SPANK plugin that emulates cheaper storage nodes."""

    homepage = "https://github.com/iostrata/iostrata"
    git = "https://github.com/iostrata/iostrata.git"

    license("GPL-2.0-or-later")

    version("main", branch="main")

    # (loop names deleted after: a class attribute "name" would shadow the
    # package's name)
    for _var, (_default, _opts, _what) in IOSTRATA_VARIANTS.items():
        variant(_var, default=_default,
                description=_what + ": " + ", ".join("--with-" + o for o in _opts))
    del _var, _default, _opts, _what

    conflicts("+mpi~hdf5", msg="iostrata-bench writes HDF5 results files")

    for _tool in ("autoconf", "automake", "libtool", "pkgconfig"):
        depends_on(_tool, type="build")
    del _tool
    depends_on("c", type="build")
    depends_on("jansson@2.10:")
    depends_on("libinih")
    depends_on("mpi", when="+mpi")
    depends_on("hdf5~mpi", when="+hdf5")
    depends_on("ceph", when="+rados")
    depends_on("ceph", when="+cephfs")
    # The plugin embeds the Slurm release it is built against
    # (SPANK_PLUGIN): build it against the site's own Slurm (an external).
    depends_on("slurm", when="+slurm")
    depends_on("hwloc@2:", when="+hwloc")
    depends_on("libaio", when="+aio")
    depends_on("liburing@2:", when="+aio")

    def autoreconf(self, spec, prefix):
        autoreconf("-fi")

    def configure_args(self):
        args = ["--with-inih=yes", "--with-jansson=yes", "--with-cmocka=no"]
        for name, (_, opts, _) in IOSTRATA_VARIANTS.items():
            yn = "yes" if self.spec.satisfies("+" + name) else "no"
            args += ["--with-%s=%s" % (o, yn) for o in opts]
        if self.spec.satisfies("+slurm"):
            # $libdir/slurm of this prefix: name it in plugstack.conf
            args.append("--with-slurm-plugindir=" + join_path(self.prefix.lib, "slurm"))
        if self.spec.satisfies("+mpi"):
            # configure asks pkg-config for ompi-c; these work for any MPI
            args.append("MPI_CFLAGS=-I" + self.spec["mpi"].prefix.include)
            args.append("MPI_LIBS=" + self.spec["mpi"].libs.ld_flags)
        return args
