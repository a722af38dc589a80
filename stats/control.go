package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MethodControlVariate names ControlVariateMean's estimator.
const MethodControlVariate = "regression-estimator-cross-fitted-control-variate"

// MethodSampleMean names the plain mean over the sampled units that it is compared with.
const MethodSampleMean = "sample-mean-t"

// ControlVariate is a mean estimated with and without a control variate.
type ControlVariate struct {
	Estimate Interval // with the control variate
	Plain    Interval // the sample mean alone, t interval
	Beta     float64  // the coefficient, averaged over the two halves
	Rho      float64  // the sample correlation of y and x
	N        int      // sampled units
}

// ControlVariateMean estimates the mean of y over a population of units (the boards of a cheap
// sweep) from a random sample of them (the boards played at strength), using a variable x
// observed on every unit of the population (cheap play's rate), whose population mean xPop is
// therefore known: the regression estimator of two-phase sampling,
//
//	ŷ = ȳ − β(x̄ − xPop)
//
// (Cochran 1977, Sampling Techniques, 3rd ed., §7.1 and §12.6), whose variance is that of the
// residuals y − βx over n: the share ρ² of y's variance that x predicts is gone. The
// coefficient is cross-fitted (Chernozhukov et al. 2018, "Double/debiased machine learning",
// Econometrics J. 21): the sample is split into halves (units 0, 2, 4, … and 1, 3, 5, …), β is
// estimated on each half by least squares and applied to the other, and the two halves'
// estimates are averaged by size. Each half's estimate is then a mean of residuals whose
// coefficient did not see them, and the standard error is sqrt(Σ n_h² s²_h/n_h)/n with s²_h the
// variance of the half's residuals; the 95% interval uses t with n − 4 degrees of freedom. It
// holds whatever the relation of y and x (a poor x only gains nothing); the units must be a
// random sample of the population, and the finite-population correction is left out (the
// interval is conservative when the sample is a large share of the population).
func ControlVariateMean(y, x []float64, xPop float64) (ControlVariate, error) {
	n := len(y)
	if len(x) != n {
		return ControlVariate{}, fmt.Errorf("%d values of y and %d of x", n, len(x))
	}
	if n < 8 {
		return ControlVariate{}, fmt.Errorf("%d sampled units: a cross-fitted control variate needs at least 8", n)
	}
	var fit [2]struct{ n, sx, sy, sxx, sxy float64 }
	for i := range y {
		f := &fit[i%2]
		f.n++
		f.sx += x[i]
		f.sy += y[i]
		f.sxx += x[i] * x[i]
		f.sxy += x[i] * y[i]
	}
	var beta [2]float64
	for h, f := range fit {
		if vxx := f.sxx - f.sx*f.sx/f.n; vxx > 0 {
			beta[h] = (f.sxy - f.sx*f.sy/f.n) / vxx
		}
	}
	est, v := 0.0, 0.0
	for h := range fit {
		b := beta[1-h] // fitted on the other half
		m := 0.0
		var sum, sq float64
		for i := h; i < n; i += 2 {
			e := y[i] - b*(x[i]-xPop)
			sum += e
			sq += e * e
			m++
		}
		mean := sum / m
		s2 := (sq - m*mean*mean) / (m - 1)
		est += m * mean
		v += m * math.Max(s2, 0)
	}
	nf := float64(n)
	est /= nf
	se := math.Sqrt(v) / nf
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 4}.Quantile(0.975)
	cv := ControlVariate{N: n, Beta: (fit[0].n*beta[1] + fit[1].n*beta[0]) / nf}
	cv.Estimate = Interval{est, est - tq*se, est + tq*se, MethodControlVariate}
	var sy, syy, sx, sxx, sxy float64
	for i := range y {
		sy += y[i]
		syy += y[i] * y[i]
		sx += x[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	my := sy / nf
	sdy := math.Sqrt(math.Max(syy-nf*my*my, 0) / (nf - 1))
	t2 := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 1}.Quantile(0.975)
	cv.Plain = Interval{my, my - t2*sdy/math.Sqrt(nf), my + t2*sdy/math.Sqrt(nf), MethodSampleMean}
	if vx, vy := sxx-sx*sx/nf, syy-sy*sy/nf; vx > 0 && vy > 0 {
		cv.Rho = (sxy - sx*sy/nf) / math.Sqrt(vx*vy)
	}
	return cv, nil
}
