"""Per-student variants of the later chapters (``dpsens.exercises._variants_b``, issue 31 item 3).

The book's parameters give the book's answers; a handout states every number
of a student's variant (never only a seed); the answer functions generalised
to a variant's parameters agree with independent brute force on drawn
variants.  (The roster of 60 -- no answer shared beyond two students, never
the book's -- is the course tool's, ``test_course_salts.py``; that the draws
compute no answer is ``test_variants_answer_free.py``.)
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import answer_key as ak  # tools/, on sys.path by conftest
import dpsens as ds
from dpsens.exercises import variants
from dpsens.exercises._variants_b import BOOK
from dpsens.mechanisms.gaussian import per_coordinate_noise_std

SEEDS = [variants.student_seed(f"t{i}", "test-course") for i in range(3)]


@pytest.mark.parametrize("name", sorted(BOOK))
def test_the_books_parameters_give_the_books_answer(name):
    assert name in variants.VARIANTS
    assert ak.REGISTRY[name](**variants.variant_params(name, 0)).value == ak.REGISTRY[name]().value


@pytest.mark.parametrize("name", sorted(BOOK))
def test_a_handout_states_every_number_of_the_students_variant(name):
    for seed in SEEDS:
        params = variants.variant_params(name, seed)
        assert params != BOOK[name] and set(params) == set(BOOK[name])
        text = variants.variant_text(name, seed)
        for value in params.values():
            if isinstance(value, (list, tuple)):       # a dataset or score list, written out
                shown = [f"{v:g}" if isinstance(v, float) else str(v) for v in value]
                assert ", ".join(shown) in text or str(list(value)) in text, (name, value, text)
                continue
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            assert shown in text, (name, value, text)


def test_overlapping_chunks_counted_chunk_by_chunk():
    for seed in SEEDS:
        p = variants.variant_params("saa_overlap_epsilon", seed)
        idx = np.random.default_rng(p["draw_seed"]).integers(0, p["n"], size=(p["chunks"], p["size"]))
        per_record = np.zeros(p["n"], dtype=int)
        for row in idx:
            per_record[np.unique(row)] += 1
        assert ak.REGISTRY["saa_overlap_epsilon"](**p).value == per_record.max()


def test_crossover_and_turning_point_by_scanning():
    for seed in SEEDS:
        p = variants.variant_params("crossover_d", seed)
        d = 1
        while not (per_coordinate_noise_std(d, p["epsilon"], p["delta"], "gaussian")
                   < p["ratio"] * per_coordinate_noise_std(d, p["epsilon"])):
            d += 1
        assert ak.REGISTRY["crossover_d"](**p).value == d
        p = variants.variant_params("smooth_turning_point", seed)
        beta = p["epsilon"] / (2 * math.log(2 / p["delta"]))
        terms = [math.exp(-beta * t) * 100 / (p["n"] - t + 1) for t in range(p["n"] + 1)]
        first = next(t for t in range(p["n"]) if terms[t + 1] > terms[t])
        assert ak.REGISTRY["smooth_turning_point"](**p).value == first


def test_rounding_an_odd_sensitivity_adds_one_and_ptr_distance_is_the_first_to_pass():
    for seed in SEEDS:
        k = variants.variant_params("rounded_sensitivity", seed)["sensitivity"]
        assert k % 2 == 1 and ak.REGISTRY["rounded_sensitivity"](sensitivity=k).value == k + 1
        assert np.round(0.5 + k) - np.round(0.5) == k + 1          # the pair that shows it
        p = variants.variant_params("ptr_release_distance", seed)
        threshold = math.log(1 / p["delta"]) / p["epsilon"]
        d = ak.REGISTRY["ptr_release_distance"](**p).value
        assert ds.mechanisms.ptr_pass_probability(d, p["epsilon"], threshold) >= 0.99
        assert ds.mechanisms.ptr_pass_probability(d - 1, p["epsilon"], threshold) < 0.99


def test_closed_forms_of_the_drawn_variants():
    for seed in SEEDS:
        p = variants.variant_params("discrete_laplace_zero", seed)
        assert ak.REGISTRY["discrete_laplace_zero"](**p).value == pytest.approx(math.tanh(1 / (2 * p["b"])), rel=1e-9)
        p = variants.variant_params("ptr_source_accident", seed)
        assert ak.REGISTRY["ptr_source_accident"](**p).value == pytest.approx(0.5 * math.sqrt(p["delta"] / 2))
        p = variants.variant_params("pf_best_probability", seed)
        stop = [math.exp(p["epsilon"] * (u - p["scores"][0]) / 2) for u in p["scores"]]
        orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        # the walk visits an order until a candidate stops it; after a full pass it starts again
        first_pass = []
        for order in orders:
            reach, best = 1.0, 0.0
            for i in order:
                if i == 0:
                    best = reach * stop[0]
                    break
                reach *= 1 - stop[i]
            first_pass.append(best)
        assert stop[0] == 1.0
        assert ak.REGISTRY["pf_best_probability"](**p).value == pytest.approx(sum(first_pass) / 6, rel=1e-9)
