#!/usr/bin/python3
"""`attn model attention` read back by NumPy (Debian's python3-numpy), as a
user would: the npz through np.load, the safetensors file through its
documented layout (8-byte length, JSON header, raw little-endian data), and
the JSON through json.  Each must hold the same numbers: float64 exactly
equal across the three formats, float32 equal to the float64 values rounded
to float32, and the weights equal to the PyTorch float64 reference the
fixtures carry (tests/data/hf/*/reference.json) within 1e-9.  Prints the
worst element on failure.  Usage: numpy_readback.py ATTN DATA_DIR SCRATCH"""

import json
import os
import struct
import subprocess
import sys

import numpy as np

ATTN, DATA, SCRATCH = sys.argv[1:4]
os.makedirs(SCRATCH, exist_ok=True)
failures = []


def run(*args):
    r = subprocess.run([ATTN, "model", "attention", *args], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("attn %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r


def read_safetensors(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__")
    types = {"F32": "<f4", "F64": "<f8", "I64": "<i8"}
    out = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        out[name] = np.frombuffer(raw[8 + n + b:8 + n + e], dtype=types[info["dtype"]]).reshape(info["shape"])
    return out, meta


def same(what, a, b, tol=0.0):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        failures.append("%s: shapes %s and %s" % (what, a.shape, b.shape))
        return
    if a.size == 0:
        return
    d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    worst = np.unravel_index(np.argmax(d), d.shape)
    if d[worst] > tol:
        failures.append("%s: worst element %s differs by %g (%r against %r; tolerance %g)"
                        % (what, worst, d[worst], a[worst], b[worst], tol))


for model in ("gpt2", "llama_gqa_bf16", "bert"):
    ref = json.load(open(os.path.join(DATA, model, "reference.json")))
    ids = ",".join(str(i) for i in ref["ids"])
    folder = os.path.join(DATA, model)
    extra = ["--residuals", "--head-outputs"] + (["--logits"] if "logits_last" in ref else [])
    base = os.path.join(SCRATCH, model)
    run(folder, "--ids", ids, "-o", base + ".npz", *extra)
    run(folder, "--ids", ids, "-o", base + ".safetensors", *extra)
    run(folder, "--ids", ids, "-o", base + ".json", *extra)
    run(folder, "--ids", ids, "-o", base + "_f32.npz", "--dtype", "f32", "--layers", "1", "--heads", "0,2-3", *extra)
    if failures:
        break
    npz = np.load(base + ".npz")
    st, meta = read_safetensors(base + ".safetensors")
    js = json.load(open(base + ".json"))
    small = np.load(base + "_f32.npz")
    for name in ("ids", "attentions", "residuals", "head_outputs", "final") + (("logits",) if "--logits" in extra else ()):
        same("%s %s: npz against safetensors" % (model, name), npz[name], st[name])
        same("%s %s: npz against json" % (model, name), npz[name], np.array(js[name]))
        if name == "ids":
            continue
        # The f32 file: layer 1, heads 0, 2 and 3 (where the array has heads).
        want = npz[name]
        if name in ("attentions", "head_outputs"):
            want = want[1:2][:, [0, 2, 3]]
        elif name == "residuals":
            want = want[1:2]
        same("%s %s: f32 file against float64 rounded" % (model, name), small[name], want.astype(np.float32))
        if small[name].dtype != np.float32:
            failures.append("%s %s: f32 file holds %s" % (model, name, small[name].dtype))
    if list(npz["tokens"]) != js["tokens"] or json.loads(meta["tokens"]) != js["tokens"]:
        failures.append("%s: tokens differ between formats" % model)
    same("%s ids against the reference" % model, npz["ids"], ref["ids"])
    for l, layer in enumerate(ref["layers"]):
        same("%s layer %d attentions against PyTorch" % (model, l), npz["attentions"][l], layer["attentions"], 1e-9)
        same("%s layer %d head outputs against PyTorch" % (model, l), npz["head_outputs"][l], layer["head_outputs"], 1e-9)
        same("%s layer %d input against PyTorch" % (model, l), npz["residuals"][l],
             ref["embeddings"] if l == 0 else ref["layers"][l - 1]["output"], 1e-9)
    same("%s final against PyTorch" % model, npz["final"], ref["final"], 1e-9)
    if "logits_last" in ref:
        same("%s last logits against PyTorch" % model, npz["logits"][-1], ref["logits_last"], 1e-9)

for f in failures:
    print("FAIL:", f)
print("%d passed, %d failed" % (0 if failures else 1, len(failures)))
sys.exit(1 if failures else 0)
