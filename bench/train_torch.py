#!/usr/bin/env python3
"""The PyTorch column of the training benchmark (bench/train_bench.cpp).

Reads an attnviz model file (the SAME initial weights attnviz starts from),
trains it in float32 with torch.optim.Adam (same learning rate, betas and
epsilon, bias-corrected like attnviz's Adam) on fresh batches of the file's
task, evaluates held-out accuracy every EVAL_EVERY steps and stops at
TARGET or at CAP steps. The data comes from Python's own generator (same
task rules, different random draws). Prints one JSON line.

Usage: train_torch.py MODEL.json TARGET CAP EVAL_EVERY
"""
import json
import os
import random
import sys
import time


def main():
    path, target, cap, every = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    try:
        import torch
    except ImportError:
        print(json.dumps({"error": "python3-torch is not installed"}))
        return
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    from tiny_attention_torch import loss_of, logits_of, make_batch

    torch.set_num_threads(2)
    with open(path) as f:
        doc = json.load(f)
    task, cfg, tr = doc["task"], doc["model"], doc["training"]
    if task.get("random_offset"):
        print(json.dumps({"error": "random_offset is not mirrored in the PyTorch peer"}))
        return

    def param(rows, trainable=True):
        return torch.tensor(rows, dtype=torch.float32, requires_grad=trainable)

    wj = doc["weights"]
    w = {"embed": param(wj["embed"]), "positions": param(wj["positions"], cfg["positions"] == "learned"),
         "unembed": param(wj["unembed"]), "layers": []}
    for layer in wj["layers"]:
        lw = {"heads": [{k: param(v) for k, v in head.items()} for head in layer["heads"]]}
        lw.update({k: param(v) for k, v in layer.items() if k != "heads"})
        w["layers"].append(lw)
    params = [t for t in [w["embed"], w["positions"], w["unembed"]] if t.requires_grad]
    for lw in w["layers"]:
        params += [t for head in lw["heads"] for t in head.values()]
        params += [t for k, t in lw.items() if k != "heads"]
    opt = torch.optim.Adam(params, lr=tr["learning_rate"], betas=(tr["beta1"], tr["beta2"]), eps=tr["epsilon"])

    def tensors(rows):
        tok, tgt, sc = rows
        return torch.tensor(tok), torch.tensor(tgt), torch.tensor(sc)

    name, vocab, length = task["name"], task["vocab"], task["length"]
    train_rng, held_rng = random.Random(tr["seed"]), random.Random(tr["seed"] ^ 0x5EED)
    held = tensors(make_batch(name, vocab, length, tr["held_out"], held_rng))

    def accuracy():
        with torch.no_grad():
            pred = logits_of(cfg, w, held[0]).argmax(dim=-1)
            return (pred[held[2]] == held[1][held[2]]).float().mean().item()

    start = time.perf_counter()
    steps, acc = 0, accuracy()
    while acc < target and steps < cap:
        tok, tgt, sc = tensors(make_batch(name, vocab, length, tr["batch"], train_rng))
        opt.zero_grad()
        loss_of(cfg, w, tok, tgt, sc).backward()
        opt.step()
        steps += 1
        if steps % every == 0:
            acc = accuracy()
    seconds = time.perf_counter() - start
    print(json.dumps({"steps": steps, "seconds": seconds, "accuracy": acc, "reached": acc >= target,
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
