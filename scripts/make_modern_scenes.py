#!/usr/bin/python3
"""Writes the built-in scenes for modern attention into assets/scenarios/.

Each word of a sentence has one embedding (so a repeated word has the same
row of X, and only its position tells the copies apart), and the weights are
seeded random numbers rounded to two decimals so the files stay readable.
Rerun only to regenerate them:

    python3 scripts/make_modern_scenes.py
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "assets", "scenarios")


def matrix(rng, rows, cols):
    return [[round(rng.uniform(-1, 1), 2) for _ in range(cols)] for _ in range(rows)]


def embeddings(rng, words, d_model):
    table = {}
    for w in words:
        if w not in table:
            table[w] = [round(rng.uniform(-1, 1), 2) for _ in range(d_model)]
    return [table[w] for w in words]


def heads(rng, d_model, n_heads, n_kv_heads, d_k, d_v):
    group = n_heads // n_kv_heads
    out = []
    for h in range(n_heads):
        head = {"w_q": matrix(rng, d_model, d_k)}
        if h % group == 0:  # the first head of each group carries its keys and values
            head["w_k"] = matrix(rng, d_model, d_k)
            head["w_v"] = matrix(rng, d_model, d_v)
        out.append(head)
    return out


def scene(name, title, description, sentence, d_model, n_heads, n_kv_heads, d_k, d_v, seed, mask="causal",
          rope=None, w_o=True):
    rng = random.Random(seed)
    words = sentence.split()
    doc = {
        "format": "attnviz-scenario",
        "version": 2,
        "title": title,
        "description": description,
        "tokens": words,
        "x": embeddings(rng, words, d_model),
        "heads": heads(rng, d_model, n_heads, n_kv_heads, d_k, d_v),
    }
    if w_o:
        doc["w_o"] = matrix(rng, n_heads * d_v, d_model)
    doc["scale"] = "sqrt_dk"
    doc["mask"] = mask
    if rope is not None:
        doc["rope"] = rope
    if n_kv_heads != n_heads:
        doc["n_kv_heads"] = n_kv_heads
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        f.write(dump(doc))
    print("wrote", os.path.relpath(path))


def dump(value, indent=0):
    """JSON with one matrix row per line."""
    pad = " " * indent
    if isinstance(value, dict):
        items = ['%s  %s: %s' % (pad, json.dumps(k, ensure_ascii=False), dump(v, indent + 2)) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}" + ("\n" if indent == 0 else "")
    if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
        rows = [pad + "  " + dump(r, indent + 2) for r in value]
        return "[\n" + ",\n".join(rows) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


ROPE = {"base": 10000, "fraction": 1.0, "pairing": "half", "offset": 0}


def main():
    scene("rope", "RoPE: positions turn the queries and keys",
          "Rotary position embeddings, as Llama, Mistral and Qwen use them. Nothing is added to X: after the "
          "projections every query and key is cut into pairs of dimensions, and each pair is turned by an angle "
          "of its position times θ_i = 10000^(−2i/d). The word \"the\" appears twice with the same embedding, so "
          "its two rows of Q are equal, but its two rows of Q rotated are not. A query and a key turned by m and "
          "n give a score that depends only on m − n.",
          "the cat saw the dog and the bird", 8, 2, 2, 4, 4, seed=25, rope=dict(ROPE))
    scene("rope_interleaved_partial", "RoPE, GPT-J style: interleaved pairs, half the head turned",
          "The same rotation with the other two conventions real checkpoints use: dimensions 2i and 2i+1 form a "
          "pair (GPT-J and the original paper, instead of i and i + d/2), and only the first half of each head's "
          "dimensions turn (partial rotary, as GPT-NeoX and Phi do); the rest pass through unchanged. The base "
          "is 500000 as in Llama 3, so the slow pairs barely move over eight tokens.",
          "a stitch in time saves nine stitches later", 8, 2, 2, 8, 4, seed=26,
          rope={"base": 500000, "fraction": 0.5, "pairing": "interleaved", "offset": 0})
    scene("grouped_query", "Grouped-query attention: 4 query heads share 2 key/value heads",
          "As in Llama 2 70B, Llama 3 and Mistral: the query heads are split into groups, and each group reads "
          "one shared K and V. Heads 0 and 1 read the keys and values head 0 computes; heads 2 and 3 those of "
          "head 2. The KV cache keeps 2 heads instead of 4, half the memory, while every head still asks its own "
          "question.",
          "grouped heads share their keys and values", 8, 4, 2, 2, 2, seed=27, rope=dict(ROPE))
    scene("multi_query", "Multi-query attention: every head reads one K and one V",
          "The extreme of sharing (PaLM, Falcon): one key/value head for all four query heads. The cache "
          "shrinks fourfold; the heads differ only in their queries.",
          "one key and value for every head", 8, 4, 1, 2, 2, seed=28, rope=dict(ROPE))
    scene("sliding_window", "A sliding window of 4, with an attention sink",
          "Mistral's mask: each token sees itself and the 3 before it, never further. StreamingLLM adds sinks: "
          "the first token stays visible to every query, because models learn to park spare attention there. "
          "Through L layers information still travels L × 3 tokens back, which the receptive-field panel counts.",
          "tokens far back fall out of the window as the text goes on and on", 8, 2, 2, 4, 4, seed=29,
          mask={"kind": "sliding_window", "window": 4, "sinks": 1}, rope=dict(ROPE))
    scene("strided_sparse", "The strided sparse pattern (Sparse Transformer)",
          "Each query sees the last 3 keys, and every third key before them. Two layers of this reach every "
          "earlier position, with about 2√n keys a query instead of n.",
          "one two three four five six seven eight nine ten eleven twelve", 8, 2, 2, 4, 4, seed=30,
          mask={"kind": "strided", "stride": 3})
    scene("kv_cache", "The KV cache: one token at a time",
          "Generation writes one token per step. Its query is new, but the keys and values of every earlier "
          "token are the same as they were a step ago, so they are kept (the KV cache) and only the new row of "
          "K and V is computed and appended. Rotated keys are cached already rotated.",
          "the cache grows by one row per token", 8, 4, 2, 2, 2, seed=31, rope=dict(ROPE))
    scene("flash_tiles", "FlashAttention: the same head, tile by tile",
          "One head computed in tiles that fit in fast on-chip memory: a block of queries meets a block of keys, "
          "the running maximum and sum of each row are updated, and the partial output is rescaled as larger "
          "scores arrive. Nothing of size n × n is ever stored, and the result is the same as the plain softmax.",
          "tiles of queries meet tiles of keys in fast memory", 8, 1, 1, 4, 4, seed=32, rope=dict(ROPE))


if __name__ == "__main__":
    main()
