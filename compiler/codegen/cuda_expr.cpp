#include "compiler/codegen/cuda_expr.h"

#include <fmt/format.h>

#include <bit>
#include <set>
#include <utility>

#include "compiler/common/error.h"
#include "compiler/plan/expr_facts.h"
#include "compiler/plan/string_domain.h"

namespace tally {

std::string cuda_type(const Type& t) {
  switch (t.id) {
    case TypeId::Boolean:
      return "bool";
    case TypeId::Decimal:
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
      return t.is_wide_decimal() ? "i128" : "i64";
    default:
      return "i64";
  }
}

std::string kernel_definition(const char* name, uint32_t block, int min_blocks, size_t arg_count,
                              const std::string& body) {
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
      "KernelArgs<{}> arg_block) {{\n  const u64* __restrict__ args = arg_block.words;\n{}}}\n\n",
      block, min_blocks, name, arg_count, body);
}

std::string indent_lines(const std::string& text, const std::string& by) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += by + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
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

namespace {

[[noreturn]] void unsupported(const std::string& what) {
  throw Error(ErrorKind::Unsupported, what + " is not supported on the GPU yet");
}

std::string i64_literal(int64_t v) {
  if (v == INT64_MIN) return "(i64)(-9223372036854775807ll - 1)";
  return fmt::format("(i64){}ll", v);
}

std::string i128_literal(int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX)
    return fmt::format("(i128){}", i64_literal(static_cast<int64_t>(v)));
  auto u = static_cast<unsigned __int128>(v);
  return fmt::format("i128_from_words({}ull, {}ull)", static_cast<uint64_t>(u),
                     static_cast<uint64_t>(u >> 64));
}

std::string f64_literal(double v) {
  return fmt::format("__longlong_as_double({}ll)", std::bit_cast<int64_t>(v));
}

// The range of an integer-like SQL type, for check_int.
std::pair<std::string, std::string> int_range(const Type& t) {
  switch (t.id) {
    case TypeId::SmallInt:
      return {"-32768ll", "32767ll"};
    case TypeId::Integer:
    case TypeId::Date:
      return {"(i64)kI32Min", "(i64)kI32Max"};
    default:
      return {"kI64Min", "kI64Max"};
  }
}

const char* compare_op(int op) {
  switch (op) {
    case kEq:
      return "==";
    case kNe:
      return "!=";
    case kLt:
      return "<";
    case kLe:
      return "<=";
    case kGt:
      return ">";
    default:
      return ">=";
  }
}

}  // namespace

CudaExprEmitter::CudaExprEmitter(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                                 std::vector<DictLookup>& lookups, CudaArgs& args,
                                 std::string& preamble, std::vector<StringDomain>* string_domains)
    : query_(query),
      stats_(stats),
      lookups_(lookups),
      args_(args),
      preamble_(preamble),
      string_domains_(string_domains) {}

std::string CudaExprEmitter::fresh() { return fmt::format("t{}", counter_++); }

CudaOperand CudaExprEmitter::declare(const Expr& e, std::string& out) {
  std::string name = fresh();
  out += fmt::format("{} {} = 0; bool {}_n = false;\n", value_type(e), name, name);
  return {name, name + "_n"};
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
  if (e.type.is_string() && e.kind != ExprKind::ColumnRef) return check_string(e);
  if (lookup_column(e) >= 0) return;
  StringRead read = string_read(e);
  if (read.kind == StringRead::Kind::Constant) return;
  if (read.kind == StringRead::Kind::PerString) return check_string(*read.source);
  switch (e.kind) {
    case ExprKind::GroupKeyRef:
    case ExprKind::AggregateRef:
      unsupported("an expression above the aggregation");
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
      unsupported("a string constant outside a predicate on one column");
    }
    if (e.kind == ExprKind::Parameter) {
      unsupported("a VARCHAR parameter outside a predicate on one column");
    }
    unsupported(fmt::format("the string expression \"{}\"", e.text));
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

CudaOperand CudaExprEmitter::emit(const Expr& e, std::string& out) {
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
    default:
      unsupported(fmt::format("the expression \"{}\"", e.text));
  }
}

CudaOperand CudaExprEmitter::emit_column(const Expr& e, std::string&) {
  return {fmt::format("c{}", e.index), fmt::format("c{}_n", e.index)};
}

