#include <algorithm>
#include <cctype>
#include <map>

#include "compiler/common/error.h"
#include "runtime/load/copy_loader.h"

namespace tally {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && lower(s.substr(s.size() - suffix.size())) == suffix;
}

bool parse_header(const std::string& value) {
  std::string v = lower(value);
  if (v.empty() || v == "true" || v == "on" || v == "1" || v == "t") return true;
  if (v == "false" || v == "off" || v == "0" || v == "f") return false;
  throw Error(ErrorKind::Unsupported, "COPY HEADER must be a boolean, not \"" + value + "\"");
}

char parse_delimiter(const std::string& value) {
  if (value == "\\t") return '\t';
  if (value.size() != 1) {
    throw Error(ErrorKind::Unsupported,
                "COPY DELIMITER must be a single character, not \"" + value + "\"");
  }
  return value[0];
}

}  // namespace

CopyOptions copy_options_from(const std::map<std::string, std::string>& options,
                              const std::string& file_path) {
  // sales.csv.gz reads as sales.csv does, decompressed.
  const std::string path =
      ends_with(file_path, ".gz") ? file_path.substr(0, file_path.size() - 3) : file_path;
  std::map<std::string, std::string> given;
  for (const auto& [key, value] : options) {
    std::string k = lower(key);
    if (k != "format" && k != "delimiter" && k != "header" && k != "null") {
      throw Error(ErrorKind::Unsupported, "COPY option \"" + key + "\" is not supported");
    }
    given[k] = value;
  }
  std::string format;
  if (given.count("format")) {
    format = lower(given["format"]);
    if (format != "csv" && format != "text") {
      throw Error(ErrorKind::Unsupported,
                  "COPY FORMAT \"" + given["format"] + "\" is not supported (csv, text)");
    }
  } else {
    format = ends_with(path, ".csv") ? "csv" : "text";
  }
  CopyOptions result;
  if (format == "csv") {
    result = {',', false, "", true, false, ""};
  } else if (ends_with(path, ".tbl")) {
    result = {'|', false, "", false, false, ""};  // TPC-H dbgen output: no escapes
  } else {
    result = {'\t', false, "\\N", false, true, ""};
  }
  if (given.count("delimiter")) result.delimiter = parse_delimiter(given["delimiter"]);
  if (given.count("header")) result.header = parse_header(given["header"]);
  if (given.count("null")) result.null_text = given["null"];
  char d = result.delimiter;
  if (d == '\n' || d == '\r' || (result.csv && d == '"') ||
      (result.backslash_escapes && d == '\\')) {
    throw Error(ErrorKind::Unsupported, "COPY DELIMITER cannot be this character");
  }
  return result;
}

}  // namespace tally
