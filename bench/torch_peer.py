#!/usr/bin/env python3
"""The PyTorch peer for `make bench`: times nn.MultiheadAttention on one
shape (float64, 2 threads, per-head weights returned) and prints one JSON
line. One shape per process, so ru_maxrss is that shape's peak memory.

Usage: torch_peer.py N D_MODEL HEADS CAUSAL(0|1) REPEATS
"""
import json
import resource
import sys
import time

def main():
    n, d_model, heads, causal, repeats = (int(a) for a in sys.argv[1:6])
    try:
        import torch
    except ImportError:
        print(json.dumps({"error": "python3-torch is not installed"}))
        return
    torch.set_num_threads(2)
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(d_model, heads, bias=False, batch_first=True, dtype=torch.float64)
    x = torch.randn(1, n, d_model, dtype=torch.float64)
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if causal else None
    times = []
    with torch.no_grad():
        for i in range(repeats + 1):
            start = time.perf_counter()
            out, weights = mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
            elapsed = time.perf_counter() - start
            if i > 0:  # the first run warms caches and allocators
                times.append(elapsed * 1000)
    times.sort()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"ms": times[len(times) // 2], "min": times[0], "max": times[-1], "peak_mb": peak_mb,
                      "torch": torch.__version__, "blas": blas_in_use()}))

def blas_in_use():
    """The BLAS library torch's GEMMs ran on, as loaded in this process.
    Debian's torch uses whichever libblas.so.3 the alternatives system picks:
    the reference BLAS is about ten times slower than OpenBLAS."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "blas" in line.lower() and "/" in line}
    for path in sorted(paths):
        if "libblas.so" in path or "openblas" in path or "mkl" in path or "blis" in path:
            return path
    return "unknown"

if __name__ == "__main__":
    main()
