#!/usr/bin/env python3
"""Writes assets/scenarios/why_scale.json, the "why scale by 1/sqrt(d_k)" scene.

Three queries and six keys of width d_k = 64 whose entries are drawn from a
standard normal (Python's random.gauss with a fixed seed), rounded to two
decimals. Unscaled, their dot products have a variance near 64 (a spread of
about 8), so each softmax row is nearly one-hot; divided by sqrt(64) = 8 they
are spread like N(0, 1) and the weights stay soft. The script prints the
largest weight of each row both ways. Rerunning it reproduces the file:

    python3 scripts/make_why_scale_scenario.py [output.json]
"""
import json
import math
import os
import random
import sys

D_K, N_QUERIES, N_KEYS, SEED = 64, 3, 6, 5


def matrix(rng, rows, cols):
    return [[round(rng.gauss(0.0, 1.0), 2) + 0.0 for _ in range(cols)] for _ in range(rows)]


def max_weights(queries, keys, divisor):
    out = []
    for q in queries:
        scores = [sum(a * b for a, b in zip(q, k)) / divisor for k in keys]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        out.append(max(exps) / sum(exps))
    return out


def fmt_matrix(m):
    return "[\n" + ",\n".join("    [" + ", ".join("%g" % v for v in row) + "]" for row in m) + "\n  ]"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "assets", "scenarios", "why_scale.json")
    rng = random.Random(SEED)
    queries = matrix(rng, N_QUERIES, D_K)
    keys = matrix(rng, N_KEYS, D_K)
    description = (
        "Three queries and six keys, each with 64 numbers drawn at random with mean 0 and variance 1 "
        "(made by scripts/make_why_scale_scenario.py). A dot product of two such vectors adds 64 products, "
        "so its variance is about 64 and the scores spread over tens of units. Without scaling, softmax "
        "turns that spread into nearly one-hot rows: one key takes almost all the weight. Set scale to "
        "sqrt_dk to divide the scores by 8 and watch the weights soften. View > Why scale shows the "
        "same effect on thousands of random pairs as d_k grows.")
    text = '{\n  "format": "attnviz-scenario",\n  "version": 1,\n'
    text += '  "title": ' + json.dumps("Why scale: d_k = 64 without 1/\u221ad_k", ensure_ascii=False) + ",\n"
    text += '  "description": ' + json.dumps(description) + ",\n"
    text += '  "tokens": ' + json.dumps(["q%d" % (i + 1) for i in range(N_QUERIES)])
    text += ',\n  "x": ' + fmt_matrix(queries)
    text += ',\n  "context_tokens": ' + json.dumps(["k%d" % (i + 1) for i in range(N_KEYS)])
    text += ',\n  "context": ' + fmt_matrix(keys)
    text += ',\n  "scale": "none"\n}\n'
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print("largest weight per row, unscaled:", ["%.4f" % w for w in max_weights(queries, keys, 1.0)])
    print("largest weight per row, / sqrt(d_k):", ["%.4f" % w for w in max_weights(queries, keys, math.sqrt(D_K))])


if __name__ == "__main__":
    main()
