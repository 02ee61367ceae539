#include "tools/fuzz/regression.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "compiler/common/error.h"
#include "tools/fuzz/corpus.h"

namespace tally::fuzz {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMarker = "-- tally-fuzz: ";

// The first word of `what`, for the file name: "crash", "hang", "internal", ...
std::string short_name(const std::string& what) {
  std::string name;
  for (char c : what) {
    if (!std::isalnum(static_cast<unsigned char>(c))) break;
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name.empty() ? "finding" : name;
}

// One header line holds no line break, whatever the message says.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

FuzzCase parse_regression(const std::string& text, const std::string& path) {
  FuzzCase c;
  c.origin = path;
  size_t at = 0;
  while (text.compare(at, kMarker.size(), kMarker) == 0) {
    size_t end = text.find('\n', at);
    std::string line =
        text.substr(at + kMarker.size(),
                    end == std::string::npos ? std::string::npos : end - at - kMarker.size());
    if (line.starts_with("context ")) {
      std::string where = line.substr(8);
      size_t colon = where.rfind(':');
      c.context.file = where.substr(0, colon);
      if (colon != std::string::npos) c.context.line = std::atoi(where.c_str() + colon + 1);
    }
    if (end == std::string::npos) {
      at = text.size();
      break;
    }
    at = end + 1;
  }
  c.sql = text.substr(at);
  return c;
}

}  // namespace

std::string write_regression(const std::string& dir, const FuzzCase& c, const std::string& what,
                             uint64_t seed, uint64_t index) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path path = fs::path(dir) / fmt::format("{}-s{}-i{}.sql", short_name(what), seed, index);
  std::ofstream out(path, std::ios::binary);
  out << kMarker << one_line(what) << '\n'
      << kMarker << fmt::format("seed {}, index {}, {}", seed, index, one_line(c.origin)) << '\n';
  if (!c.context.file.empty())
    out << kMarker << "context " << c.context.file << ':' << c.context.line << '\n';
  out << c.sql;
  out.close();
  if (!out) {
    std::cerr << "tally-fuzz: cannot write " << path.string() << "\n";
    return "";
  }
  return path.string();
}

std::vector<FuzzCase> read_regressions(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    if (fs::is_regular_file(p)) {
      files.emplace_back(p);
    } else if (fs::is_directory(p)) {
      for (const auto& entry : fs::directory_iterator(p))
        if (entry.is_regular_file() && entry.path().extension() == ".sql")
          files.push_back(entry.path());
    } else {
      throw Error(ErrorKind::Io, "regression path not found: " + p);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<FuzzCase> cases;
  for (const auto& f : files)
    cases.push_back(parse_regression(read_text_file(f.string()), f.string()));
  return cases;
}

}  // namespace tally::fuzz
