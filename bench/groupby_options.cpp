#include "bench/groupby_options.h"

#include <sstream>
#include <stdexcept>

#include "bench/groupby_workload.h"

namespace tally::bench {

const char* const kSweepUsage =
    "usage: groupby_sweep [--quick] [--cpu] [--rows N] [--k-min K] [--k-max K] [--k-step M]\n"
    "                     [--kinds column,mod,two,string] [--dists "
    "uniform,zipf0.5,zipf1.0,zipf1.5]\n"
    "                     [--strategies thread,direct,direct1,hash,block,auto] [--reps R]\n"
    "                     [--warmup W] [--csv FILE] [--seed S] [--time-limit SECONDS] [--help]\n"
    "  Numbers may be written 2^N. Defaults: 2^27 rows, K = 1, 2, 4, ... 2^24, every kind,\n"
    "  distribution and strategy, 1 warm-up and 5 timed runs.\n"
    "  --quick  2^24 rows, K = 1, 4, 16, ... 2^22, column and mod keys, uniform and zipf1.0,\n"
    "           3 timed runs, no warm-up, a time limit of 170 s (options after it still apply)\n"
    "  --cpu    no GPU: the CPU engine runs each query once, checked against a host loop\n"
    "  --time-limit  start no point after this many seconds (0: no limit)\n"
    "  direct1  direct in one pass over the rows, never in L2 slices (compiler/plan/l2_slices.h)\n";

namespace {

// A count: decimal, or 2^N.
uint64_t parse_count(const std::string& s) {
  size_t used = 0;
  try {
    if (s.rfind("2^", 0) == 0) {
      const unsigned long e = std::stoul(s.substr(2), &used);
      if (e <= 62 && used == s.size() - 2) return uint64_t{1} << e;
    } else {
      const uint64_t v = std::stoull(s, &used);
      if (used == s.size() && s[0] != '-') return v;
    }
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("not a count: \"" + s + "\"");
}

std::vector<std::string> parse_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');) {
    if (!x.empty()) out.push_back(x);
  }
  return out;
}

void set_quick(SweepOptions& o) {
  o.rows = size_t{1} << 24;
  o.k_step = 4;
  o.k_max = uint64_t{1} << 22;
  o.kinds = {"column", "mod"};
  o.dists = {"uniform", "zipf1.0"};
  o.reps = 3;
  o.warmup = 0;
  o.time_limit_s = 170;
}

void check(const SweepOptions& o) {
  if (o.rows == 0 || o.rows >= (size_t{1} << 31)) {
    throw std::invalid_argument("--rows: 1 .. 2^31-1");
  }
  if (o.k_min == 0 || o.k_min > o.k_max || o.k_max > (uint64_t{1} << 30)) {
    throw std::invalid_argument("need 0 < --k-min <= --k-max <= 2^30");
  }
  if (o.k_step < 2) throw std::invalid_argument("--k-step must be at least 2");
  if (o.reps < 1) throw std::invalid_argument("--reps must be at least 1");
  if (o.kinds.empty() || o.dists.empty()) throw std::invalid_argument("no kinds or dists");
  if (!o.cpu && o.strategies.empty()) throw std::invalid_argument("no strategies");
  for (const auto& k : o.kinds) key_kind_from_name(k);
  for (const auto& d : o.dists) key_dist_from_name(d);
}

}  // namespace

std::vector<uint64_t> SweepOptions::k_values() const {
  std::vector<uint64_t> ks;
  for (uint64_t k = k_min; k <= k_max; k *= k_step) ks.push_back(k);
  return ks;
}

SweepOptions parse_sweep_options(int argc, char** argv) {
  SweepOptions o;
  // --quick sets defaults; every other option overrides them, wherever it stands.
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") set_quick(o);
  }
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") continue;
    if (a == "--cpu" || a == "--help" || a == "-h") {
      (a == "--cpu" ? o.cpu : o.help) = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument \"" + a + "\"");
    if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--rows") {
      o.rows = parse_count(v);
    } else if (a == "--k-min") {
      o.k_min = parse_count(v);
    } else if (a == "--k-max") {
      o.k_max = parse_count(v);
    } else if (a == "--k-step") {
      o.k_step = parse_count(v);
    } else if (a == "--reps" || a == "--warmup") {
      const uint64_t n = parse_count(v);
      if (n > 1000) throw std::invalid_argument(a + ": at most 1000");
      (a == "--reps" ? o.reps : o.warmup) = static_cast<int>(n);
    } else if (a == "--kinds") {
      o.kinds = parse_list(v);
    } else if (a == "--dists") {
      o.dists = parse_list(v);
    } else if (a == "--strategies") {
      o.strategies = parse_list(v);
    } else if (a == "--csv") {
      o.csv = v;
    } else if (a == "--seed") {
      o.seed = parse_count(v);
    } else if (a == "--time-limit") {
      o.time_limit_s = static_cast<double>(parse_count(v));
    } else {
      throw std::invalid_argument("unknown option " + a);
    }
  }
  check(o);
  return o;
}

}  // namespace tally::bench
