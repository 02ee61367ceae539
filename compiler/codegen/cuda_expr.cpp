#include "compiler/codegen/cuda_expr.h"

#include <fmt/format.h>

#include <bit>
#include <set>
#include <utility>

#include "compiler/codegen/cuda_expr_internal.h"
#include "compiler/common/error.h"
#include "compiler/plan/expr_facts.h"
#include "compiler/plan/string_domain.h"

namespace tally {

using namespace cuda_text;

std::string cuda_type(const Type& t) {
  switch (t.id) {
    case TypeId::Boolean:
      return "bool";
    case TypeId::Decimal:
    case TypeId::HugeInt:
      return "i128";
    case TypeId::Real:
    case TypeId::Double:
      return "f64";
    default:
      return "i64";
  }
}

const char* plain_storage_type(const Type& t) {
  switch (t.id) {
    case TypeId::Boolean:
      return "u8";
    case TypeId::SmallInt:
      return "i16";
    case TypeId::Integer:
    case TypeId::Date:
      return "i32";
    case TypeId::Real:
      return "f32";
    case TypeId::Double:
      return "f64";
    case TypeId::Decimal:
    case TypeId::HugeInt:
      return t.is_wide() ? "i128" : "i64";
    default:
      return "i64";
  }
}

std::string kernel_head(const char* name, uint32_t block, int min_blocks, size_t arg_count) {
  // 4 KB is the kernel parameter size every CUDA 13 driver accepts: say so here rather than
  // fail at launch.
  constexpr size_t kMaxArgWords = 4096 / 8;
  if (arg_count > kMaxArgWords) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("a query whose kernels need {} arguments (columns, lookups, state) "
                            "on the GPU; at most {} fit the parameter block",
                            arg_count, kMaxArgWords));
  }
  return fmt::format(
      "extern \"C\" __global__ void __launch_bounds__({}, {}) {}(const __grid_constant__ "
      "KernelArgs<{}> arg_block)",
      block, min_blocks, name, arg_count);
}

int CudaArgs::add(ArgSlot slot) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    const ArgSlot& s = slots_[i];
    if (s.kind == slot.kind && s.index == slot.index && s.word == slot.word) {
      return static_cast<int>(i);
    }
  }
  slots_.push_back(slot);
  return static_cast<int>(slots_.size() - 1);
}

CudaExprEmitter::CudaExprEmitter(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                                 std::vector<DictLookup>& lookups, CudaArgs& args,
                                 std::string& preamble, SymbolTable& symbols,
                                 const std::vector<ColumnNames>& columns,
                                 std::vector<StringDomain>* string_domains)
    : query_(query),
      stats_(stats),
      lookups_(lookups),
      args_(args),
      preamble_(preamble),
      symbols_(symbols),
      columns_(columns),
      string_domains_(string_domains) {}

namespace {

// What a temporary holding `e` is called: its operation, in a word.
const char* value_hint(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Arith: {
      static const char* kOps[] = {"sum", "difference", "product", "quotient", "remainder"};
      return kOps[e.op];
    }
    case ExprKind::Negate:
      return "negated";
    case ExprKind::Abs:
      return "absolute";
    case ExprKind::Case:
      return "chosen";
    case ExprKind::Coalesce:
      return "coalesced";
    case ExprKind::Cast:
      return "cast";
    case ExprKind::Round:
      return "rounded";
    case ExprKind::Extract: {
      static const char* kFields[] = {"year", "month", "day"};
      return e.op <= kDay ? kFields[e.op] : "date_part";
    }
    case ExprKind::DateAdd:
      return "shifted_date";
    case ExprKind::Function:
      return function_value_hint(e.op);
    default:
      return "value";
  }
}

}  // namespace

CudaOperand CudaExprEmitter::declare(const Expr& e, std::string& out) {
  const std::string name = symbols_.fresh_pair(value_hint(e));
  out += fmt::format("{} {} = 0; bool {}_null = false;\n", value_type(e), name, name);
  return {name, name + "_null"};
}

std::string CudaExprEmitter::column_type(int scan_column) const {
  const Type& t = query_.scan[scan_column].type;
  // A DECIMAL column with a range is at most 18 digits: its payload is 64-bit already.
  if (t.is_decimal() && stats_[scan_column].has_range) return "i64";
  return cuda_type(t);
}

std::string CudaExprEmitter::value_type(const Expr& e) const {
  // DECIMAL values the statistics bound below 2^62 live in 64-bit registers: half the
  // registers and a fraction of the instructions of 128-bit arithmetic.
  if (e.type.is_decimal() && magnitude_log2(e, stats_) < 62) return "i64";
  return cuda_type(e.type);
}

