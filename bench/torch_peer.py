#!/usr/bin/env python3
"""The PyTorch peer for `make bench`: nn.MultiheadAttention on one shape
(float64, 2 threads, per-head weights returned), kept running so core_bench
can alternate blocks of its own runs with blocks of these (see
python_session.hpp). One shape per process, so ru_maxrss is that shape's
peak memory.

Usage: torch_peer.py N D_MODEL HEADS CAUSAL(0|1)
Prints {"ready": true, "torch": ..., "blas": ...} (or {"error": ...}), then
answers each line on stdin with one JSON line:
  run K   -> {"ms": [K times in milliseconds]}, after 30 ms of untimed runs
  peak    -> {"peak_mb": peak resident memory}
"""
import sys
import time

from peer_protocol import say, serve


def main():
    n, d_model, heads, causal = (int(a) for a in sys.argv[1:5])
    try:
        import torch
    except ImportError:
        say({"error": "python3-torch is not installed"})
        return
    torch.set_num_threads(2)
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(d_model, heads, bias=False, batch_first=True, dtype=torch.float64)
    x = torch.randn(1, n, d_model, dtype=torch.float64)
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if causal else None

    def warm_up():
        """Untimed runs for at least 30 ms, as core_bench does before each of
        its own blocks (the other side's threads may still be spinning)."""
        start = time.perf_counter()
        with torch.no_grad():
            while True:
                mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
                if time.perf_counter() - start >= 0.03:
                    return

    def run(k):
        warm_up()
        times = []
        with torch.no_grad():
            for _ in range(k):
                start = time.perf_counter()
                mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
                times.append((time.perf_counter() - start) * 1000)
        return times

    run(1)  # warms caches and allocators, and loads the BLAS it names
    serve(run, torch)

if __name__ == "__main__":
    main()
