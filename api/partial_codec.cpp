// The byte format of a PartialResult: "TALLYPS2", the statement, the schema of its table,
// then per group its keys and per aggregate its state. Integers are little-endian;
// VARCHAR values travel as text (each process has its own string heap); everything else
// as the 16 bytes of its Value, so sums, counts and DISTINCT sets arrive exact.
#include <fmt/format.h>

#include <cstring>

#include "api/partial_impl.h"

namespace tally {

namespace {

// 2: states carry ARG_MIN/ARG_MAX's key and the exact variance's overflow flag.
constexpr std::string_view kMagic = "TALLYPS2";

class Writer {
 public:
  template <typename T>
  void raw(const T& value) {
    const char* bytes = reinterpret_cast<const char*>(&value);
    out_.append(bytes, sizeof(T));
  }
  void text(std::string_view s) {
    raw(static_cast<uint64_t>(s.size()));
    out_.append(s);
  }
  void value(const Value& v, bool is_string, const StringHeap& strings) {
    raw(static_cast<uint8_t>(v.null));
    if (v.null) return;
    if (is_string) {
      text(strings.get(v.i));
    } else {
      raw(v.d);
    }
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}

  template <typename T>
  T raw() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, in_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::string_view text() {
    auto size = raw<uint64_t>();
    need(size);
    std::string_view s = in_.substr(at_, size);
    at_ += size;
    return s;
  }
  Value value(bool is_string, StringHeap& strings) {
    if (raw<uint8_t>()) return Value();
    if (is_string) return Value::from_int(strings.intern(text()));
    return Value::from_decimal(raw<int128>());
  }
  bool done() const { return at_ == in_.size(); }

 private:
  void need(uint64_t bytes) const {
    if (bytes > in_.size() - at_) {
      throw Error(ErrorKind::Data, "partial aggregate states: the bytes end too early");
    }
  }
  std::string_view in_;
  size_t at_ = 0;
};

// Which of an aggregate's values are string ids (heap-relative, so written as text).
struct StateStrings {
  bool arg = false, key = false;
};

StateStrings state_strings(const BoundSelect& query, size_t aggregate) {
  const auto& call = query.aggregates[aggregate];
  return {call.arg && call.arg->type.is_string(), call.key && call.key->type.is_string()};
}

void write_schema(Writer& w, const TableSchema& schema) {
  w.text(schema.name);
  w.raw(static_cast<uint64_t>(schema.columns.size()));
  for (const ColumnSchema& column : schema.columns) {
    w.text(column.name);
    w.raw(static_cast<uint8_t>(column.type.id));
    w.raw(column.type.precision);
    w.raw(column.type.scale);
    w.raw(column.type.length);
    w.raw(static_cast<uint8_t>(column.type.fixed_length));
    w.raw(static_cast<uint8_t>(column.not_null));
  }
}

TableSchema read_schema(Reader& r) {
  TableSchema schema;
  schema.name = std::string(r.text());
  auto columns = r.raw<uint64_t>();
  for (uint64_t c = 0; c < columns; ++c) {
    ColumnSchema column;
    column.name = std::string(r.text());
    column.type.id = static_cast<TypeId>(r.raw<uint8_t>());
    column.type.precision = r.raw<uint8_t>();
    column.type.scale = r.raw<uint8_t>();
    column.type.length = r.raw<uint32_t>();
    column.type.fixed_length = r.raw<uint8_t>() != 0;
    column.not_null = r.raw<uint8_t>() != 0;
    schema.columns.push_back(std::move(column));
  }
  return schema;
}

void write_state(Writer& w, const AggState& state, StateStrings kinds, const StringHeap& strings) {
  const bool is_string = kinds.arg;
  const HostAggState& s = state.plain;
  w.raw(s.count);
  w.raw(s.sum);
  w.raw(s.sumsq);
  w.raw(s.fsum);
  w.raw(s.fsumsq);
  w.value(s.extreme, is_string, strings);
  w.value(s.key, kinds.key, strings);
  w.raw(static_cast<uint8_t>(s.inexact ? 1 : 0));
  w.raw(static_cast<uint64_t>(state.distinct ? state.distinct->size() + 1 : 0));
  if (!state.distinct) return;
  for (int128 key : *state.distinct) {
    if (is_string) {
      w.text(strings.get(static_cast<int64_t>(key)));
    } else {
      w.raw(key);
    }
  }
}

AggState read_state(Reader& r, StateStrings kinds, StringHeap& strings) {
  const bool is_string = kinds.arg;
  AggState state;
  HostAggState& s = state.plain;
  s.count = r.raw<int64_t>();
  s.sum = r.raw<int128>();
  s.sumsq = r.raw<int128>();
  s.fsum = r.raw<double>();
  s.fsumsq = r.raw<double>();
  s.extreme = r.value(is_string, strings);
  s.key = r.value(kinds.key, strings);
  s.inexact = r.raw<uint8_t>() != 0;
  auto distinct = r.raw<uint64_t>();
  if (distinct == 0) return state;
  state.distinct = std::make_unique<std::unordered_set<int128, Int128Hash>>();
  for (uint64_t k = 0; k + 1 < distinct; ++k) {
    state.distinct->insert(is_string ? int128{strings.intern(r.text())} : r.raw<int128>());
  }
  return state;
}

}  // namespace

std::string encode_partial(const PartialResult::Impl& impl) {
  const BoundSelect& query = impl.query();
  const StringHeap& strings = *impl.groups.strings;
  Writer w;
  w.text(kMagic);
  w.text(impl.sql);
  write_schema(w, impl.schema);
  w.raw(static_cast<uint64_t>(impl.groups.keys.size()));
  for (size_t g = 0; g < impl.groups.keys.size(); ++g) {
    const auto& keys = impl.groups.keys[g];
    for (size_t k = 0; k < keys.size(); ++k) {
      w.value(keys[k], query.group_keys[k]->type.is_string(), strings);
    }
    const auto& states = impl.groups.states[g];
    for (size_t a = 0; a < states.size(); ++a) {
      write_state(w, states[a], state_strings(query, a), strings);
    }
  }
  return w.take();
}

void decode_partial(std::string_view bytes, PartialResult::Impl& impl) {
  Reader r(bytes);
  if (bytes.size() < 8 + kMagic.size() || r.text() != kMagic) {
    throw Error(ErrorKind::Data, "these bytes are not tally's partial aggregate states");
  }
  impl.sql = std::string(r.text());
  impl.schema = read_schema(r);
  bind_partial(impl);
  const BoundSelect& query = impl.query();
  StringHeap& strings = *impl.groups.strings;
  auto groups = r.raw<uint64_t>();
  for (uint64_t g = 0; g < groups; ++g) {
    std::vector<Value> keys;
    for (const auto& key : query.group_keys)
      keys.push_back(r.value(key->type.is_string(), strings));
    std::vector<AggState> states;
    for (size_t a = 0; a < query.aggregates.size(); ++a) {
      states.push_back(read_state(r, state_strings(query, a), strings));
    }
    impl.groups.keys.push_back(std::move(keys));
    impl.groups.states.push_back(std::move(states));
  }
  if (!r.done()) throw Error(ErrorKind::Data, "partial aggregate states: bytes after the end");
}

}  // namespace tally
