package stats

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// LogisticFit is a binomial logistic regression: coefficients, their covariance and standard
// errors.
type LogisticFit struct {
	Beta       []float64
	SE         []float64
	Cov        *mat.SymDense
	Iterations int
	Deviance   float64
}

// Logistic fits P(success) = 1/(1+exp(−x·β)) to grouped binomial data — row i of X with
// successes[i] out of trials[i] — by Newton's method (iteratively reweighted least squares) on
// gonum/mat, halving steps that do not improve the objective. penalty (nil for none) adds a
// ridge term ½·Σ penalty[j]·β_j² to the negative log-likelihood: it makes rank-deficient
// designs solvable (the smallest-norm effects consistent with the data). The covariance is the
// inverse of the penalised information, H⁻¹ with H = I + Λ: the posterior covariance under
// independent N(0, 1/penalty[j]) priors, which keeps the prior's uncertainty in directions the
// data cannot identify (and is the plain inverse information without a penalty).
func Logistic(X *mat.Dense, successes, trials []float64, penalty []float64) (*LogisticFit, error) {
	n, p := X.Dims()
	return LogisticRows(n, p, func(i int, r *SparseRow) {
		for j := 0; j < p; j++ {
			if v := X.At(i, j); v != 0 {
				r.Cols, r.Vals = append(r.Cols, j), append(r.Vals, v)
			}
		}
	}, successes, trials, penalty)
}

// SparseRow is one row of a design matrix: its nonzero columns (each at most once) and values.
type SparseRow struct {
	Cols []int
	Vals []float64
}

// LogisticRows is Logistic for a design given row by row: row(i, r) appends row i's nonzero
// entries to r (emptied before each call). It keeps no n×p matrix — memory is O(p²) whatever
// the number of rows n — and costs O(Σ nnz²) per iteration, so that sparse designs (a layout
// sweep's square-colour indicators) of any size fit in little memory.
func LogisticRows(n, p int, row func(i int, r *SparseRow), successes, trials []float64, penalty []float64) (*LogisticFit, error) {
	if len(successes) != n || len(trials) != n {
		return nil, errors.New("logistic: data, design and penalty sizes differ")
	}
	var r SparseRow
	return LogisticScan(p, func(visit func(r *SparseRow, successes, trials float64)) error {
		for i := 0; i < n; i++ {
			r.Cols, r.Vals = r.Cols[:0], r.Vals[:0]
			row(i, &r)
			visit(&r, successes[i], trials[i])
		}
		return nil
	}, penalty)
}

// LogisticScan is LogisticRows for rows read in order from a source that can be read again
// (a file): every pass over the data calls scan, which calls visit once for each row, in the
// same order every time, with its nonzero entries, successes and trials. Nothing is kept per
// row, so memory is O(p²) whatever the number of rows; an error from scan ends the fit.
func LogisticScan(p int, scan func(visit func(r *SparseRow, successes, trials float64)) error, penalty []float64) (*LogisticFit, error) {
	return LogisticChunks(p, 1, 1, func(_ int, visit func(r *SparseRow, successes, trials float64)) error {
		return scan(visit)
	}, penalty)
}