int CudaExprEmitter::lookup_column(const Expr& e) const {
  return dictionary_lookup_column(e, query_);
}

void CudaExprEmitter::check_supported(const Expr& e) const {
  if (e.type.is_interval()) unsupported_on_gpu(fmt::format("the INTERVAL value \"{}\"", e.text));
  if (e.type.is_string() && e.kind != ExprKind::ColumnRef) return check_string(e);
  if (lookup_column(e) >= 0) return;
  StringRead read = string_read(e);
  if (read.kind == StringRead::Kind::Constant) return;
  if (read.kind == StringRead::Kind::PerString) return check_string(*read.source);
  if (read.kind == StringRead::Kind::TwoStrings) return check_string(*joint_string_domain(e));
  switch (e.kind) {
    case ExprKind::GroupKeyRef:
      if (static_cast<size_t>(e.index) < key_operands_.size()) return;
      unsupported_on_gpu("an expression above the aggregation");
    case ExprKind::AggregateRef:
      if (static_cast<size_t>(e.index) < aggregate_operands_.size()) return;
      unsupported_on_gpu("an expression above the aggregation");
    case ExprKind::ColumnRef:
    case ExprKind::Constant:
    case ExprKind::Parameter:
      return;
    default:
      break;
  }
  for (const auto& c : e.children) check_supported(*c);
}

void CudaExprEmitter::check_string(const Expr& e) const {
  if (string_domains_ == nullptr) {  // this program keeps no string domains
    if (e.kind == ExprKind::Constant) {
      unsupported_on_gpu("a string constant outside a predicate on one column");
    }
    if (e.kind == ExprKind::Parameter) {
      unsupported_on_gpu("a VARCHAR parameter outside a predicate on one column");
    }
    unsupported_on_gpu(fmt::format("the string expression \"{}\"", e.text));
  }
  string_domain_shape(e, query_, stats_);  // throws naming what has no bounded domain
  if (string_leaf_column(e, query_) != kNotStringLeaf) return;
  // CASE conditions run on the device like any predicate; the branches are strings again.
  for (size_t i = 0; i < e.children.size(); ++i) {
    bool condition = e.kind == ExprKind::Case && i % 2 == 0 && i + 1 < e.children.size();
    if (condition) {
      check_supported(*e.children[i]);
    } else {
      check_string(*e.children[i]);
    }
  }
}

int CudaExprEmitter::string_domain_of(const Expr& e) const {
  if (string_domains_ == nullptr || !e.type.is_string() || e.kind == ExprKind::ColumnRef) return -1;
  for (size_t d = 0; d < string_domains_->size(); ++d) {
    if (expr_equal(*(*string_domains_)[d].expr, e)) return static_cast<int>(d);
  }
  return -1;
}

namespace {

// An operation on parameters alone (CAST(? AS DATE) + INTERVAL '6' MONTH) gives every row the
// same value: the host evaluates it once an execution as a one-entry lookup, which the kernel
// reads once (cuda_expr_lookups.cpp), where each row recomputed it (a civil-date conversion,
// say). A failure still reaches only the rows that evaluate it.
bool same_in_every_row(const Expr& e) {
  return e.kind != ExprKind::Constant && e.kind != ExprKind::Parameter &&
         contains_kind(e, ExprKind::Parameter) && is_row_invariant(e);
}

}  // namespace

CudaOperand CudaExprEmitter::emit(const Expr& e, std::string& out) {
  // An INTERVAL's three parts have no device form; auto runs the CPU engine.
  if (e.type.is_interval()) unsupported_on_gpu(fmt::format("the INTERVAL value \"{}\"", e.text));
  // Inside a computed string every VARCHAR operand, a column's too, is an id of its domain.
  if (e.type.is_string() && (domain_ >= 0 || e.kind != ExprKind::ColumnRef)) {
    return emit_string(e, out);
  }
  // A non-string operand (a CASE condition) starts afresh: its strings have their own domains.
  struct Outside {
    int& domain;
    int saved;
    ~Outside() { domain = saved; }
  } outside{domain_, std::exchange(domain_, -1)};
  int column = lookup_column(e);
  if (column >= 0) return emit_lookup(e, column, out);
  StringRead read = string_read(e);
  if (read.kind == StringRead::Kind::PerString) return emit_per_string(e, *read.source, out);
  if (read.kind == StringRead::Kind::Constant) return emit_constant_lookup(e, out);
  if (read.kind == StringRead::Kind::TwoStrings) return emit_string_comparison(e, out);
  if (same_in_every_row(e)) return emit_constant_lookup(e, out);
  return emit_node(e, out);
}

