#!/usr/bin/env python3
"""Independent reference values for results.BinomTwoSided at large n (run: python3 binom_reference.py).

Needs mpmath (pip install mpmath). Each tail P(X <= a) of X ~ Binomial(n, p) is summed term by
term at 50 significant digits: the first term is mpmath's binomial(n, a) p^a q^(n-a) (gamma
functions at 50 digits), the others follow by the exact ratio
P(X = i-1) / P(X = i) = i q / ((n-i+1) p), until a term falls below 1e-40 of the sum. No
float64 arithmetic and none of the Go code's methods (Loader's saddle point) are used.

For p = 1/2 the two-sided p-value of k (k != n/2) is 2 P(X <= min(k, n-k)); for other p the
script also prints the single tails P(X <= a) and P(X >= b) which TestBinomTail checks.
"""
import mpmath
from mpmath import mp, mpf

mp.dps = 50


def lower_tail(a, n, p):
    """P(X <= a) for X ~ Binomial(n, p)."""
    p = mpf(p)
    q = 1 - p
    t = mpmath.binomial(n, a) * p**a * q**(n - a)
    s = mpf(0)
    i = a
    while i >= 0:
        s += t
        if t < s * mpf("1e-40"):
            break
        t = t * i * q / ((n - i + 1) * p)
        i -= 1
    return s


def upper_tail(b, n, p):
    """P(X >= b) = P(n - X <= n - b), n - X ~ Binomial(n, 1 - p)."""
    return lower_tail(n - b, n, 1 - mpf(p))


if __name__ == "__main__":
    for n, k in [(10**7, 5 * 10**6 - 3000), (10**7, 5 * 10**6 - 1000), (10**7, 5 * 10**6 + 100),
                 (10**8, 5 * 10**7 - 20000), (10**9, 5 * 10**8 - 30000)]:
        print("two-sided p = 1/2", n, k, mpmath.nstr(2 * lower_tail(min(k, n - k), n, "0.5"), 20))
    for a, n, p in [(2_999_000, 10**7, "0.3"), (6_001_500, 10**7, "0.6")]:
        print("lower tail", a, n, p, mpmath.nstr(lower_tail(a, n, p), 20))
        print("upper tail", a, n, p, mpmath.nstr(upper_tail(a, n, p), 20))
