"""What the benchmarks' PyTorch peers share (python_session.hpp): the
line protocol they answer on stdin, and which BLAS library torch's GEMMs run
on (Debian's torch uses whichever libblas.so.3 the alternatives system picks,
and the reference BLAS is about ten times slower than OpenBLAS)."""
import json
import resource
import sys


def say(obj):
    print(json.dumps(obj), flush=True)


def serve(run, torch):
    """Says ready, then answers `run K` with K timings of run() and `peak`
    with the peak resident memory, one JSON line each."""
    say({"ready": True, "torch": torch.__version__, "blas": blas_in_use()})
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["run"]:
            say({"ms": run(int(words[1]))})
        elif words[:1] == ["peak"]:
            say({"peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
        else:
            say({"error": "unknown request " + line.strip()})


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
