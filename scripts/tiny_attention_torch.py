"""The tiny attention model and its toy tasks, written in PyTorch from the
task rules and the architecture alone (no attnviz code), for the training
fixtures (scripts/make_train_fixtures.py) and the PyTorch column of the
training benchmark (bench/train_torch.py).

Model: X = embed[tokens] + positions; per layer, per head softmax(causal(
X W_q (X W_k)^T / sqrt(d_k))) X W_v, heads concatenated, X += concat W_o;
optional MLP X += relu(X W1 + b1) W2 + b2; logits = X unembed. Loss: mean
cross-entropy over every scored position of the batch.
"""
import math

import torch


# --- tasks: the sequences attnviz's tasks produce (marker id = vocab) -----

def seq_copy_like(kind, vocab, length, rng):
    s = [rng.randrange(vocab) for _ in range(length)]
    tail = {"copy": s, "reverse": s[::-1], "sort": sorted(s)}[kind]
    full = s + [vocab] + tail
    tokens = full[: 2 * length]
    target = full[1: 2 * length + 1]
    scored = [t >= length for t in range(2 * length)]
    return tokens, target, scored


def seq_previous_token(vocab, length, rng):
    s = [rng.randrange(vocab) for _ in range(length)]
    target = [s[0]] + s[:-1]  # position 0 has no previous token and is not scored
    return s, target, [t >= 1 for t in range(length)]


def seq_induction(vocab, length, rng):
    s = rng.sample(range(vocab), length)
    tokens = s + s
    target = tokens[1:] + [vocab]
    scored = [length <= t <= 2 * length - 2 for t in range(2 * length)]
    return tokens, target, scored


def seq_key_value(vocab, length, rng):
    keys = rng.sample(range(vocab // 2), length)
    values = [rng.randrange(vocab // 2, vocab) for _ in range(length)]
    tokens = []
    for k, v in zip(keys, values):
        tokens += [k, v]
    q = rng.randrange(length)
    tokens.append(keys[q])
    target = tokens[1:] + [values[q]]
    scored = [t == 2 * length for t in range(2 * length + 1)]
    return tokens, target, scored


def make_batch(task, vocab, length, count, rng):
    rows = []
    for _ in range(count):
        if task in ("copy", "reverse", "sort"):
            rows.append(seq_copy_like(task, vocab, length, rng))
        elif task == "previous-token":
            rows.append(seq_previous_token(vocab, length, rng))
        elif task == "induction":
            rows.append(seq_induction(vocab, length, rng))
        else:
            rows.append(seq_key_value(vocab, length, rng))
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def seq_len(task, length):
    if task == "previous-token":
        return length
    if task == "key-value":
        return 2 * length + 1
    return 2 * length


# --- the model ----------------------------------------------------------

def sinusoidal(n, d):
    pe = torch.zeros(n, d, dtype=torch.float64)
    for p in range(n):
        for i in range(0, d, 2):
            angle = p / (10000.0 ** (i / d))
            pe[p, i] = math.sin(angle)
            if i + 1 < d:
                pe[p, i + 1] = math.cos(angle)
    return pe


def logits_of(cfg, w, tok):
    """tok: (batch, n) long tensor; w: weights laid out like the model file's."""
    n = tok.shape[1]
    x = w["embed"][tok] + w["positions"][:n]
    causal = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    for layer in w["layers"]:
        outs = []
        for head in layer["heads"]:
            q, k, v = x @ head["w_q"], x @ head["w_k"], x @ head["w_v"]
            s = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
            s = s.masked_fill(causal, float("-inf"))
            outs.append(torch.softmax(s, dim=-1) @ v)
        x = x + torch.cat(outs, dim=-1) @ layer["w_o"]
        if cfg["mlp"]:
            hidden = torch.relu(x @ layer["mlp_in"] + layer["mlp_in_bias"])
            x = x + hidden @ layer["mlp_out"] + layer["mlp_out_bias"]
    return x @ w["unembed"]


def loss_of(cfg, w, tok, target, scored):
    """Mean over every scored position of the batch, not per sequence."""
    logits = logits_of(cfg, w, tok)
    return torch.nn.functional.cross_entropy(logits[scored], target[scored])