CudaOperand CudaExprEmitter::emit_node(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return emit_column(e, out);
    case ExprKind::Constant:
      return emit_constant(e, out);
    case ExprKind::Parameter:
      return emit_parameter(e, out);
    case ExprKind::Arith:
      return emit_arith(e, out);
    case ExprKind::Compare:
      return emit_compare(e, out);
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
    case ExprKind::IsNull:
      return emit_logic(e, out);
    case ExprKind::InList:
      return emit_in_list(e, out);
    case ExprKind::Case:
      return emit_case(e, out);
    case ExprKind::Coalesce:
      return emit_coalesce(e, out);
    case ExprKind::Cast:
      return emit_cast(e, out);
    case ExprKind::Negate:
    case ExprKind::Abs:
      return emit_unary(e, out);
    case ExprKind::Round:
      return emit_round(e, out);
    case ExprKind::Extract:
    case ExprKind::DateAdd:
      return emit_date(e, out);
    case ExprKind::Function:
      return emit_function(e, out);
    case ExprKind::GroupingSetId:
      return {"(i32)grouping_set", "false"};  // the Scan's loop over the sets (group_slot.h)
    case ExprKind::GroupKeyRef:
    case ExprKind::AggregateRef: {
      const auto& operands = e.kind == ExprKind::GroupKeyRef ? key_operands_ : aggregate_operands_;
      if (static_cast<size_t>(e.index) < operands.size()) return operands[e.index];
      unsupported_on_gpu(fmt::format("the expression \"{}\" above the aggregation", e.text));
    }
    default:
      unsupported_on_gpu(fmt::format("the expression \"{}\"", e.text));
  }
}

void CudaExprEmitter::set_group_operands(std::vector<CudaOperand> keys,
                                         std::vector<CudaOperand> aggregates) {
  key_operands_ = std::move(keys);
  aggregate_operands_ = std::move(aggregates);
}

void CudaExprEmitter::set_column_operand(int scan_column, CudaOperand code) {
  column_operands_.emplace_back(scan_column, std::move(code));
}

CudaOperand CudaExprEmitter::column_operand(int scan_column) const {
  for (const auto& [column, operand] : column_operands_) {
    if (column == scan_column) return operand;
  }
  const ColumnNames& c = columns_.at(static_cast<size_t>(scan_column));
  return {c.value, c.null};
}

CudaOperand CudaExprEmitter::emit_column(const Expr& e, std::string&) {
  return column_operand(e.index);
}

