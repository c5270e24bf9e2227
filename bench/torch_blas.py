"""Which BLAS library torch's GEMMs run on in this process, for the
benchmarks' tables: Debian's torch uses whichever libblas.so.3 the
alternatives system picks, and the reference BLAS is about ten times slower
than OpenBLAS."""


def blas_in_use():
    import torch

    # Wheels from pytorch.org carry MKL inside torch; the maps would name
    # whatever other library (numpy's OpenBLAS) happens to be loaded too.
    if "BLAS_INFO=mkl" in torch.__config__.show():
        return "MKL, built into torch"
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    for path in sorted(paths):
        if "libblas.so" in path or "openblas" in path or "mkl" in path or "blis" in path:
            return path
    return "unknown"
