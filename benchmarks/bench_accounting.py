"""Benchmark: accounting for J = 1 to 1,000 releases, the package against Google's dp_accounting.

Run from the repository root:

    .venv/bin/python benchmarks/bench_accounting.py

The setting of *Composing releases, and counting the budget exactly*: J
Laplace releases (scale b, sensitivity 1) and J Gaussian releases (σ,
sensitivity 1), ε at δ = 1e-6.  For each it times the package's exact
accountant (:func:`dpsens.pld.pld_epsilon`, the Laplace bracket to 0.1 %;
:func:`dpsens.accounting.gaussian_composition_epsilon`, closed form) and
the optimal composition of J ε-DP mechanisms, against dp_accounting's PLD
accountant (grid 1e-4, its pessimistic estimate); it prints the median
times, their ratio and both ε, measured in the same run.  The issue asks
for J = 1,000 under a second; nothing here asserts a time.
"""
from __future__ import annotations

from dpsens import accounting as acc
from dpsens import pld
from dpsens.timing import median_ms


def main() -> None:
    try:
        from dp_accounting.pld import privacy_loss_distribution as dpa
    except ImportError:            # the reference is a test dependency
        dpa = None
    print(f"{'release':24s} {'J':>5s} {'dpsens ms':>10s} {'dp_acc ms':>10s} {'ratio':>7s}  ε dpsens (bracket)        ε dp_acc")
    for b in (1.0, 10.0, 100.0):
        for J in (1, 10, 100, 1000):
            ours_ms = median_ms(lambda: pld.pld_epsilon(1e-6, laplace=[(b, 1.0)] * J), runs=3)
            ours = pld.pld_epsilon(1e-6, laplace=[(b, 1.0)] * J)
            if dpa is not None:
                ref_ms = median_ms(lambda: dpa.from_laplace_mechanism(b, value_discretization_interval=1e-4)
                                   .self_compose(J).get_epsilon_for_delta(1e-6), runs=3)
                ref = dpa.from_laplace_mechanism(b, value_discretization_interval=1e-4).self_compose(J) \
                    .get_epsilon_for_delta(1e-6)
                print(f"{'Laplace b = %g' % b:24s} {J:5d} {ours_ms:10.1f} {ref_ms:10.1f} {ref_ms / ours_ms:7.2f}  "
                      f"[{ours.lower:.5g}, {ours.upper:.5g}]   {ref:.5g}")
            else:
                print(f"{'Laplace b = %g' % b:24s} {J:5d} {ours_ms:10.1f}  [{ours.lower:.5g}, {ours.upper:.5g}]")
    for sigma in (1.0, 10.0):
        for J in (1, 1000):
            ours_ms = median_ms(lambda: acc.gaussian_composition_epsilon(1e-6, [(sigma, 1.0)] * J), runs=5)
            ours = acc.gaussian_composition_epsilon(1e-6, [(sigma, 1.0)] * J)
            if dpa is not None:
                ref_ms = median_ms(lambda: dpa.from_gaussian_mechanism(sigma, value_discretization_interval=1e-4)
                                   .self_compose(J).get_epsilon_for_delta(1e-6), runs=3)
                ref = dpa.from_gaussian_mechanism(sigma, value_discretization_interval=1e-4).self_compose(J) \
                    .get_epsilon_for_delta(1e-6)
                print(f"{'Gaussian σ = %g' % sigma:24s} {J:5d} {ours_ms:10.2f} {ref_ms:10.1f} {ref_ms / ours_ms:7.0f}  "
                      f"{ours:.5g} (exact)        {ref:.5g}")
    for eps in (0.01, 0.1, 1.0):
        ms = median_ms(lambda: acc.optimal_composition_epsilon(eps, 1000, 1e-6), runs=5)
        print(f"optimal, J = 1000 ε = {eps:g}: {ms:.2f} ms, ε' = {acc.optimal_composition_epsilon(eps, 1000, 1e-6):.5g}")


if __name__ == "__main__":
    main()