CudaOperand CudaExprEmitter::emit_constant(const Expr& e, std::string& out) {
  const std::string name = symbols_.fresh_pair("constant");
  std::string value = "0";
  if (!e.value.null) {
    switch (e.type.id) {
      case TypeId::Boolean:
        value = e.value.i ? "true" : "false";
        break;
      case TypeId::Decimal:
      case TypeId::HugeInt:
        value = i128_literal(e.value.d);
        break;
      case TypeId::Real:
      case TypeId::Double:
        value = f64_literal(e.value.f);
        break;
      default:
        value = i64_literal(e.value.i);
    }
  }
  out += fmt::format("const {} {} = {}; const bool {}_null = {};\n", cuda_type(e.type), name, value,
                     name, e.value.null ? "true" : "false");
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_parameter(const Expr& e, std::string&) {
  bool declared = false;
  const std::string name = symbols_.declare(fmt::format("parameter{}", e.index),
                                            fmt::format("param{}", e.index + 1), declared, true);
  if (declared) {
    int low = args_.add({ArgKind::ParamWord, e.index, 0});
    // A lifted constant is never NULL: a constant flag lets the compiler fold the NULL logic
    // around it as it did around the constant.
    const bool lifted =
        query_.first_lifted_parameter >= 0 && e.index >= query_.first_lifted_parameter;
    const std::string null =
        lifted ? "false"
               : fmt::format("args[{}] != 0", args_.add({ArgKind::ParamWord, e.index, 2}));
    std::string value;
    switch (e.type.id) {
      case TypeId::Boolean:
        value = fmt::format("args[{}] != 0", low);
        break;
      case TypeId::Decimal:
      case TypeId::HugeInt:
        value = fmt::format("i128_from_words(args[{}], args[{}])", low,
                            args_.add({ArgKind::ParamWord, e.index, 1}));
        break;
      case TypeId::Real:
      case TypeId::Double:
        value = fmt::format("__longlong_as_double((long long)args[{}])", low);
        break;
      default:
        value = fmt::format("(i64)args[{}]", low);
    }
    preamble_ += fmt::format("  const {} {} = {};\n  const bool {}_null = {};\n", cuda_type(e.type),
                             name, value, name, null);
  }
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_compare(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand b = emit(*e.children[1], out);
  const std::string name = symbols_.fresh_pair("compared");
  out += fmt::format(
      "const bool {0}_null = {1} || {2};\nconst bool {0} = !{0}_null && {3} {4} 0;\n", name, a.null,
      b.null, compare_expr(e.children[0]->type, a.value, e.children[1]->type, b.value),
      compare_op(e.op));
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_logic(const Expr& e, std::string& out) {
  if (e.kind == ExprKind::Not || e.kind == ExprKind::IsNull) {
    CudaOperand a = emit(*e.children[0], out);
    const std::string name =
        symbols_.fresh_pair(e.kind == ExprKind::Not ? "negation" : "null_test");
    if (e.kind == ExprKind::Not) {
      out +=
          fmt::format("const bool {0}_null = {1}; const bool {0} = !{2};\n", name, a.null, a.value);
    } else {
      out += fmt::format("const bool {0}_null = false; const bool {0} = {1} != {2};\n", name,
                         a.null, e.negated ? "true" : "false");
    }
    return {name, name + "_null"};
  }
  // Lazy, like the CPU: once the result is decided the other operands never run.
  bool is_and = e.kind == ExprKind::And;
  const std::string name = symbols_.fresh_pair(is_and ? "all_true" : "any_true");
  const std::string decided = symbols_.fresh(name + "_decided");
  out += fmt::format("bool {0} = {1}; bool {0}_null = false; bool {2} = false;\n", name,
                     is_and ? "true" : "false", decided);
  for (const auto& child : e.children) {
    out += fmt::format("if (!{}) {{\n", decided);
    CudaOperand c = emit(*child, out);
    out += fmt::format(
        "if (!{0} && {1}{2}) {{ {3} = true; {4} = {5}; }} else if ({0}) {4}_null = true;\n}}\n",
        c.null, is_and ? "!" : "", c.value, decided, name, is_and ? "false" : "true");
  }
  out += fmt::format("if ({}) {}_null = false;\n", decided, name);
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_in_list(const Expr& e, std::string& out) {
  CudaOperand v = emit(*e.children[0], out);
  const std::string name = symbols_.fresh_pair("in_list");
  const std::string found = symbols_.fresh(name + "_found");
  const std::string saw_null = symbols_.fresh(name + "_saw_null");
  out += fmt::format("bool {0} = false; bool {0}_null = {1}; bool {2} = false, {3} = false;\n",
                     name, v.null, found, saw_null);
  out += fmt::format("if (!{}) {{\n", v.null);
  for (size_t i = 1; i < e.children.size(); ++i) {
    out += fmt::format("if (!{}) {{\n", found);
    CudaOperand item = emit(*e.children[i], out);
    out += fmt::format("if ({}) {} = true; else if ({} == 0) {} = true;\n}}\n", item.null, saw_null,
                       compare_expr(e.children[0]->type, v.value, e.children[i]->type, item.value),
                       found);
  }
  out +=
      fmt::format("if ({0}) {1} = {2}; else if ({3}) {1}_null = true; else {1} = {4};\n}}\n", found,
                  name, e.negated ? "false" : "true", saw_null, e.negated ? "true" : "false");
  return {name, name + "_null"};
}

CudaOperand CudaExprEmitter::emit_case(const Expr& e, std::string& out) {
  CudaOperand r = declare(e, out);
  const std::string taken = symbols_.fresh(r.value + "_taken");
  out += fmt::format("bool {} = false;\n", taken);
  size_t pairs = (e.children.size() - 1) / 2;
  for (size_t i = 0; i < pairs; ++i) {
    out += fmt::format("if (!{}) {{\n", taken);
    CudaOperand when = emit(*e.children[2 * i], out);
    out += fmt::format("if (!{} && {}) {{\n{} = true;\n", when.null, when.value, taken);
    CudaOperand then = emit(*e.children[2 * i + 1], out);
    out += fmt::format("{} = {}; {} = {};\n}}\n}}\n", r.value, then.value, r.null, then.null);
  }
  out += fmt::format("if (!{}) {{\n", taken);
  CudaOperand otherwise = emit(*e.children.back(), out);
  out += fmt::format("{} = {}; {} = {};\n}}\n", r.value, otherwise.value, r.null, otherwise.null);
  return r;
}

CudaOperand CudaExprEmitter::emit_coalesce(const Expr& e, std::string& out) {
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = true;\n", r.null);
  for (const auto& child : e.children) {
    out += fmt::format("if ({}) {{\n", r.null);
    CudaOperand c = emit(*child, out);
    out +=
        fmt::format("if (!{}) {{ {} = {}; {} = false; }}\n}}\n", c.null, r.value, c.value, r.null);
  }
  return r;
}

}  // namespace tally
