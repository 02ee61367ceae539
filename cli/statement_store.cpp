#include "cli/statement_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "compiler/common/error.h"
#include "compiler/common/suggest.h"
#include "runtime/compile/kernel_cache_dir.h"
#include "runtime/compile/sha256.h"

namespace tally {

namespace {

constexpr std::string_view kMagic = "tally prepared statement v1\n";
constexpr std::string_view kChecksumField = "checksum ";
constexpr size_t kMaxNameLength = 64;

bool name_char(char c, bool first) {
  bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return letter || (!first && c >= '0' && c <= '9');
}

Error corrupt(const std::string& problem) { return Error(ErrorKind::Cache, problem); }

// Reads "<field> <value>\n" lines in a fixed order from the body.
class FieldReader {
 public:
  explicit FieldReader(std::string_view body) : rest_(body) {}

  std::string_view value(std::string_view field) {
    size_t end = rest_.find('\n');
    std::string_view line = rest_.substr(0, end);
    if (end == std::string_view::npos || !line.starts_with(field) || line.size() <= field.size() ||
        line[field.size()] != ' ') {
      throw corrupt(fmt::format("the field \"{}\" is missing or malformed", field));
    }
    rest_.remove_prefix(end + 1);
    return line.substr(field.size() + 1);
  }

  // A field that statements stored by older versions lack: "" when the next line is
  // another field.
  std::string_view optional_value(std::string_view field) {
    if (!rest_.starts_with(std::string(field) + " ")) return {};
    return value(field);
  }

  template <typename Number>
  Number number(std::string_view field) {
    std::string_view text = value(field);
    Number n{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw corrupt(fmt::format("the field \"{}\" is not a number: {}", field, text));
    }
    return n;
  }

  // The last `count` bytes and their newline, which must end the body.
  std::string_view tail(size_t count) {
    if (rest_.size() != count + 1 || rest_.back() != '\n') {
      throw corrupt(
          fmt::format("the SQL text has {} bytes, not the {} recorded", rest_.size() - 1, count));
    }
    return rest_.substr(0, count);
  }

 private:
  std::string_view rest_;
};

std::string encode_body(const StoredStatement& s) {
  std::string body =
      fmt::format("name {}\ntpch {}\norders {}\natable {}\nzipf {}\nseed {}\nparameters {}\n",
                  s.name, s.data.tpch_sf, s.data.orders_rows, s.data.atable_rows, s.data.zipf,
                  s.data.seed, s.parameter_types.size());
  // After "parameters": older readers stop at the count, so the field goes last of the
  // fixed ones only when present.
  if (!s.data.database.empty())
    body.insert(body.rfind("parameters "), "database " + s.data.database + "\n");
  for (const auto& type : s.parameter_types) body += fmt::format("parameter {}\n", type);
  body += fmt::format("sql {}\n{}\n", s.sql.size(), s.sql);
  return body;
}

StoredStatement decode_body(std::string_view body) {
  FieldReader in(body);
  StoredStatement s;
  s.name = std::string(in.value("name"));
  s.data.tpch_sf = in.number<double>("tpch");
  s.data.orders_rows = in.number<uint64_t>("orders");
  s.data.atable_rows = in.number<uint64_t>("atable");
  s.data.zipf = in.number<double>("zipf");
  s.data.seed = in.number<uint64_t>("seed");
  s.data.database = std::string(in.optional_value("database"));
  auto count = in.number<size_t>("parameters");
  for (size_t i = 0; i < count; ++i) s.parameter_types.emplace_back(in.value("parameter"));
  s.sql = std::string(in.tail(in.number<size_t>("sql")));
  return s;
}

}  // namespace

void check_statement_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= kMaxNameLength;
  for (size_t i = 0; ok && i < name.size(); ++i) ok = name_char(name[i], i == 0);
  if (!ok) {
    throw Error(ErrorKind::Catalog,
                fmt::format("\"{}\" is not a statement name: use letters, digits and '_', "
                            "starting with a letter or '_', at most {} characters",
                            name, kMaxNameLength));
  }
}

std::string encode_statement(const StoredStatement& statement) {
  std::string body = encode_body(statement);
  return fmt::format("{}{}{}\n{}", kMagic, kChecksumField, to_hex(sha256(body)), body);
}

StoredStatement decode_statement(std::string_view bytes) {
  if (!bytes.starts_with(kMagic)) throw corrupt("it is not a tally prepared statement file");
  bytes.remove_prefix(kMagic.size());
  size_t end = bytes.find('\n');
  std::string_view line = bytes.substr(0, end);
  if (end == std::string_view::npos || !line.starts_with(kChecksumField)) {
    throw corrupt("the checksum line is missing");
  }
  std::string_view body = bytes.substr(end + 1);
  if (line.substr(kChecksumField.size()) != to_hex(sha256(body))) {
    throw corrupt("checksum mismatch: the file is truncated or was changed");
  }
  return decode_body(body);
}

StatementStore StatementStore::from_environment() {
  fs::path cache = default_kernel_cache_directory();
  if (cache.empty()) {
    throw Error(ErrorKind::Cache,
                "no place for prepared statements: set TALLY_CACHE_DIR, XDG_CACHE_HOME or HOME");
  }
  return StatementStore(cache / "statements");
}

fs::path StatementStore::path_of(const std::string& name) const {
  check_statement_name(name);
  return directory_ / (name + std::string(kStatementSuffix));
}

void StatementStore::save(const StoredStatement& statement) const {
  fs::path path = path_of(statement.name);
  write_file_atomically(directory_, path.filename().string(), encode_statement(statement));
}

StoredStatement StatementStore::load(const std::string& name) const {
  fs::path path = path_of(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      throw Error(ErrorKind::Catalog, fmt::format("prepared statement \"{}\" does not exist{}",
                                                  name, did_you_mean(name, names())));
    }
    throw Error(ErrorKind::Cache, fmt::format("cannot read {}", path.string()));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  try {
    StoredStatement statement = decode_statement(bytes.str());
    if (statement.name != name) throw corrupt(fmt::format("it names \"{}\"", statement.name));
    return statement;
  } catch (const Error& e) {
    throw Error(ErrorKind::Cache,
                fmt::format("prepared statement \"{}\" is unusable ({}: {}); prepare it again",
                            name, path.string(), e.what()));
  }
}

std::vector<std::string> StatementStore::names() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(directory_, ec)) {
    const fs::path& path = item.path();
    if (path.extension() == kStatementSuffix) names.push_back(path.stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool StatementStore::remove(const std::string& name) const {
  std::error_code ec;
  return fs::remove(path_of(name), ec);
}

}  // namespace tally
