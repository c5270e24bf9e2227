#!/usr/bin/python3
"""Writes valid_small.json (a tiny valid attnviz-model file) and one broken
variant per class of mistake. tests/io/test_model_file.cpp lists the message
each must give; the fuzz target starts from all of them. Rerun only to change
the corpus: python3 tests/data/malformed_models/make_corpus.py"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def grid(rows, cols, start):
    return [[round(((start + r * cols + c) * 37 % 101) / 101 - 0.5, 4) for c in range(cols)] for r in range(rows)]


# copy task, 3 symbols, length 2: model vocab 4, sequence length 4.
VALID = {
    "format": "attnviz-model", "version": 1,
    "task": {"name": "copy", "vocab": 3, "length": 2, "random_offset": False},
    "model": {"vocab": 4, "seq_len": 4, "d_model": 4, "n_heads": 2, "n_layers": 1, "positions": "learned",
              "mlp": False, "d_mlp": 0},
    "training": {"batch": 8, "learning_rate": 0.003, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "seed": 7,
                 "held_out": 32, "steps": 5},
    "weights": {"embed": grid(4, 4, 1), "positions": grid(4, 4, 2),
                "layers": [{"heads": [{"w_q": grid(4, 2, 3), "w_k": grid(4, 2, 4), "w_v": grid(4, 2, 5)},
                                      {"w_q": grid(4, 2, 6), "w_k": grid(4, 2, 7), "w_v": grid(4, 2, 8)}],
                            "w_o": grid(4, 4, 9)}],
                "unembed": grid(4, 4, 10)},
}


def variant(name, change):
    doc = copy.deepcopy(VALID)
    change(doc)
    write(name, json.dumps(doc, indent=1))


def write(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text + "\n")


def main():
    text = json.dumps(VALID, indent=1)
    write("valid_small.json", text)
    write("truncated.json", text[: len(text) // 2])
    variant("wrong_format.json", lambda d: d.update(format="attnviz-scenario"))
    variant("bad_version.json", lambda d: d.update(version=2))
    variant("missing_weights.json", lambda d: d.pop("weights"))
    variant("wrong_shape.json", lambda d: d["weights"]["layers"][0].update(w_o=grid(3, 4, 1)))
    variant("nan_string.json", lambda d: d["weights"]["embed"][1].__setitem__(2, "NaN"))
    write("nan_literal.json", text.replace(str(VALID["weights"]["unembed"][0][0]), "NaN", 1))
    variant("huge_dims.json", lambda d: d["model"].update(d_model=4096, n_heads=64))
    variant("bad_task.json", lambda d: d["task"].update(name="addition"))
    variant("heads_not_dividing.json", lambda d: d["model"].update(n_heads=3))
    variant("wrong_vocab.json", lambda d: d["model"].update(vocab=5))
    variant("missing_mlp_weights.json", lambda d: d["model"].update(mlp=True))
    variant("mlp_weights_without_mlp.json", lambda d: d["weights"]["layers"][0].update(mlp_in=grid(4, 16, 1)))
    variant("ragged_row.json", lambda d: d["weights"]["unembed"][1].pop())
    variant("missing_layer.json", lambda d: d["weights"].update(layers=[]))
    variant("negative_seed.json", lambda d: d["training"].update(seed=-3))
    variant("unknown_positions.json", lambda d: d["model"].update(positions="rotary"))
    # Valid JSON and shapes, but the forward pass overflows: Q = X · W_Q.
    variant("overflowing_embed.json", lambda d: d["weights"].update(embed=[[1e308] * 4 for _ in range(4)]))
    # Finite through the attention (W_O = 0 adds nothing to a positive
    # stream), but the logits overflow: four terms of at least 0.5 · 1e308.
    def huge_logits(d):
        d["weights"].update(embed=[[1] * 4 for _ in range(4)], unembed=[[1e308] * 4 for _ in range(4)])
        d["weights"]["layers"][0].update(w_o=[[0] * 4 for _ in range(4)])
    variant("overflowing_unembed.json", huge_logits)


if __name__ == "__main__":
    main()
