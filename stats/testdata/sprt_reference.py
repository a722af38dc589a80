#!/usr/bin/python3
"""Independent reference values for results.SPRT.LLR (run: /usr/bin/python3 sprt_reference.py).

The generalized log-likelihood ratio is computed by brute force: for each hypothesis the
pentanomial distribution q that maximises sum(phat * log q) under the hypothesis' constraint
is found with scipy's general constrained optimiser (SLSQP), without the Lagrange-multiplier
closed forms the Go code uses. Constraints:
  logistic:   sum(q * a) = 1 / (1 + 10**(-elo/400))
  normalized: (sum(q * a) - 1/2) / sd_q(a) = sqrt(2) * nelo / (800 / ln 10)
Empty cells count 0.001 pairs (as fastchess does).
"""
import math
import numpy as np
from scipy.optimize import minimize

A = np.array([0, 0.25, 0.5, 0.75, 1.0])


def mle(phat, constraint):
    cons = [{"type": "eq", "fun": lambda q: q.sum() - 1}, {"type": "eq", "fun": constraint}]
    best = None
    for start in (phat, np.full(5, 0.2)):
        r = minimize(lambda q: -np.dot(phat, np.log(q)), start, method="SLSQP",
                     bounds=[(1e-12, 1)] * 5, constraints=cons,
                     options={"ftol": 1e-15, "maxiter": 2000})
        if best is None or r.fun < best.fun:
            best = r
    return best.x


def llr(counts, elo0, elo1, model):
    c = np.array([x if x > 0 else 1e-3 for x in counts], dtype=float)
    n = c.sum()
    phat = c / n
    if model == "logistic":
        def con(elo):
            s = 1 / (1 + 10 ** (-elo / 400))
            return lambda q: np.dot(q, A) - s
    else:
        def con(elo):
            t = math.sqrt(2) * elo / (800 / math.log(10))
            def f(q):
                mu = np.dot(q, A)
                sd = math.sqrt(max(np.dot(q, (A - mu) ** 2), 1e-300))
                return (mu - 0.5) / sd - t
            return f
    q0, q1 = mle(phat, con(elo0)), mle(phat, con(elo1))
    return n * np.dot(phat, np.log(q1) - np.log(q0))


CASES = [
    ((10, 50, 100, 60, 20), 0, 5, "normalized"),
    ((10, 50, 100, 60, 20), 0, 5, "logistic"),
    ((0, 3, 10, 8, 2), -5, 10, "logistic"),
    ((0, 3, 10, 8, 2), 0, 20, "normalized"),
    ((120, 300, 510, 320, 110), 0, 2, "normalized"),
    ((40, 80, 60, 30, 10), 0, 10, "logistic"),
    ((1500, 4000, 6100, 4100, 1450), 0, 2, "logistic"),
    # Outcomes never seen (zero counts, regularised to 0.001 pairs): the constrained optimum
    # may put its weight there, so the root bracket must include them.
    ((0, 0, 10, 8, 2), 0, 5, "logistic"),
    ((0, 0, 10, 8, 2), 0, 20, "normalized"),
    ((5, 20, 30, 0, 0), -10, 10, "logistic"),
    ((0, 4, 0, 6, 0), 0, 5, "normalized"),
    ((0, 0, 0, 5, 10), 0, 10, "logistic"),
    ((3, 0, 0, 0, 9), -20, 20, "logistic"),
]

if __name__ == "__main__":
    for counts, e0, e1, model in CASES:
        print(f"{{Penta{{{', '.join(map(str, counts))}}}, {e0}, {e1}, \"{model}\", {llr(counts, e0, e1, model):.6f}}},")
