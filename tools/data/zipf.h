// Zipf-distributed integers over a large domain without a table of the CDF.
#pragma once

#include <cstdint>

namespace tally {

// Draws ranks k in [1, n] with P(k) proportional to 1 / k^exponent (exponent > 0), by
// rejection-inversion (Hörmann and Derflinger 1996): O(1) per draw for any n, so it works
// for key ranges of 10^9. Each draw takes uniforms from `next_unit` until one is accepted
// (on average fewer than 1.1).
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double exponent);

  template <typename NextUnit>
  uint64_t sample(NextUnit&& next_unit) const {
    for (;;) {
      double u = h_integral_n_ + next_unit() * (h_integral_x1_ - h_integral_n_);
      double x = h_integral_inverse(u);
      double k = static_cast<double>(static_cast<uint64_t>(x + 0.5));
      if (k < 1) k = 1;
      if (k > n_) k = n_;
      if (k - x <= s_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<uint64_t>(k);
    }
  }

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  double n_;
  double exponent_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

}  // namespace tally
