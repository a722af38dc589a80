# Independent reference values for results/plan_test.go (run: Rscript plan_reference.R; R 4.2,
# base stats package only). Output, as quoted in the tests:
#   76.70693011  0.7401659013  1564.672053  2965.96499  0.5624867288  0.6099752362
#   0.7990767562  0.9000568776  0.9012519942  0.9062617356
options(digits = 10)
# Two proportions: R's power.prop.test (normal approximation, strict = FALSE).
print(power.prop.test(p1 = .5, p2 = .75, power = .9)$n)
print(power.prop.test(n = 50, p1 = .5, p2 = .75)$power)
print(power.prop.test(p1 = .5, p2 = .55, power = .8)$n)
print(power.prop.test(p1 = .5, p2 = .55, sig.level = 0.01, power = .9)$n)
print(power.prop.test(n = 1000, p1 = .5, power = .8)$p2)
print(power.prop.test(n = 1000, p1 = .5, p2 = .55)$power)
# One proportion: the exact power of binom.test (two-sided, level a) against p0 when the true
# rate is p1, at n games: the probability under p1 of the counts binom.test rejects.
ep <- function(n, p0, p1, a = 0.05) {
  k <- 0:n
  pv <- sapply(k, function(x) binom.test(x, n, p0)$p.value)
  sum(dbinom(k[pv <= a], n, p1))
}
print(ep(19620, 0.5, 0.51))
print(ep(2770, 0.6, 0.63))
# Two proportions, n per group: the exact power of prop.test (continuity-corrected when
# correct = TRUE), summing the probabilities of both groups' outcomes it rejects.
pp <- function(n, p1, p2, a = 0.05, correct = TRUE) {
  tot <- 0
  d1 <- dbinom(0:n, n, p1)
  d2 <- dbinom(0:n, n, p2)
  for (x in 0:n) for (y in 0:n) {
    if ((x + y) == 0 || (x + y) == 2 * n) next
    pv <- suppressWarnings(prop.test(c(x, y), c(n, n), correct = correct)$p.value)
    if (pv <= a) tot <- tot + d1[x + 1] * d2[y + 1]
  }
  tot
}
print(pp(85, 0.5, 0.75))
print(pp(77, 0.5, 0.75, correct = FALSE))
