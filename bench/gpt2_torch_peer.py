#!/usr/bin/env python3
"""The PyTorch peer for `model_bench`: GPT-2's forward pass in float32 on a
checkpoint folder the benchmark wrote, keeping every layer's attention
weights, written with plain torch operations as transformers' modeling_gpt2.py
defines it (Debian has no transformers package). Kept running so the
benchmark alternates blocks of its own runs with blocks of these
(python_session.hpp).

Usage: gpt2_torch_peer.py DIR N THREADS
Prints {"ready": true, "torch": ...} (or {"error": ...}), then answers
  run K  -> {"ms": [K times in milliseconds]}
  peak   -> {"peak_mb": peak resident memory}
"""
import json
import math
import struct
import sys
import time

from peer_protocol import say, serve


def read_safetensors(path, torch, numpy):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        array = numpy.frombuffer(data, dtype=numpy.float32, count=(end - begin) // 4, offset=base + begin)
        out[name] = torch.from_numpy(array.copy()).reshape(entry["shape"])
    return out


def main():
    folder, n, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import numpy
        import torch
    except ImportError:
        say({"error": "python3-torch is not installed"})
        return
    torch.set_num_threads(threads)
    with open(folder + "/config.json") as f:
        config = json.load(f)
    w = read_safetensors(folder + "/model.safetensors", torch, numpy)
    d, heads, layers = config["n_embd"], config["n_head"], config["n_layer"]
    hd = d // heads
    eps = config["layer_norm_epsilon"]
    ids = torch.arange(n) % config["vocab_size"]
    causal = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)

    def ln(x, p):
        return torch.nn.functional.layer_norm(x, (d,), w[p + ".weight"], w[p + ".bias"], eps)

    def forward():
        h = w["wte.weight"][ids] + w["wpe.weight"][:n]
        attentions = []
        for l in range(layers):
            p = "h.%d." % l
            a = ln(h, p + "ln_1")
            qkv = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"])
            q, k, v = (t.reshape(n, heads, hd).transpose(0, 1) for t in qkv.split(d, dim=1))
            s = torch.matmul(q, k.transpose(1, 2)) / math.sqrt(hd)
            s = s.masked_fill(causal, float("-inf"))
            p_attn = torch.softmax(s, dim=-1)
            attentions.append(p_attn)
            o = torch.matmul(p_attn, v).transpose(0, 1).reshape(n, d)
            h = h + torch.addmm(w[p + "attn.c_proj.bias"], o, w[p + "attn.c_proj.weight"])
            m = torch.addmm(w[p + "mlp.c_fc.bias"], ln(h, p + "ln_2"), w[p + "mlp.c_fc.weight"])
            m = torch.nn.functional.gelu(m, approximate="tanh")
            h = h + torch.addmm(w[p + "mlp.c_proj.bias"], m, w[p + "mlp.c_proj.weight"])
        return ln(h, "ln_f"), attentions

    def run(k):
        times = []
        with torch.no_grad():
            for _ in range(k):
                start = time.perf_counter()
                forward()
                times.append((time.perf_counter() - start) * 1000)
        return times

    run(1)
    serve(run, torch)

if __name__ == "__main__":
    main()