// LogisticChunks is LogisticScan for rows cut into chunks that can be read independently and
// at the same time (fixed-size records of a file, read at their offsets): every pass calls
// scan(c, visit) for each chunk c, on up to workers goroutines at once, each chunk's sums
// (deviance, gradient, information) accumulated on their own and added in chunk order
// (FoldChunks). The fit depends on how the rows are cut into chunks, not on workers; with one
// chunk it is LogisticScan's, operation for operation. Memory is O(workers·p²).
func LogisticChunks(p, chunks, workers int, scan func(chunk int, visit func(r *SparseRow, successes, trials float64)) error, penalty []float64) (*LogisticFit, error) {
	if penalty != nil && len(penalty) != p {
		return nil, errors.New("logistic: data, design and penalty sizes differ")
	}
	pen := func(j int) float64 {
		if penalty == nil {
			return 0
		}
		return penalty[j]
	}
	etaOf := func(r *SparseRow, b []float64) float64 {
		e := 0.0
		for k, j := range r.Cols {
			e += r.Vals[k] * b[j]
		}
		return e
	}
	accs := make([]logisticSums, max(1, min(workers, chunks)))
	for i := range accs {
		accs[i] = logisticSums{grad: make([]float64, p), info: make([]float64, p*p)}
	}
	beta := make([]float64, p)
	objective := func(b []float64) (float64, error) {
		dev := 0.0
		err := FoldChunks(chunks, accs, func(a *logisticSums) { a.dev = 0 }, func(c int, a *logisticSums) error {
			return scan(c, func(r *SparseRow, y, t float64) {
				a.dev += binomDeviance(y, t, 1/(1+math.Exp(-etaOf(r, b))))
			})
		}, func(a *logisticSums) error {
			dev += a.dev
			return nil
		})
		for j := 0; j < p; j++ {
			dev += pen(j) * b[j] * b[j]
		}
		return dev, err
	}
	fit := &LogisticFit{}
	cur, err := objective(beta)
	if err != nil {
		return nil, err
	}
	infoData := make([]float64, p*p)
	grad := mat.NewVecDense(p, nil)
	for it := 1; ; it++ {
		if it > 100 {
			return nil, errors.New("logistic: no convergence in 100 iterations (separated data?)")
		}
		clear(infoData)
		grad.Zero()
		err := FoldChunks(chunks, accs, func(a *logisticSums) {
			clear(a.grad)
			clear(a.info)
		}, func(c int, a *logisticSums) error {
			return scan(c, func(r *SparseRow, y, t float64) {
				mu := 1 / (1 + math.Exp(-etaOf(r, beta)))
				resid, w := y-t*mu, t*mu*(1-mu)
				ascending := slices.IsSorted(r.Cols)
				for k, ca := range r.Cols {
					a.grad[ca] += r.Vals[k] * resid
					wa := w * r.Vals[k]
					if ascending { // the upper triangle: the columns from k on, half the work
						row := a.info[ca*p:]
						for l, cb := range r.Cols[k:] {
							row[cb] += wa * r.Vals[k+l]
						}
						continue
					}
					for l, cb := range r.Cols {
						if cb >= ca { // the upper triangle
							a.info[ca*p+cb] += wa * r.Vals[l]
						}
					}
				}
			})
		}, func(a *logisticSums) error {
			for j, v := range a.grad {
				grad.SetVec(j, grad.AtVec(j)+v)
			}
			for i := 0; i < p; i++ {
				for j := i; j < p; j++ {
					infoData[i*p+j] += a.info[i*p+j]
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		info := mat.NewSymDense(p, infoData)
		for j := 0; j < p; j++ {
			info.SetSym(j, j, info.At(j, j)+pen(j)+1e-10)
			grad.SetVec(j, grad.AtVec(j)-pen(j)*beta[j])
		}
		var chol mat.Cholesky
		if ok := chol.Factorize(info); !ok {
			return nil, errors.New("logistic: information matrix is not positive definite (give a penalty for rank-deficient designs)")
		}
		step := mat.NewVecDense(p, nil)
		if err := chol.SolveVecTo(step, grad); err != nil {
			return nil, err
		}
		next := make([]float64, p)
		var obj float64
		for h := 0; h < 30; h++ { // step halving
			for j := range next {
				next[j] = beta[j] + step.AtVec(j)
			}
			if obj, err = objective(next); err != nil {
				return nil, err
			}
			if obj <= cur+1e-12*math.Abs(cur) {
				break
			}
			step.ScaleVec(0.5, step)
		}
		beta = next
		done := math.Abs(cur-obj) <= 1e-10*(1+math.Abs(obj)) || mat.Norm(step, math.Inf(1)) < 1e-10
		cur = obj
		fit.Iterations = it
		if done {
			var cov mat.SymDense
			if err := chol.InverseTo(&cov); err != nil {
				return nil, err
			}
			fit.Cov = &cov
			break
		}
	}
	fit.Deviance = cur
	fit.Beta = beta
	fit.SE = make([]float64, p)
	for j := 0; j < p; j++ {
		fit.SE[j] = math.Sqrt(fit.Cov.At(j, j))
	}
	return fit, nil
}

// logisticSums are one chunk's sums in a pass of LogisticChunks: the deviance, or the gradient
// and the information's upper triangle.
type logisticSums struct {
	dev        float64
	grad, info []float64
}

func binomDeviance(y, n, mu float64) float64 {
	d := 0.0
	if y > 0 {
		d += y * math.Log(y/(n*mu))
	}
	if n-y > 0 {
		d += (n - y) * math.Log((n-y)/(n*(1-mu)))
	}
	return 2 * d
}

// GramRank returns the rank of a design matrix X from its Gram matrix XᵀX (p×p; the layout
// studies accumulate it in chunks of rows): the number of eigenvalues above 1e-10 of the largest (singular
// values of X above 1e-5 of the largest; the eigenvalues of an exactly singular Gram matrix of
// indicator columns come out at ~1e-16 of the largest in floating point).
func GramRank(g *mat.SymDense) int {
	var es mat.EigenSym
	if !es.Factorize(g, false) {
		return g.SymmetricDim()
	}
	vals := es.Values(nil)
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
	}
	r := 0
	for _, v := range vals {
		if v > 1e-10*top {
			r++
		}
	}
	return r
}
