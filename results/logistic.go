package results

import (
	"errors"
	"math"

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
// successes[i] out of trials[i] — by iteratively reweighted least squares (Newton's method on
// the log-likelihood), on gonum/mat. A small ridge (1e-8 on the diagonal) keeps nearly
// singular designs solvable.
func Logistic(X *mat.Dense, successes, trials []float64) (*LogisticFit, error) {
	n, p := X.Dims()
	if len(successes) != n || len(trials) != n {
		return nil, errors.New("logistic: data and design sizes differ")
	}
	beta := mat.NewVecDense(p, nil)
	eta := mat.NewVecDense(n, nil)
	var info mat.SymDense
	grad := mat.NewVecDense(p, nil)
	w := make([]float64, n)
	resid := mat.NewVecDense(n, nil)
	fit := &LogisticFit{}
	for it := 1; it <= 50; it++ {
		eta.MulVec(X, beta)
		dev := 0.0
		for i := 0; i < n; i++ {
			mu := 1 / (1 + math.Exp(-eta.AtVec(i)))
			w[i] = trials[i] * mu * (1 - mu)
			resid.SetVec(i, successes[i]-trials[i]*mu)
			dev += binomDeviance(successes[i], trials[i], mu)
		}
		fit.Deviance, fit.Iterations = dev, it
		// information matrix X'WX
		xw := mat.NewDense(n, p, nil)
		for i := 0; i < n; i++ {
			s := math.Sqrt(w[i])
			for j := 0; j < p; j++ {
				xw.Set(i, j, X.At(i, j)*s)
			}
		}
		info.SymOuterK(1, xw.T())
		for j := 0; j < p; j++ {
			info.SetSym(j, j, info.At(j, j)+1e-8)
		}
		grad.MulVec(X.T(), resid)
		var chol mat.Cholesky
		if ok := chol.Factorize(&info); !ok {
			return nil, errors.New("logistic: information matrix is not positive definite (a colour never occurs on some square?)")
		}
		step := mat.NewVecDense(p, nil)
		if err := chol.SolveVecTo(step, grad); err != nil {
			return nil, err
		}
		beta.AddVec(beta, step)
		if mat.Norm(step, math.Inf(1)) < 1e-9 {
			var cov mat.SymDense
			if err := chol.InverseTo(&cov); err != nil {
				return nil, err
			}
			fit.Cov = &cov
			break
		}
		if it == 50 {
			return nil, errors.New("logistic: no convergence in 50 iterations (separated data?)")
		}
	}
	fit.Beta = make([]float64, p)
	fit.SE = make([]float64, p)
	for j := 0; j < p; j++ {
		fit.Beta[j] = beta.AtVec(j)
		fit.SE[j] = math.Sqrt(fit.Cov.At(j, j))
	}
	return fit, nil
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
