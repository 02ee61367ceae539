// Finals of the statistical aggregates kept in DOUBLE (COVAR_*, CORR, REGR_*, SKEWNESS,
// KURTOSIS), shared verbatim by the CPU engine and the generated GPU Finalizer. Both engines
// reduce their state to central moments first: the CPU keeps them by Welford-style updates
// and pairwise merges, a GPU part turns its two passes' sums into them
// (*_of_passes), so one final decides every NULL and every value.
#pragma once

#include "tally_host_device.cuh"

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cmath>
#endif

namespace tally_stats {

// The co-moments of n pairs (y, x): means, sums of squared deviations and of the products
// of deviations (PostgreSQL's Sxx, Syy, Sxy).
struct CoMoments {
  double n, mean_x, mean_y, sxx, syy, sxy;
};

// The central moments of n values: mean and sums of the 2nd, 3rd and 4th powers of the
// deviations from it.
struct Moments {
  double n, mean, m2, m3, m4;
};

// A sum of squared deviations the two passes leave from values that are all equal: the
// first pass's mean sum / n can miss them by an ulp, and the corrected sums then cancel to
// a few ulps of nothing where Welford's update gives exactly 0. Spread this far below the
// values' own precision is no spread, so it reads as 0 (CORR, REGR_SLOPE, SKEWNESS: NULL).
TALLY_HD double spread_or_zero(double m2, double n, double mean) {
  const double ulps = 8.0 * 2.220446049250313e-16 * (mean < 0 ? -mean : mean);
  return m2 <= n * ulps * ulps ? 0.0 : m2;
}

// Central co-moments as both engines hand them to the finals: sums of squared deviations
// within a few ulps of nothing are no spread (spread_or_zero), and then neither is Sxy.
TALLY_HD CoMoments settled_comoments(double n, double mean_x, double mean_y, double sxx, double syy,
                                     double sxy) {
  CoMoments m = {n,  mean_x, mean_y, spread_or_zero(sxx, n, mean_x), spread_or_zero(syy, n, mean_y),
                 sxy};
  if (m.sxx == 0.0 || m.syy == 0.0) m.sxy = 0.0;
  return m;
}

TALLY_HD Moments settled_moments(double n, double mean, double m2, double m3, double m4) {
  Moments m = {n, mean, spread_or_zero(m2, n, mean), m3, m4};
  if (m.m2 == 0.0) m.m3 = m.m4 = 0.0;
  return m;
}

// A GPU part's first pass summed y and x; its second summed deviations from those sums'
// means (and their squares and products). Corrected by the deviations' own sums (the
// corrected two-pass formula), they are the central co-moments.
TALLY_HD CoMoments comoments_of_passes(long long count, double sum_y, double dev_sq_y,
                                       double dev_sum_y, double sum_x, double dev_sq_x,
                                       double dev_sum_x, double co_dev) {
  if (count == 0) return settled_comoments(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
  const double n = static_cast<double>(count);
  return settled_comoments(
      n, sum_x / n + dev_sum_x / n, sum_y / n + dev_sum_y / n, dev_sq_x - dev_sum_x * dev_sum_x / n,
      dev_sq_y - dev_sum_y * dev_sum_y / n, co_dev - dev_sum_x * dev_sum_y / n);
}

// The same for one argument: the raw moments s1..s4 about the first pass's mean, shifted to
// the true mean.
TALLY_HD Moments moments_of_passes(long long count, double sum, double s2, double s1, double s3,
                                   double s4) {
  if (count == 0) return settled_moments(0.0, 0.0, 0.0, 0.0, 0.0);
  const double n = static_cast<double>(count), d = s1 / n;
  return settled_moments(n, sum / n + d, s2 - s1 * d, s3 - 3.0 * d * s2 + 2.0 * n * d * d * d,
                         s4 - 4.0 * d * s3 + 6.0 * d * d * s2 - 3.0 * n * d * d * d * d);
}

// Which statistic of the co-moments a final returns (in the order of the REGR_ family).
enum CoMomentStat {
  kCovarPop = 0,
  kCovarSamp = 1,
  kCorr = 2,
  kRegrSlope = 3,
  kRegrIntercept = 4,
  kRegrR2 = 5,
  kRegrAvgX = 6,
  kRegrAvgY = 7,
  kRegrSxx = 8,
  kRegrSyy = 9,
  kRegrSxy = 10,
};

// PostgreSQL's finals (float8_covar_pop, float8_corr, float8_regr_*): false where it returns
// NULL (no pairs; fewer than 2 for COVAR_SAMP; Sxx = 0 for the slope, intercept, R2 and CORR;
// Syy = 0 for CORR), else the value in *out.
TALLY_HD bool comoment_final(int stat, const CoMoments& m, double* out) {
  if (m.n < 1.0) return false;
  switch (stat) {
    case kCovarPop:
      *out = m.sxy / m.n;
      return true;
    case kCovarSamp:
      if (m.n < 2.0) return false;
      *out = m.sxy / (m.n - 1.0);
      return true;
    case kCorr:
      if (m.sxx == 0.0 || m.syy == 0.0) return false;
      *out = m.sxy / sqrt(m.sxx * m.syy);
      return true;
    case kRegrSlope:
      if (m.sxx == 0.0) return false;
      *out = m.sxy / m.sxx;
      return true;
    case kRegrIntercept:
      if (m.sxx == 0.0) return false;
      *out = m.mean_y - m.mean_x * (m.sxy / m.sxx);
      return true;
    case kRegrR2:
      if (m.sxx == 0.0) return false;
      *out = m.syy == 0.0 ? 1.0 : (m.sxy * m.sxy) / (m.sxx * m.syy);
      return true;
    case kRegrAvgX:
      *out = m.mean_x;
      return true;
    case kRegrAvgY:
      *out = m.mean_y;
      return true;
    case kRegrSxx:
      *out = m.sxx;
      return true;
    case kRegrSyy:
      *out = m.syy;
      return true;
    default:
      *out = m.sxy;
      return true;
  }
}

// What a moment final gives: NULL, a value, or a value out of range (DuckDB raises an error).
enum MomentResult { kMomentNull = 0, kMomentValue = 1, kMomentOutOfRange = 2 };

TALLY_HD int finite_or_out_of_range(double v) {
  return v - v == 0.0 ? kMomentValue : kMomentOutOfRange;  // false for inf and NaN
}

// DuckDB's SKEWNESS: the sample skewness with its bias correction sqrt(n(n-1))/(n-2); NULL
// for n <= 2 or no spread.
TALLY_HD int skewness_final(const Moments& m, double* out) {
  if (m.n <= 2.0 || m.m2 == 0.0) return kMomentNull;
  const double n = m.n, m2 = m.m2 / n, m3 = m.m3 / n;
  *out = sqrt(n * (n - 1.0)) / (n - 2.0) * m3 / sqrt(m2 * m2 * m2);
  return finite_or_out_of_range(*out);
}

// DuckDB's KURTOSIS: the sample excess kurtosis,
// (n-1)((n+1) m4/m2^2 - 3(n-1)) / ((n-2)(n-3)); NULL for n <= 3 or no spread.
TALLY_HD int kurtosis_final(const Moments& m, double* out) {
  if (m.n <= 3.0 || m.m2 <= 0.0) return kMomentNull;
  const double n = m.n, m2 = m.m2 / n, m4 = m.m4 / n;
  *out = (n - 1.0) * ((n + 1.0) * m4 / (m2 * m2) - 3.0 * (n - 1.0)) / ((n - 2.0) * (n - 3.0));
  return finite_or_out_of_range(*out);
}

}  // namespace tally_stats
