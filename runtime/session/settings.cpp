#include "runtime/session/settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "compiler/common/byte_size.h"
#include "compiler/common/suggest.h"

namespace tally {

namespace {

// What a bad value is told: the setting takes ...
struct BadValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// `value` (any case) if it is one of `choices`; "a, b or c" otherwise.
std::string one_of(const std::string& value, const std::vector<std::string>& choices) {
  std::string v = lower(value);
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
  std::string list = choices.front();
  for (size_t i = 1; i < choices.size(); ++i) {
    list += (i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  throw BadValue(list);
}

uint64_t whole_number(const std::string& value, uint64_t most, const char* what) {
  uint64_t n = 0;
  const char* end = value.data() + value.size();
  auto [at, ec] = std::from_chars(value.data(), end, n);
  if (value.empty() || ec != std::errc() || at != end || n > most) throw BadValue(what);
  return n;
}

std::string row_count(const std::string& value) {
  return std::to_string(whole_number(value, uint64_t{1} << 40, "a whole number of rows"));
}

// "", "all", or GPU ordinals "0,1" (which GPUs exist is checked when a query runs).
std::string device_list(const std::string& value) {
  std::string v = lower(value);
  if (v.empty() || v == "all") return v;
  bool digit_before = false;
  for (char c : v) {
    bool digit = c >= '0' && c <= '9';
    if (!digit && (c != ',' || !digit_before)) throw BadValue("all, or GPU ordinals such as 0,1");
    digit_before = digit;
  }
  if (!digit_before) throw BadValue("all, or GPU ordinals such as 0,1");
  return v;
}

// "on" or "off", from those or the booleans' other spellings.
std::string on_or_off(const std::string& value) {
  const std::string b = lower(value);
  if (b == "true" || b == "on" || b == "1") return "on";
  if (b == "false" || b == "off" || b == "0") return "off";
  throw BadValue("on or off");
}

// quick_kernels: on or off as a boolean, or "only".
std::string on_off_or_only(const std::string& value) {
  if (lower(value) == "only") return "only";
  try {
    return on_or_off(value);
  } catch (const BadValue&) {
    throw BadValue("on, off or only");
  }
}

const char* device_name(DeviceChoice d) {
  return d == DeviceChoice::Cpu ? "cpu" : d == DeviceChoice::Gpu ? "gpu" : "auto";
}

const char* cpu_path_name(CpuPath p) {
  return p == CpuPath::Row ? "row" : p == CpuPath::Vector ? "vector" : "auto";
}

struct Setting {
  const char* name;
  const char* description;
  std::string (*canonical)(const std::string& value);  // throws BadValue
  void (*apply)(ExecOptions& options, const std::string& value);
  std::string (*show)(const ExecOptions& options);
};

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"adaptive_compile",
       "under device auto, a new statement over a small table runs on the CPU engine while its "
       "GPU kernels compile in the background: on or off",
       on_or_off, [](ExecOptions& o, const std::string& v) { o.adaptive_compile = v == "on"; },
       [](const ExecOptions& o) { return std::string(o.adaptive_compile ? "on" : "off"); }},
      {"adaptive_compile_rows", "most rows of a table that adaptive_compile runs on the CPU engine",
       row_count,
       [](ExecOptions& o, const std::string& v) { o.adaptive_compile_rows = std::stoull(v); },
       [](const ExecOptions& o) { return std::to_string(o.adaptive_compile_rows); }},
      {"batch_rows", "rows of a batch streamed from host memory to the GPU (0: chosen)", row_count,
       [](ExecOptions& o, const std::string& v) { o.batch_rows = std::stoull(v); },
       [](const ExecOptions& o) { return std::to_string(o.batch_rows); }},
      {"coprocess", "the CPU engine beside one streaming GPU: on or off", on_or_off,
       [](ExecOptions& o, const std::string& v) { o.coprocess = v == "on"; },
       [](const ExecOptions& o) { return std::string(o.coprocess ? "on" : "off"); }},
      {"cpu_path", "the CPU engine's path: auto, row or vector",
       [](const std::string& v) {
         return one_of(v, {"auto", "row", "vector"});
       },
       [](ExecOptions& o, const std::string& v) {
         o.cpu_path = v == "row" ? CpuPath::Row : v == "vector" ? CpuPath::Vector : CpuPath::Auto;
       },
       [](const ExecOptions& o) { return std::string(cpu_path_name(o.cpu_path)); }},
      {"default_null_order",
       "where NULLs sort without NULLS FIRST/LAST: nulls_first, nulls_last, "
       "nulls_first_on_asc_last_on_desc or nulls_last_on_asc_first_on_desc",
       [](const std::string& v) {
         return one_of(v, {"nulls_first", "nulls_last", "nulls_first_on_asc_last_on_desc",
                           "nulls_last_on_asc_first_on_desc"});
       },
       [](ExecOptions& o, const std::string& v) { o.default_null_order = v; },
       [](const ExecOptions& o) { return o.default_null_order; }},
      {"device", "where SELECTs run: auto, cpu or gpu",
       [](const std::string& v) {
         return one_of(v, {"auto", "cpu", "gpu"});
       },
       [](ExecOptions& o, const std::string& v) {
         o.device = v == "cpu"   ? DeviceChoice::Cpu
                    : v == "gpu" ? DeviceChoice::Gpu
                                 : DeviceChoice::Auto;
       },
       [](const ExecOptions& o) { return std::string(device_name(o.device)); }},
      {"device_memory_limit", "GPU memory the engine may hold (0: all there is)",
       [](const std::string& v) {
         try {
           return std::to_string(parse_byte_size(v, "device_memory_limit"));
         } catch (const Error&) {
           throw BadValue("a size such as 512MiB, 2GB or 1073741824");
         }
       },
       [](ExecOptions& o, const std::string& v) { o.device_memory_limit = std::stoull(v); },
       [](const ExecOptions& o) {
         return o.device_memory_limit == 0 ? std::string("0") : format_bytes(o.device_memory_limit);
       }},
      {"devices", "GPUs a table is split across: '' (the first), all, or ordinals '0,1'",
       device_list, [](ExecOptions& o, const std::string& v) { o.devices = v; },
       [](const ExecOptions& o) { return o.devices; }},
      {"grouping_sets",
       "how the GPU runs GROUPING SETS, ROLLUP and CUBE: auto, one_pass or per_set",
       [](const std::string& v) {
         return one_of(v, {"auto", "one_pass", "per_set"});
       },
       [](ExecOptions& o, const std::string& v) { o.grouping_sets = v; },
       [](const ExecOptions& o) { return o.grouping_sets; }},
      {"interpreted_kernels",
       "a statement whose GPU kernels no cache holds runs at once on one precompiled "
       "interpreter, where it takes the statement, while its own kernels compile in the "
       "background (with quick_kernels on): on, off, or always (wherever it takes the statement)",
       [](const std::string& v) {
         return lower(v) == "always" ? std::string("always") : on_or_off(v);
       },
       [](ExecOptions& o, const std::string& v) { o.interpreted_kernels = v; },
       [](const ExecOptions& o) { return o.interpreted_kernels; }},
      {"placement", "where the GPU reads columns from: auto, device or host",
       [](const std::string& v) {
         return one_of(v, {"auto", "device", "host"});
       },
       [](ExecOptions& o, const std::string& v) { o.placement = v; },
       [](const ExecOptions& o) { return o.placement; }},
      {"quick_kernels",
       "a statement whose GPU kernels no cache holds runs on quick ones (a Scan that reads its "
       "rows one at a time: up to 8x faster to compile) while its unrolled ones compile in the "
       "background for its later runs: on, off, or only (always the quick ones)",
       on_off_or_only,
       [](ExecOptions& o, const std::string& v) {
         o.kernel_tiers = v == "on"     ? KernelTiers::QuickFirst
                          : v == "only" ? KernelTiers::QuickOnly
                                        : KernelTiers::Unrolled;
       },
       [](const ExecOptions& o) {
         return std::string(o.kernel_tiers == KernelTiers::QuickFirst  ? "on"
                            : o.kernel_tiers == KernelTiers::QuickOnly ? "only"
                                                                       : "off");
       }},
      {"strategy", "GPU grouping strategy: auto, thread, block, direct or hash",
       [](const std::string& v) {
         return one_of(v, {"auto", "thread", "block", "direct", "hash"});
       },
       [](ExecOptions& o, const std::string& v) { o.strategy = v; },
       [](const ExecOptions& o) { return o.strategy; }},
      {"threads", "CPU engine threads per query (0: one per CPU)",
       [](const std::string& v) {
         return std::to_string(whole_number(v, 4096, "a whole number of threads up to 4096"));
       },
       [](ExecOptions& o, const std::string& v) { o.cpu_threads = std::stoul(v); },
       [](const ExecOptions& o) { return std::to_string(o.cpu_threads); }},
      // Taken so that scripts written for PostgreSQL and DuckDB can say SET TimeZone = 'UTC';
      // TIMESTAMPTZ is always read and printed at UTC, so any other zone is refused.
      {"timezone", "the session time zone, always UTC (TIMESTAMPTZ prints +00)",
       [](const std::string& v) -> std::string {
         if (lower(v) != "utc" && lower(v) != "etc/utc") {
           throw BadValue("UTC only: named time zones and offsets are not supported");
         }
         return "UTC";
       },
       [](ExecOptions&, const std::string&) {},
       [](const ExecOptions&) { return std::string("UTC"); }},
  };
  return table;
}

// DuckDB's other spelling of a setting tally has.
std::string canonical_name(const std::string& name) {
  return name == "worker_threads" ? "threads" : name;
}

const Setting& find_setting(const std::string& name, SourceLocation at) {
  const std::string canonical = canonical_name(name);
  for (const Setting& s : settings()) {
    if (canonical == s.name) return s;
  }
  std::vector<std::string> known = SessionSettings::names();
  std::string list = known.front();
  for (size_t i = 1; i < known.size(); ++i) list += ", " + known[i];
  throw Error(ErrorKind::Binder,
              fmt::format("unrecognized setting \"{}\"{}; the settings are {}", name,
                          did_you_mean(name, known), list),
              at);
}

}  // namespace

