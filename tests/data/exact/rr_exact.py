#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Exact ε(δ) of k-fold compositions of (ε₀, δ₀)-DP worst-case pairs (randomized response when
δ₀ = 0), evaluated with 40 significant digits (mpmath). Kairouz, Oh & Viswanath 2015, Thm 3.3:
the composed privacy loss is (k − 2i)·ε₀ with probability C(k, i)·p^(k−i)·q^i, p = e^ε₀/(1 + e^ε₀),
q = 1 − p (times (1 − δ₀)^k), and +∞ with probability 1 − (1 − δ₀)^k; δ(ε) is the hockey-stick
divergence Σ_i w_i (1 − e^(ε − ℓ_i))₊ + p_∞ and ε(δ) its inverse (exact on each piece).

Prints one line per ledger: eps0 delta0 k delta epsilon; the last line a mixed ledger (the same
randomized response and one Gaussian). tests/accounting/tst_pld_exact.cpp asserts these values.
Usage: python3 tests/data/exact/rr_exact.py"""
import mpmath as mp

mp.mp.dps = 40


def atoms(eps0, delta0, k):
    e0 = mp.mpf(eps0)
    p = mp.e**e0 / (1 + mp.e**e0)
    q = 1 - p
    keep = (1 - mp.mpf(delta0)) ** k
    out = []
    for i in range(k + 1):
        w = mp.binomial(k, i) * p ** (k - i) * q**i * keep
        out.append(((k - 2 * i) * e0, w))
    return out, 1 - keep


def delta_for_epsilon(ats, inf, eps):
    s = inf
    for loss, w in ats:
        if loss > eps:
            s += w * (1 - mp.e ** (eps - loss))
    return s


def epsilon_for_delta(ats, inf, delta):
    delta = mp.mpf(delta)
    if inf > delta:
        return mp.inf
    ats = sorted(ats, key=lambda a: -a[0])
    u, w = inf, mp.mpf(0)
    above = mp.inf
    for loss, m in ats:
        # On [loss, above): δ(ε) = u − e^ε·w.
        if u > delta and w > 0:
            cand = mp.log((u - delta) / w)
            if cand >= loss:
                return max(mp.mpf(0), min(cand, above))
        u += m
        w += m * mp.e ** (-loss)
        above = loss
    if u > delta and w > 0:
        return max(mp.mpf(0), mp.log((u - delta) / w))
    return mp.mpf(0)


LEDGERS = [
    # eps0, delta0, k, delta: the four randomized-response rows of the table
    ("0.011", "0", 3000, "1e-12"),
    ("0.013", "0", 3000, "1e-12"),
    ("0.03", "0", 3000, "1e-12"),
    ("0.06", "0", 3000, "1e-12"),
    # pure ε and (ε, δ) ledgers at ε₀ off every grid
    ("0.0123456789", "0", 1000, "1e-10"),
    ("0.7", "0", 50, "1e-6"),
    ("0.0377", "1e-9", 2000, "1e-5"),
    ("0.25", "1e-7", 300, "1e-4"),
]

def gaussian_delta(mu, x):
    """Hockey-stick δ(x) of the Gaussian PLD with μ = Δ/σ (Balle & Wang 2018, Thm 8), any real x."""
    return mp.ncdf(-x / mu + mu / 2) - mp.e**x * mp.ncdf(-x / mu - mu / 2)


def mixed_epsilon(eps0, k, sigma, delta):
    """ε(δ) of k-fold randomized response composed with one Gaussian (sensitivity 1, σ):
    δ(ε) = Σ_i w_i·δ_G(ε − ℓ_i) exactly (the PLDs add; δ_G is the Gaussian's hockey stick)."""
    ats, _ = atoms(eps0, "0", k)
    ats = [(l, w) for l, w in ats if w > mp.mpf("1e-45")]
    mu = 1 / mp.mpf(sigma)
    f = lambda e: sum(w * gaussian_delta(mu, e - l) for l, w in ats) - mp.mpf(delta)
    lo, hi = mp.mpf(0), mp.mpf(40)
    for _ in range(110):  # bisection to ~1e-32
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return hi


if __name__ == "__main__":
    for eps0, d0, k, delta in LEDGERS:
        ats, inf = atoms(eps0, d0, k)
        eps = epsilon_for_delta(ats, inf, delta)
        print(eps0, d0, k, delta, mp.nstr(eps, 17))
    # randomized response ε₀ = 0.013 × 3000 and one Gaussian σ = 5, δ = 1e-12
    print("0.013 0 3000 + gaussian sigma 5", "1e-12", mp.nstr(mixed_epsilon("0.013", 3000, 5, "1e-12"), 17))
