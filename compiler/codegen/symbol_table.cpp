#include "compiler/codegen/symbol_table.h"

#include <algorithm>
#include <cctype>

#include "compiler/codegen/embedded_templates.h"

namespace tally {

namespace {

// C++ and CUDA words a generated name must not take, beside the device library's own.
constexpr const char* kReserved[] = {
    "auto",     "bool",          "break",        "case",        "char",      "const",
    "continue", "default",       "do",           "double",      "else",      "enum",
    "extern",   "false",         "float",        "for",         "goto",      "if",
    "inline",   "int",           "long",         "namespace",   "return",    "short",
    "signed",   "sizeof",        "static",       "struct",      "switch",    "this",
    "true",     "typedef",       "union",        "unsigned",    "using",     "void",
    "volatile", "while",         "new",          "delete",      "operator",  "template",
    "typename", "class",         "private",      "public",      "protected", "friend",
    "virtual",  "nullptr",       "constexpr",    "static_cast", "threadIdx", "blockIdx",
    "blockDim", "gridDim",       "warpSize",     "min",         "max",       "abs",
    "sqrt",     "args",          "arg_block",    "std",         "asm",       "register",
    "export",   "noexcept",      "decltype",     "concept",     "requires",  "mutable",
    "explicit", "static_assert", "thread_local", "alignas",     "alignof",   "and",
    "or",       "not",           "xor",          "bitand",      "bitor",     "compl",
};

// Every identifier of `text` outside its comments.
void reserve_identifiers(std::string_view text, std::unordered_set<std::string>& used) {
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (text.substr(i, 2) == "//") {
      i = std::min(text.find('\n', i), text.size());
    } else if (text.substr(i, 2) == "/*") {
      i = std::min(text.find("*/", i + 2), text.size());
    } else if (std::isalpha(c) || c == '_') {
      size_t end = i + 1;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
        ++end;
      }
      used.emplace(text.substr(i, end - i));
      i = end;
    } else {
      ++i;
    }
  }
}

const std::unordered_set<std::string>& reserved_identifiers() {
  static const std::unordered_set<std::string> reserved = [] {
    std::unordered_set<std::string> r(std::begin(kReserved), std::end(kReserved));
    for (const EmbeddedFile& file : embedded_templates()) reserve_identifiers(file.text, r);
    return r;
  }();
  return reserved;
}

}  // namespace

std::string identifier_from(std::string_view text) {
  std::string id;
  for (unsigned char c : text) {
    if (std::isalnum(c)) {
      id += static_cast<char>(std::tolower(c));
    } else if (!id.empty() && id.back() != '_') {
      id += '_';
    }
    if (id.size() >= 40) break;
  }
  while (!id.empty() && id.back() == '_') id.pop_back();
  if (id.empty()) return "v";
  if (std::isdigit(static_cast<unsigned char>(id.front()))) id = "v" + id;
  return id;
}

SymbolTable::SymbolTable() : used_(reserved_identifiers()) {}

std::string SymbolTable::take(std::string base, bool scoped, bool pair) {
  auto taken = [&](const std::string& n) {
    return used_.count(n) || (pair && used_.count(n + "_null"));
  };
  std::string name = base;
  int& next = counters_[base];
  if (taken(name) || next > 0) {
    next = std::max(next, 1);  // the second of a name is name1
    do {
      name = base + std::to_string(next++);
    } while (taken(name));
  } else {
    next = 1;
  }
  for (const std::string& n :
       pair ? std::vector<std::string>{name, name + "_null"} : std::vector<std::string>{name}) {
    used_.insert(n);
    if (scoped) scoped_.push_back(n);
  }
  return name;
}

std::string SymbolTable::fresh(std::string_view hint) { return take(identifier_from(hint), true); }

std::string SymbolTable::fresh_pair(std::string_view hint) {
  return take(identifier_from(hint), true, true);
}

std::string SymbolTable::declare(const std::string& key, std::string_view hint, bool& declared,
                                 bool pair) {
  auto it = declared_.find(key);
  declared = it == declared_.end();
  if (!declared) return it->second;
  std::string name = take(identifier_from(hint), false, pair);
  declared_.emplace(key, name);
  return name;
}

SymbolTable::Scope::~Scope() {
  while (t_.scoped_.size() > mark_) {
    t_.used_.erase(t_.scoped_.back());
    t_.scoped_.pop_back();
  }
  t_.counters_ = std::move(counters_);
}

}  // namespace tally
