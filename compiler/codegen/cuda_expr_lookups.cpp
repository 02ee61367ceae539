// Strings and per-code lookups in generated expressions: values the host computes per
// dictionary code or string-domain id (compiler/plan/string_domain.h), read by the device.
#include <fmt/format.h>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/cuda_expr_internal.h"
#include "compiler/plan/string_domain.h"

namespace tally {

using namespace cuda_text;

CudaOperand CudaExprEmitter::emit_lookup(const Expr& e, int column, std::string& out) {
  int id = lookup_id({std::make_shared<Expr>(e), column});
  return read_lookup(e.type, id, code_index(column, out), out);
}

std::string CudaExprEmitter::code_index(int column, std::string& out) {
  const std::string code = symbols_.fresh(columns_[column].value + "_code");
  const CudaOperand value = column_operand(column);
  // NULL strings read the entry after the last code.
  out += fmt::format("const i64 {} = {} ? {}ll : {};\n", code, value.null,
                     stats_[column].dictionary_size, value.value);
  return code;
}

int CudaExprEmitter::lookup_id(const DictLookup& lookup) {
  for (size_t i = 0; i < lookups_.size(); ++i) {
    const DictLookup& l = lookups_[i];
    if (l.scan_column == lookup.scan_column && l.string_domain == lookup.string_domain &&
        l.domain_input == lookup.domain_input && expr_equal(*l.expr, *lookup.expr)) {
      return static_cast<int>(i);
    }
  }
  int id = static_cast<int>(lookups_.size());
  lookups_.push_back(lookup);
  // Tables by dictionary code are named after their column; the others, by string id.
  const std::string hint = lookup.scan_column >= 0
                               ? columns_[lookup.scan_column].value + "_by_code"
                               : std::string(lookup.domain_input >= 0 ? "by_string" : "host_value");
  bool declared = false;
  const std::string name = symbols_.declare(fmt::format("lookup{}", id), hint, declared, true);
  lookup_names_.push_back(name);
  preamble_ += fmt::format(
      "  const i128* __restrict__ const {0} = (const i128*)args[{1}];\n"
      "  const u8* __restrict__ const {0}_null = (const u8*)args[{2}];\n"
      "  (void){0}; (void){0}_null;\n",
      name, args_.add({ArgKind::LookupValues, id}), args_.add({ArgKind::LookupNulls, id}));
  return id;
}

CudaOperand CudaExprEmitter::read_lookup(const Type& type, int id, const std::string& index,
                                         std::string& out) {
  const DictLookup& lookup = lookups_.at(static_cast<size_t>(id));
  const bool constant = lookup.scan_column < 0 && lookup.domain_input < 0;
  if (constant) return read_constant_lookup(type, id, out);
  const std::string name = symbols_.fresh_pair("looked_up");
  const std::string& table = lookup_names_.at(static_cast<size_t>(id));
  const std::string value = lookup_value(type, table, index);
  // Flag 2: evaluating this entry on the host failed (a cast, say); the row reports it.
  out += fmt::format(
      "const {0} {1} = {2}; const bool {1}_null = {3}_null[{4}] != 0;\n"
      "if ({3}_null[{4}] == 2) raise_status(status, kStatusLookupError);\n",
      cuda_type(type), name, value, table, index);
  return {name, name + "_null"};
}

// A lookup of no column (a string constant's id in a CASE's domain) has one entry: the kernel
// reads it once, and a row that evaluates it only checks the host's failure flag.
CudaOperand CudaExprEmitter::read_constant_lookup(const Type& type, int id, std::string& out) {
  if (constant_lookups_.size() <= static_cast<size_t>(id)) constant_lookups_.resize(id + 1);
  std::string& name = constant_lookups_[static_cast<size_t>(id)];
  const std::string& table = lookup_names_.at(static_cast<size_t>(id));
  if (name.empty()) {
    name = symbols_.fresh_pair(table + "_at0");
    preamble_ += fmt::format(
        "  const {0} {1} = {2}; const bool {1}_null = {3}_null[0] != 0;\n"
        "  const bool {1}_failed = {3}_null[0] == 2;\n"
        "  (void){1}; (void){1}_null; (void){1}_failed;\n",
        cuda_type(type), name, lookup_value(type, table, "0"), table);
  }
  out += fmt::format("if ({}_failed) raise_status(status, kStatusLookupError);\n", name);
  return {name, name + "_null"};
}

std::string CudaExprEmitter::lookup_value(const Type& type, const std::string& table,
                                          const std::string& index) const {
  std::string value;
  switch (type.id) {
    case TypeId::Boolean:
      value = fmt::format("{}[{}] != 0", table, index);
      break;
    case TypeId::Decimal:
    case TypeId::HugeInt:
      value = fmt::format("{}[{}]", table, index);
      break;
    case TypeId::Real:
    case TypeId::Double:
      value = fmt::format("__longlong_as_double((long long)i128_low({}[{}]))", table, index);
      break;
    default:
      value = fmt::format("(i64){}[{}]", table, index);
  }
  return value;
}

int CudaExprEmitter::domain_for(const Expr& e) {
  int d = string_domain_of(e);
  if (d >= 0) return d;
  check_string(e);
  StringDomainShape shape = string_domain_shape(e, query_, stats_);
  string_domains_->push_back({std::make_shared<Expr>(e), shape.bound});
  return static_cast<int>(string_domains_->size() - 1);
}

CudaOperand CudaExprEmitter::emit_string(const Expr& e, std::string& out) {
  if (domain_ < 0) {
    domain_ = domain_for(e);
    CudaOperand id = emit_string(e, out);
    domain_ = -1;
    return id;
  }
  int column = string_leaf_column(e, query_);
  if (column != kNotStringLeaf) {
    int id = lookup_id({std::make_shared<Expr>(e), column, domain_});
    return read_lookup(e.type, id, column < 0 ? "0" : code_index(column, out), out);
  }
  // check_string admitted only CASE and COALESCE here; both pick among their operands' ids.
  if (e.kind == ExprKind::Case) return emit_case(e, out);
  return emit_coalesce(e, out);
}

CudaOperand CudaExprEmitter::emit_per_string(const Expr& e, const Expr& source, std::string& out) {
  CudaOperand string = emit(source, out);
  int domain = string_domain_of(source);
  if (domain < 0) {
    throw Error(ErrorKind::Internal, fmt::format("no string domain for \"{}\"", source.text));
  }
  ExprPtr input = make_column_ref(0, source.type, source.text);
  DictLookup lookup{replace_subexpression(std::make_shared<Expr>(e), source, input), -1};
  lookup.domain_input = domain;
  int id = lookup_id(lookup);
  const std::string index = symbols_.fresh("string_id");
  // NULL reads the entry at the domain's bound.
  out += fmt::format("const i64 {} = {} ? {}ll : {};\n", index, string.null,
                     (*string_domains_)[domain].bound, string.value);
  return read_lookup(e.type, id, index, out);
}

CudaOperand CudaExprEmitter::emit_string_comparison(const Expr& e, std::string& out) {
  // The domain's ids are its strings in the CPU engine's order, one id a string, so the
  // two ids compare as the two strings do.
  const int joint = domain_for(*joint_string_domain(e));
  CudaOperand sides[2];
  for (int i = 0; i < 2; ++i) {
    domain_ = joint;
    sides[i] = emit_string(*e.children[i], out);
  }
  domain_ = -1;
  const std::string name = symbols_.fresh_pair("compared");
  out += fmt::format(
      "const bool {0}_null = {1} || {2};\nconst bool {0} = !{0}_null && {3} {4} {5};\n", name,
      sides[0].null, sides[1].null, sides[0].value, compare_op(e.op), sides[1].value);
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_constant_lookup(const Expr& e, std::string& out) {
  return read_lookup(e.type, lookup_id({std::make_shared<Expr>(e), -1}), "0", out);
}

}  // namespace tally