CudaOperand CudaExprEmitter::emit_constant(const Expr& e, std::string& out) {
  std::string name = fresh();
  std::string value = "0";
  if (!e.value.null) {
    switch (e.type.id) {
      case TypeId::Boolean:
        value = e.value.i ? "true" : "false";
        break;
      case TypeId::Decimal:
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
  out += fmt::format("const {} {} = {}; const bool {}_n = {};\n", cuda_type(e.type), name, value,
                     name, e.value.null ? "true" : "false");
  return {name, name + "_n"};
}

CudaOperand CudaExprEmitter::emit_parameter(const Expr& e, std::string&) {
  std::string name = fmt::format("p{}", e.index);
  if (preamble_.find("const bool " + name + "_n") == std::string::npos) {
    int low = args_.add({ArgKind::ParamWord, e.index, 0});
    int null = args_.add({ArgKind::ParamWord, e.index, 2});
    std::string value;
    switch (e.type.id) {
      case TypeId::Boolean:
        value = fmt::format("args[{}] != 0", low);
        break;
      case TypeId::Decimal:
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
    preamble_ += fmt::format("  const {} {} = {};\n  const bool {}_n = args[{}] != 0;\n",
                             cuda_type(e.type), name, value, name, null);
  }
  return {name, name + "_n"};
}

CudaOperand CudaExprEmitter::emit_lookup(const Expr& e, int column, std::string& out) {
  int id = lookup_id({std::make_shared<Expr>(e), column});
  return read_lookup(e.type, id, code_index(column, out), out);
}

std::string CudaExprEmitter::code_index(int column, std::string& out) {
  std::string code = fresh();
  // NULL strings read the entry after the last code.
  out += fmt::format("const i64 {} = c{}_n ? {}ll : c{};\n", code, column,
                     stats_[column].dictionary_size, column);
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
  preamble_ += fmt::format(
      "  const i128* __restrict__ const lk{0} = (const i128*)args[{1}];\n"
      "  const u8* __restrict__ const lk{0}_n = (const u8*)args[{2}];\n"
      "  (void)lk{0}; (void)lk{0}_n;\n",
      id, args_.add({ArgKind::LookupValues, id}), args_.add({ArgKind::LookupNulls, id}));
  return id;
}

CudaOperand CudaExprEmitter::read_lookup(const Type& type, int id, const std::string& index,
                                         std::string& out) {
  std::string name = fresh();
  std::string value;
  switch (type.id) {
    case TypeId::Boolean:
      value = fmt::format("lk{}[{}] != 0", id, index);
      break;
    case TypeId::Decimal:
      value = fmt::format("lk{}[{}]", id, index);
      break;
    case TypeId::Real:
    case TypeId::Double:
      value = fmt::format("__longlong_as_double((long long)i128_low(lk{}[{}]))", id, index);
      break;
    default:
      value = fmt::format("(i64)lk{}[{}]", id, index);
  }
  // Flag 2: evaluating this entry on the host failed (a cast, say); the row reports it.
  out += fmt::format(
      "const {0} {1} = {2}; const bool {1}_n = lk{3}_n[{4}] != 0;\n"
      "if (lk{3}_n[{4}] == 2) raise_status(status, kStatusLookupError);\n",
      cuda_type(type), name, value, id, index);
  return {name, name + "_n"};
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
  std::string index = fresh();
  // NULL reads the entry at the domain's bound.
  out += fmt::format("const i64 {} = {} ? {}ll : {};\n", index, string.null,
                     (*string_domains_)[domain].bound, string.value);
  return read_lookup(e.type, id, index, out);
}

CudaOperand CudaExprEmitter::emit_constant_lookup(const Expr& e, std::string& out) {
  return read_lookup(e.type, lookup_id({std::make_shared<Expr>(e), -1}), "0", out);
}

namespace {

// 10^k modulo 2^bits, as an unsigned literal of that width.
std::string pow10_modulo(int k, int bits) {
  unsigned __int128 p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return bits == 32 ? fmt::format("{}u", static_cast<uint32_t>(p))
                    : fmt::format("{}ull", static_cast<uint64_t>(p));
}

}  // namespace

// a * 10^ka +/- b * 10^kb into e's value. A result the statistics bound below 2^31 (2^63)
// is computed in 32-bit (64-bit) unsigned arithmetic: modulo 2^n every step agrees with the
// exact one, and the exact result fits, so its low n bits, sign-extended, are the result.
// In 128 bits the compiler kept carries between words that are always zero (Q1's
// 1 - l_discount cost three instructions more per row).
std::string CudaExprEmitter::scaled_add(const Expr& e, long double magnitude, const std::string& r,
                                        const std::string& a, int ka, const std::string& b,
                                        int kb) const {
  const char* op = e.op == kAdd ? "+" : "-";
  if (magnitude < 63) {
    const int bits = magnitude < 31 ? 32 : 64;
    const char* word = bits == 32 ? "u32" : "u64";
    return fmt::format("  {} = (i64)({})(({}){} * {} {} ({}){} * {});\n", r,
                       bits == 32 ? "i32" : "i64", word, a, pow10_modulo(ka, bits), op, word, b,
                       pow10_modulo(kb, bits));
  }
  return fmt::format("  {} = {} * pow10_i128({}) {} {} * pow10_i128({});\n", r, a, ka, op, b, kb);
}

CudaOperand CudaExprEmitter::emit_arith(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand b = emit(*e.children[1], out);
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = {} || {};\nif (!{}) {{\n", r.null, a.null, b.null, r.null);
  const Type& ta = e.children[0]->type;
  const Type& tb = e.children[1]->type;
  static const char* kOps[] = {"+", "-", "*", "/", "%"};
  if (e.type.is_decimal()) {
    int s = e.type.scale, sa = ta.scale, sb = tb.scale;
    // Operands below 10^p each: where the exact result's digits fit 38, no check is needed.
    // Or where the statistics bound the result below 2^126 < 10^38.
    const long double magnitude = magnitude_log2(e, stats_);
    bool bounded = magnitude < 126;
    bool add_fits = std::max(ta.precision - sa, tb.precision - sb) + s + 1 <= 38 || bounded;
    bool mul_fits = ta.precision + tb.precision <= 38 || bounded;
    if ((e.op == kAdd || e.op == kSub) && add_fits) {
      out += scaled_add(e, magnitude, r.value, a.value, s - sa, b.value, s - sb) + "}\n";
      return r;
    }
    if (e.op == kMul && mul_fits) {
      // Factors in [0, 2^32) multiply as one unsigned 32 x 32 -> 64-bit instruction
      // (IMAD.WIDE.U32); signed ones below 2^31 as a signed one plus a sign fix-up; wider
      // ones take three.
      auto unsigned32 = [&](const Expr& x) {
        ValueBounds v = value_bounds(x, stats_);
        return v.known && v.lo >= 0 && v.hi < 4294967296.0L;
      };
      bool narrow = magnitude_log2(*e.children[0], stats_) < 31 &&
                    magnitude_log2(*e.children[1], stats_) < 31;
      if (unsigned32(*e.children[0]) && unsigned32(*e.children[1])) {
        out += fmt::format("  {} = (i64)((u64)(u32){} * (u64)(u32){});\n}}\n", r.value, a.value,
                           b.value);
      } else if (narrow) {
        out += fmt::format("  {} = (i64)(i32){} * (i64)(i32){};\n}}\n", r.value, a.value, b.value);
      } else {
        out += fmt::format("  {} = {} * {};\n}}\n", r.value, a.value, b.value);
      }
      return r;
    }
    switch (e.op) {
      case kAdd:
      case kSub:
        out += fmt::format(
            "  const i128 x = upscale_checked({}, {}, status), y = upscale_checked({}, {}, "
            "status);\n"
            "  {} = add_digits_checked(x, {}y, status);\n",
            a.value, s - sa, b.value, s - sb, r.value, e.op == kSub ? "-" : "");
        break;
      case kMul:
        out += fmt::format("  {} = mul_checked({}, {}, status);\n", r.value, a.value, b.value);
        break;
      case kDiv:
        out += fmt::format(
            "  if (!is_zero_divisor({1} == 0, status)) {0} = div_round_i128(upscale_checked({2}, "
            "{3}, status), {1});\n",
            r.value, b.value, a.value, s - sa + sb);
        break;
      default:
        out += fmt::format(
            "  const i128 x = upscale_checked({}, {}, status), y = upscale_checked({}, {}, "
            "status);\n"
            "  if (!is_zero_divisor(y == 0, status)) {} = x % y;\n",
            a.value, s - sa, b.value, s - sb, r.value);
    }
  } else if (e.type.is_float()) {
    if (e.op == kDiv || e.op == kMod) {
      out += fmt::format("  if (!is_zero_divisor({} == 0.0, status)) {} = {};\n", b.value, r.value,
                         e.op == kDiv ? fmt::format("{} / {}", a.value, b.value)
                                      : fmt::format("fmod({}, {})", a.value, b.value));
    } else {
      out += fmt::format("  {} = {} {} {};\n", r.value, a.value, kOps[e.op], b.value);
    }
  } else {
    auto [lo, hi] = int_range(e.type);
    std::string expr = fmt::format("(i128){} {} (i128){}", a.value, kOps[e.op], b.value);
    if (e.op == kDiv || e.op == kMod) {
      out += fmt::format(
          "  if (!is_zero_divisor({} == 0, status)) {} = check_int({}, {}, {}, status);\n", b.value,
          r.value, expr, lo, hi);
    } else {
      out += fmt::format("  {} = check_int({}, {}, {}, status);\n", r.value, expr, lo, hi);
    }
  }
  out += "}\n";
  return r;
}

namespace {

// C expression comparing two operands of one type class: negative, zero or positive.
std::string compare_expr(const Type& ta, const std::string& a, const Type& tb,
                         const std::string& b) {
  if (ta.is_decimal()) return fmt::format("cmp_decimal({}, {}, {}, {})", a, ta.scale, b, tb.scale);
  if (ta.is_float()) return fmt::format("cmp_f64({}, {})", a, b);
  return fmt::format("(({0}) < ({1}) ? -1 : (({0}) > ({1}) ? 1 : 0))", a, b);
}

}  // namespace

CudaOperand CudaExprEmitter::emit_compare(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand b = emit(*e.children[1], out);
  std::string name = fresh();
  out += fmt::format("const bool {0}_n = {1} || {2};\nconst bool {0} = !{0}_n && {3} {4} 0;\n",
                     name, a.null, b.null,
                     compare_expr(e.children[0]->type, a.value, e.children[1]->type, b.value),
                     compare_op(e.op));
  return {name, name + "_n"};
}

CudaOperand CudaExprEmitter::emit_logic(const Expr& e, std::string& out) {
  if (e.kind == ExprKind::Not || e.kind == ExprKind::IsNull) {
    CudaOperand a = emit(*e.children[0], out);
    std::string name = fresh();
    if (e.kind == ExprKind::Not) {
      out += fmt::format("const bool {0}_n = {1}; const bool {0} = !{2};\n", name, a.null, a.value);
    } else {
      out += fmt::format("const bool {0}_n = false; const bool {0} = {1} != {2};\n", name, a.null,
                         e.negated ? "true" : "false");
    }
    return {name, name + "_n"};
  }
  // Lazy, like the CPU: once the result is decided the other operands never run.
  bool is_and = e.kind == ExprKind::And;
  std::string name = fresh();
  std::string decided = name + "_d";
  out += fmt::format("bool {0} = {1}; bool {0}_n = false; bool {2} = false;\n", name,
                     is_and ? "true" : "false", decided);
  for (const auto& child : e.children) {
    out += fmt::format("if (!{}) {{\n", decided);
    CudaOperand c = emit(*child, out);
    out += fmt::format(
        "if (!{0} && {1}{2}) {{ {3} = true; {4} = {5}; }} else if ({0}) {4}_n = true;\n}}\n",
        c.null, is_and ? "!" : "", c.value, decided, name, is_and ? "false" : "true");
  }
  out += fmt::format("if ({}) {}_n = false;\n", decided, name);
  return {name, name + "_n"};
}

CudaOperand CudaExprEmitter::emit_in_list(const Expr& e, std::string& out) {
  CudaOperand v = emit(*e.children[0], out);
  std::string name = fresh();
  std::string found = name + "_f", saw_null = name + "_s";
  out += fmt::format("bool {0} = false; bool {0}_n = {1}; bool {2} = false, {3} = false;\n", name,
                     v.null, found, saw_null);
  out += fmt::format("if (!{}) {{\n", v.null);
  for (size_t i = 1; i < e.children.size(); ++i) {
    out += fmt::format("if (!{}) {{\n", found);
    CudaOperand item = emit(*e.children[i], out);
    out += fmt::format("if ({}) {} = true; else if ({} == 0) {} = true;\n}}\n", item.null, saw_null,
                       compare_expr(e.children[0]->type, v.value, e.children[i]->type, item.value),
                       found);
  }
  out += fmt::format("if ({0}) {1} = {2}; else if ({3}) {1}_n = true; else {1} = {4};\n}}\n", found,
                     name, e.negated ? "false" : "true", saw_null, e.negated ? "true" : "false");
  return {name, name + "_n"};
}

CudaOperand CudaExprEmitter::emit_case(const Expr& e, std::string& out) {
  CudaOperand r = declare(e, out);
  std::string taken = fresh();
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

CudaOperand CudaExprEmitter::emit_cast(const Expr& e, std::string& out) {
  const Type& from = e.children[0]->type;
  const Type& to = e.type;
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = {};\nif (!{}) {{\n", r.null, a.null, r.null);
  std::string v = a.value, code;
  bool from_int = from.is_integer() || from.id == TypeId::Boolean || from.id == TypeId::Date;
  if (to.id == TypeId::Boolean) {
    code = fmt::format("{} != 0", v);
  } else if (to.is_integer() || to.id == TypeId::Date) {
    auto [lo, hi] = int_range(to);
    if (from.is_decimal()) {
      code =
          fmt::format("check_int(downscale_round({}, {}), {}, {}, status)", v, from.scale, lo, hi);
    } else if (from.is_float()) {
      code = fmt::format(
          "({0} != {0} || rint({0}) < -9.2233720368547758e18 || rint({0}) >= "
          "9.2233720368547758e18) ? check_int((i128)kI64Max + 1, {1}, {2}, status) : "
          "check_int((i128)(i64)rint({0}), {1}, {2}, status)",
          v, lo, hi);
    } else {
      code = fmt::format("check_int((i128){}, {}, {}, status)", v, lo, hi);
    }
  } else if (to.is_float()) {
    std::string d = from.is_decimal() ? fmt::format("((f64){} / 1e{})", v, from.scale)
                                      : fmt::format("(f64){}", v);
    code = to.id == TypeId::Real ? fmt::format("(f64)(f32){}", d) : d;
  } else if (to.is_decimal()) {
    if (from.is_decimal()) {
      code = to.scale >= from.scale
                 ? fmt::format("check_digits(upscale_checked({}, {}, status), {}, status)", v,
                               to.scale - from.scale, to.precision)
                 : fmt::format("check_digits(downscale_round({}, {}), {}, status)", v,
                               from.scale - to.scale, to.precision);
    } else if (from.is_float()) {
      code = fmt::format(
          "(fabs(round({0} * 1e{1})) >= 1e{2} || {0} != {0}) ? check_digits(pow10_i128(38), 1, "
          "status) : (i128)round({0} * 1e{1})",
          v, to.scale, to.precision);
    } else if (from_int) {
      code = fmt::format("check_digits(upscale_checked((i128){}, {}, status), {}, status)", v,
                         to.scale, to.precision);
    }
  }
  if (code.empty())
    unsupported(fmt::format("CAST from {} to {}", from.to_string(), to.to_string()));
  out += fmt::format("  {} = {};\n}}\n", r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_unary(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  bool negate = e.kind == ExprKind::Negate;
  std::string code;
  if (e.type.is_decimal()) {
    code = negate ? "-" + a.value : fmt::format("abs_i128({})", a.value);
  } else if (e.type.is_float()) {
    code = negate ? "-" + a.value : fmt::format("fabs({})", a.value);
  } else {
    auto [lo, hi] = int_range(e.type);
    code = fmt::format("check_int({}(i128){}, {}, {}, status)", negate ? "-" : "", a.value, lo, hi);
    if (!negate)
      code = fmt::format("check_int(({0} < 0 ? -(i128){0} : (i128){0}), {1}, {2}, status)", a.value,
                         lo, hi);
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_round(const Expr& e, std::string& out) {
  const Type& from = e.children[0]->type;
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  int n = e.digits;
  std::string code;
  if (from.is_decimal()) {
    int sa = from.scale;
    if (n >= sa) {
      code = fmt::format("upscale_checked({}, {}, status)", a.value, e.type.scale - sa);
    } else if (n >= 0) {
      code = fmt::format("downscale_round({}, {})", a.value, sa - n);
    } else {
      code = fmt::format("mul_checked(downscale_round({}, {}), pow10_i128({}), status)", a.value,
                         sa - n, std::min(-n, 38));
    }
  } else if (from.is_float()) {
    code = n > 300 ? a.value
                   : fmt::format("(isfinite({0}) ? round({0} * {1}) / {1} : {0})", a.value,
                                 f64_literal(std::pow(10.0, n)));
  } else if (n >= 0) {
    code = a.value;
  } else {
    auto [lo, hi] = int_range(e.type);
    code = fmt::format(
        "check_int(div_round_i128((i128){0}, pow10_i128({1})) * pow10_i128({1}), {2}, {3}, status)",
        a.value, std::min(-n, 38), lo, hi);
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_date(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  std::string code;
  if (e.kind == ExprKind::Extract) {
    static const char* kFields[] = {"year", "month", "day"};
    code = fmt::format("(i64)civil_from_days({}).{}", a.value, kFields[e.op]);
  } else {
    std::string shifted =
        e.months ? fmt::format("add_months({}, {})", a.value, i64_literal(e.months)) : a.value;
    code = fmt::format("check_int((i128){} + {}, (i64)kI32Min, (i64)kI32Max, status)", shifted,
                       i64_literal(e.days));
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

}  // namespace tally
