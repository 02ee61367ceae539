#include "tools/data/zipf.h"

#include <cmath>

namespace tally {

namespace {

// log1p(x) / x, accurate near 0.
double log1p_over_x(double x) {
  if (std::abs(x) > 1e-8) return std::log1p(x) / x;
  return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

// expm1(x) / x, accurate near 0.
double expm1_over_x(double x) {
  if (std::abs(x) > 1e-8) return std::expm1(x) / x;
  return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(uint64_t n, double exponent)
    : n_(static_cast<double>(n)), exponent_(exponent) {
  h_integral_x1_ = h_integral(1.5) - 1;
  h_integral_n_ = h_integral(n_ + 0.5);
  s_ = 2 - h_integral_inverse(h_integral(2.5) - h(2));
}

// The density 1/x^s and its integral H, written so that s = 1 needs no special case.
double ZipfSampler::h(double x) const { return std::exp(-exponent_ * std::log(x)); }

double ZipfSampler::h_integral(double x) const {
  double log_x = std::log(x);
  return expm1_over_x((1 - exponent_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1 - exponent_);
  if (t < -1) t = -1;  // rounding guard: the exact value is never below -1
  return std::exp(log1p_over_x(t) * x);
}

}  // namespace tally