std::vector<std::string> SessionSettings::names() {
  std::vector<std::string> names;
  for (const Setting& s : settings()) names.push_back(s.name);
  return names;
}

void SessionSettings::set(const std::string& name, const std::string& value, SourceLocation name_at,
                          SourceLocation value_at) {
  const Setting& setting = find_setting(name, name_at);
  try {
    values_[setting.name] = setting.canonical(value);
  } catch (const BadValue& e) {
    throw Error(ErrorKind::Execution,
                fmt::format("invalid value for setting \"{}\": \"{}\" (it takes {})", setting.name,
                            value, e.what()),
                value_at);
  }
}

void SessionSettings::reset(const std::string& name, SourceLocation at) {
  values_.erase(find_setting(name, at).name);
}

void SessionSettings::reset_all() { values_.clear(); }

ExecOptions SessionSettings::apply(ExecOptions base) const {
  for (const Setting& s : settings()) {
    auto it = values_.find(s.name);
    if (it != values_.end()) s.apply(base, it->second);
  }
  return base;
}

std::string SessionSettings::show(const std::string& name, const ExecOptions& base,
                                  SourceLocation at) const {
  return find_setting(name, at).show(apply(base));
}

std::vector<SettingRow> SessionSettings::show_all(const ExecOptions& base) const {
  const ExecOptions options = apply(base);
  std::vector<SettingRow> rows;
  for (const Setting& s : settings()) rows.push_back({s.name, s.show(options), s.description});
  return rows;
}

}  // namespace tally
