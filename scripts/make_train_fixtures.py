#!/usr/bin/python3
"""Writes the training fixtures for tests/io/test_train_gradients.cpp.

Each fixture holds a small model in the "attnviz-model" file format, one
batch (tokens, targets, scored positions), and what PyTorch autograd
computes for it in float64: the mean cross-entropy over the scored
positions and the gradient of every weight, laid out like the model file's
"weights" object. The model and the tasks (tiny_attention_torch.py) are
written from the task rules and the architecture, without attnviz code, so
the C++ test compares two independent implementations. The JSON files are committed, so
the tests never need Python; rerun this only to regenerate them:

    /usr/bin/python3 scripts/make_train_fixtures.py
"""
import json
import os
import random

import torch

from tiny_attention_torch import loss_of, make_batch, seq_len, sinusoidal

torch.set_num_threads(2)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fixtures", "train")


def init_weights(cfg, gen):
    d, h, vocab = cfg["d_model"], cfg["n_heads"], cfg["vocab"]
    d_k = d // h
    d_mlp = cfg["d_mlp"] or 4 * d

    def normal(*shape, std=1.0):
        t = torch.randn(*shape, dtype=torch.float64, generator=gen) * std
        return t.requires_grad_()

    w = {"embed": normal(vocab, d)}
    if cfg["positions"] == "learned":
        w["positions"] = normal(cfg["seq_len"], d)
    else:
        w["positions"] = sinusoidal(cfg["seq_len"], d)  # fixed, no gradient
    w["layers"] = []
    for _ in range(cfg["n_layers"]):
        # Larger than a fresh model's scale, so attention is far from uniform
        # and every term of the gradient matters.
        layer = {"heads": [{k: normal(d, d_k, std=0.6) for k in ("w_q", "w_k", "w_v")} for _ in range(h)],
                 "w_o": normal(h * d_k, d, std=0.3)}
        if cfg["mlp"]:
            layer["mlp_in"] = normal(d, d_mlp, std=0.3)
            layer["mlp_in_bias"] = normal(d_mlp, std=0.3)
            layer["mlp_out"] = normal(d_mlp, d, std=0.15)
            layer["mlp_out_bias"] = normal(d, std=0.3)
        w["layers"].append(layer)
    w["unembed"] = normal(d, vocab, std=0.25)
    return w


def forward_loss(cfg, w, tokens, target, scored):
    return loss_of(cfg, w, torch.tensor(tokens), torch.tensor(target), torch.tensor(scored))


# --- JSON ---------------------------------------------------------------

def as_json(t):
    return t.detach().tolist()


def weights_json(w, pick):
    out = {"embed": as_json(pick(w["embed"])), "positions": as_json(pick(w["positions"])), "layers": [],
           "unembed": as_json(pick(w["unembed"]))}
    for layer in w["layers"]:
        lj = {"heads": [{k: as_json(pick(v)) for k, v in head.items()} for head in layer["heads"]]}
        for k, v in layer.items():
            if k != "heads":
                lj[k] = as_json(pick(v))
        out["layers"].append(lj)
    return out


def write_fixture(name, task, vocab, length, d_model, n_heads, n_layers, positions, mlp, d_mlp, batch, seed):
    cfg = {"vocab": vocab + 1, "seq_len": seq_len(task, length), "d_model": d_model, "n_heads": n_heads,
           "n_layers": n_layers, "positions": positions, "mlp": mlp, "d_mlp": d_mlp}
    gen = torch.Generator().manual_seed(seed)
    w = init_weights(cfg, gen)
    tokens, target, scored = make_batch(task, vocab, length, batch, random.Random(seed))
    loss = forward_loss(cfg, w, tokens, target, scored)
    loss.backward()

    def grad_of(t):
        return t.grad if t.requires_grad else torch.zeros_like(t)

    model = {"format": "attnviz-model", "version": 1,
             "task": {"name": task, "vocab": vocab, "length": length, "random_offset": False},
             "model": cfg,
             "training": {"batch": batch, "learning_rate": 0.003, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
                          "seed": seed, "held_out": 16, "steps": 0},
             "weights": weights_json(w, lambda t: t)}
    fixture = {"about": "PyTorch float64 autograd: loss and gradients of this model on this batch "
                        "(scripts/make_train_fixtures.py)",
               "torch": torch.__version__,
               "model": model,
               "batch": {"tokens": tokens, "target": target, "scored": [[int(b) for b in row] for row in scored]},
               "loss": loss.item(),
               "gradient": weights_json(w, grad_of)}
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump(fixture, f)
        f.write("\n")
    print(f"{path}: loss {loss.item():.6f}, {os.path.getsize(path)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    write_fixture("one_layer_learned", "copy", 5, 3, 8, 2, 1, "learned", False, 0, batch=3, seed=11)
    write_fixture("one_layer_sinusoidal", "previous-token", 7, 5, 8, 4, 1, "sinusoidal", False, 0, batch=3, seed=12)
    write_fixture("two_layer_sinusoidal_mlp", "induction", 6, 3, 8, 2, 2, "sinusoidal", True, 16, batch=3, seed=13)
    write_fixture("two_layer_learned_mlp", "key-value", 8, 2, 8, 2, 2, "learned", True, 0, batch=4, seed=14)


if __name__ == "__main__":
    main()
