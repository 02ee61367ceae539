#include "bench/groupby_report.h"

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>

namespace tally::bench {

namespace {

std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The fastest peer that ran with a right result, 0 when none did.
double best_peer_ms(const PointResult& p) {
  double best = 0;
  for (const auto& m : p.methods) {
    if (m.peer && m.status == Status::Ran && (best == 0 || m.ms < best)) best = m.ms;
  }
  return best;
}

// Auto's time over the best forced strategy's, for its note: what the planner's choice
// costs against the choice made knowing every time.
std::string auto_against_forced(const PointResult& p, const Measured& autom) {
  double best = 0;
  for (const auto& m : p.methods) {
    if (m.peer || m.method == "auto" || m.method == "cpu" || m.status != Status::Ran) continue;
    if (best == 0 || m.ms < best) best = m.ms;
  }
  return best > 0 ? fmt::format(", {:.2f}x the best forced strategy", autom.ms / best) : "";
}

std::string ratio(double ms, double base_ms) {
  return base_ms > 0 ? fmt::format("{:.2f}", ms / base_ms) : "-";
}

}  // namespace

SweepReport::SweepReport(const std::string& csv_path) {
  if (csv_path.empty()) return;
  csv_.open(csv_path);
  if (!csv_) throw std::runtime_error("cannot write " + csv_path);
  csv_ << "kind,dist,k,method,status,rows,bytes,ms,ns_per_row,x_floor,x_best_peer,note\n";
}

void SweepReport::block_header(const std::string& kind, const std::string& dist, size_t rows,
                               bool gpu) {
  fmt::print("\n{} keys, {}, {} rows{}\n", kind, dist, rows,
             gpu ? ". x floor: over the bytes tally reads at the measured read bandwidth; x peer: "
                   "over the fastest hand-written peer at that K"
                 : " (the CPU engine only)");
  fmt::print("  {:>9} {:<8} {:>10} {:>8} {:>8} {:>8}  {}\n", "K", "method", "ms", "ns/row",
             "x floor", "x peer", "note");
}

void SweepReport::point(const PointResult& p) {
  const double best_peer = best_peer_ms(p);
  std::vector<const Measured*> shown;
  if (p.floor.status == Status::Ran) shown.push_back(&p.floor);
  for (const auto& m : p.methods) shown.push_back(&m);
  bool first = true;
  for (const Measured* m : shown) {
    const std::string k = first ? fmt::format("{}", p.k) : "";
    first = false;
    std::string note = m->note;
    if (m->method == "auto" && m->status == Status::Ran) note += auto_against_forced(p, *m);
    if (m->status == Status::Ran) {
      fmt::print("  {:>9} {:<8} {:>10.4f} {:>8.4g} {:>8} {:>8}  {}\n", k, m->method, m->ms,
                 m->ms * 1e6 / static_cast<double>(p.rows), ratio(m->ms, p.floor.ms),
                 ratio(m->ms, best_peer), note);
    } else {
      fmt::print("  {:>9} {:<8} {:>10} {:>8} {:>8} {:>8}  {}\n", k, m->method,
                 status_name(m->status), "", "", "", note);
    }
    if (m->status == Status::Wrong) ++wrong_;
    if (m->status == Status::Failed) ++failed_;
    csv_row(p, *m, best_peer);
  }
  std::fflush(stdout);
}

void SweepReport::point_failed(const std::string& kind, const std::string& dist, uint64_t k,
                               const std::string& why) {
  ++failed_;
  fmt::print("  {:>9} the point failed: {}\n", k, why);
  std::fflush(stdout);
  if (!csv_.is_open()) return;
  csv_ << fmt::format("{},{},{},point,failed,,,,,,,{}\n", kind, dist, k, csv_quote(why));
  csv_.flush();
}

void SweepReport::csv_row(const PointResult& p, const Measured& m, double best_peer) {
  if (!csv_.is_open()) return;
  std::string ms, per_row, x_floor, x_peer;
  if (m.status == Status::Ran) {
    ms = fmt::format("{:.6f}", m.ms);
    per_row = fmt::format("{:.6f}", m.ms * 1e6 / static_cast<double>(p.rows));
    if (p.floor.status == Status::Ran) x_floor = fmt::format("{:.4f}", m.ms / p.floor.ms);
    if (best_peer > 0) x_peer = fmt::format("{:.4f}", m.ms / best_peer);
  }
  csv_ << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", p.kind, p.dist, p.k, m.method,
                      status_name(m.status), p.rows, m.bytes, ms, per_row, x_floor, x_peer,
                      csv_quote(m.note));
  csv_.flush();
}

}  // namespace tally::bench
