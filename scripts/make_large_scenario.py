#!/usr/bin/env python3
"""Writes assets/scenarios/large_1024x8.json, the scale test scene.

1024 tokens, d_model 64, 8 heads with d_k = d_v = 8, W_O 64x64, causal mask.
The numbers come from a fixed seed with Python's own random module (stable
across Python versions), written with 6 significant digits so the file stays
around a megabyte. Rerunning it reproduces the committed file byte for byte:

    python3 scripts/make_large_scenario.py [output.json]
"""
import os
import random
import sys

N_TOKENS, D_MODEL, N_HEADS, D_HEAD = 1024, 64, 8, 8
SEED = 1024_8


def matrix(rng, rows, cols, spread):
    return [[rng.uniform(-spread, spread) for _ in range(cols)] for _ in range(rows)]


def fmt_row(row):
    return "[" + ", ".join("%.6g" % v for v in row) + "]"


def fmt_matrix(m, indent):
    pad = " " * indent
    return "[\n" + ",\n".join(pad + "  " + fmt_row(r) for r in m) + "\n" + pad + "]"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "assets", "scenarios", "large_1024x8.json")
    out_path = sys.argv[1] if len(sys.argv) > 1 else default
    rng = random.Random(SEED)
    # Projections scaled by ~1/sqrt(d_model) keep the scores in a range where
    # softmax is neither flat nor one-hot.
    proj = 1.0 / D_MODEL ** 0.5
    x = matrix(rng, N_TOKENS, D_MODEL, 1.0)
    heads = [(matrix(rng, D_MODEL, D_HEAD, 2 * proj), matrix(rng, D_MODEL, D_HEAD, 2 * proj),
              matrix(rng, D_MODEL, D_HEAD, 2 * proj)) for _ in range(N_HEADS)]
    w_o = matrix(rng, N_HEADS * D_HEAD, D_MODEL, 2 * proj)

    parts = [
        '  "format": "attnviz-scenario"',
        '  "version": 1',
        '  "title": "Large scene: 1024 tokens, 8 heads"',
        '  "description": "A seeded random scene for speed and memory: 1024 tokens of width 64, '
        'eight causal heads of width 8 and a 64x64 W_O. Too big to read cell by cell; use it to '
        'check that the app stays responsive. Made by scripts/make_large_scenario.py."',
        '  "x": ' + fmt_matrix(x, 2),
    ]
    head_texts = []
    for w_q, w_k, w_v in heads:
        head_texts.append('    {\n      "w_q": ' + fmt_matrix(w_q, 6) + ',\n      "w_k": ' +
                          fmt_matrix(w_k, 6) + ',\n      "w_v": ' + fmt_matrix(w_v, 6) + '\n    }')
    parts.append('  "heads": [\n' + ",\n".join(head_texts) + "\n  ]")
    parts.append('  "w_o": ' + fmt_matrix(w_o, 2))
    parts.append('  "scale": "sqrt_dk"')
    parts.append('  "mask": "causal"')
    with open(out_path, "w") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")
    print("wrote", out_path)


if __name__ == "__main__":
    main()
