// Arrow struct arrays and caller-owned columns as tally tables. Fixed-width columns whose
// layout is tally's own Plain layout (int16, int32, int64, float32, float64, date32,
// decimal128 of precision > 18) are borrowed, not copied, when the values under their
// NULLs are zero (tally's engines may read a NULL row's value and discard it; garbage
// there could raise a spurious overflow). Everything else is converted into tally's own
// columns: int8 and bool (other widths), decimal128 of precision <= 18 (stored as int64),
// and strings (dictionary encoded). Validity bitmaps are always converted (they are small
// and may start at any bit offset).
#include <fmt/format.h>

#include <cstdio>
#include <cstring>

#include "api/engine_impl.h"
#include "runtime/storage/table.h"

namespace tally {

namespace {

// ---- the array's lifetime: released once no borrowed column needs it any more ----

std::shared_ptr<ArrowArray> take_array(ArrowArray* array) {
  auto owned = std::shared_ptr<ArrowArray>(new ArrowArray(*array), [](ArrowArray* a) {
    if (a->release) a->release(a);
    delete a;
  });
  array->release = nullptr;  // moved, as the specification's move semantics say
  return owned;
}

struct SchemaReleaser {
  ArrowSchema* schema;
  ~SchemaReleaser() {
    if (schema && schema->release) schema->release(schema);
  }
};

// ---- formats ----

struct ArrowField {
  Type type;
  std::string format;
  int width = 0;  // bytes per value of a fixed-width format; 0: bool, strings
  bool zero_copy = false;
  int offset_bytes = 0;  // utf8: 4, large utf8: 8
};

ArrowField decimal_field(const std::string& format, const std::string& column) {
  // "d:P,S" or "d:P,S,128"
  int precision = 0, scale = 0, bits = 128;
  int fields = std::sscanf(format.c_str(), "d:%d,%d,%d", &precision, &scale, &bits);
  if (fields < 2 || bits != 128 || precision < 1 || precision > 38 || scale < 0 ||
      scale > precision) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("column \"{}\": Arrow decimal format \"{}\" is not supported "
                            "(decimal128 with 1 <= precision <= 38, 0 <= scale <= precision)",
                            column, format));
  }
  ArrowField f{Type::decimal(precision, scale), format, 16};
  f.zero_copy = precision > 18;  // tally keeps DECIMAL(p <= 18) as int64
  return f;
}

ArrowField field_of(const ArrowSchema& schema, const std::string& column) {
  std::string format = schema.format ? schema.format : "";
  if (schema.dictionary) {
    throw Error(
        ErrorKind::Unsupported,
        fmt::format("column \"{}\": dictionary-encoded Arrow arrays are not supported", column));
  }
  if (format == "c") return {Type::smallint(), format, 1};
  if (format == "s") return {Type::smallint(), format, 2, true};
  if (format == "i") return {Type::integer(), format, 4, true};
  if (format == "l") return {Type::bigint(), format, 8, true};
  if (format == "f") return {Type::real(), format, 4, true};
  if (format == "g") return {Type::double_(), format, 8, true};
  if (format == "tdD") return {Type::date(), format, 4, true};
  if (format == "tsu:") return {Type::timestamp(), format, 8, true};
  if (format == "tsu:UTC") return {Type::timestamptz(), format, 8, true};
  if (format == "ttu") return {Type::time(), format, 8, true};
  if (format == "b") return {Type::boolean(), format, 0};
  if (format == "u") return {Type::varchar(), format, 0, false, 4};
  if (format == "U") return {Type::varchar(), format, 0, false, 8};
  if (format.starts_with("d:")) return decimal_field(format, column);
  throw Error(ErrorKind::Unsupported,
              fmt::format("column \"{}\": Arrow format \"{}\" is not supported (supported: c s i "
                          "l f g b d:P,S tdD tsu: tsu:UTC ttu u U)",
                          column, format));
}

// ---- validity ----

bool bit_at(const uint8_t* bits, size_t index) { return (bits[index >> 3] >> (index & 7)) & 1; }

// tally's validity words for rows [offset, offset + rows) of an Arrow LSB bitmap; empty
// when every row is valid.
std::vector<uint64_t> validity_words(const uint8_t* bits, size_t offset, size_t rows) {
  std::vector<uint64_t> words;
  if (!bits) return words;
  words.assign((rows + 63) / 64, 0);
  bool any_null = false;
  for (size_t row = 0; row < rows; ++row) {
    if (bit_at(bits, offset + row)) {
      words[row >> 6] |= uint64_t{1} << (row & 63);
    } else {
      any_null = true;
    }
  }
  if (!any_null) words.clear();
  return words;
}

bool row_valid(const std::vector<uint64_t>& words, size_t row) {
  return words.empty() || ((words[row >> 6] >> (row & 63)) & 1);
}

// ---- columns ----

struct ColumnSource {
  ArrowField field;
  const uint8_t* data = nullptr;   // first value of the column (array offset applied)
  const uint8_t* bytes = nullptr;  // strings: the character data
  size_t rows = 0;
  size_t first = 0;  // strings and bools: the index of the first value
  std::vector<uint64_t> validity;
};

bool nulls_hold_zero(const ColumnSource& source) {
  if (source.validity.empty()) return true;
  size_t width = static_cast<size_t>(source.field.width);
  for (size_t row = 0; row < source.rows; ++row) {
    if (row_valid(source.validity, row)) continue;
    const uint8_t* value = source.data + row * width;
    for (size_t b = 0; b < width; ++b) {
      if (value[b]) return false;
    }
  }
  return true;
}

template <typename T>
T load(const uint8_t* data, size_t row) {
  T v;
  std::memcpy(&v, data + row * sizeof(T), sizeof(T));
  return v;
}

void append_fixed(ColumnBuilder& builder, const ColumnSource& s, size_t row) {
  const std::string& format = s.field.format;
  if (format == "c") return builder.append_int(load<int8_t>(s.data, row));
  if (format == "s") return builder.append_int(load<int16_t>(s.data, row));
  if (format == "i" || format == "tdD") return builder.append_int(load<int32_t>(s.data, row));
  if (format == "l") return builder.append_int(load<int64_t>(s.data, row));
  if (format == "f") return builder.append_double(load<float>(s.data, row));
  if (format == "g") return builder.append_double(load<double>(s.data, row));
  if (format == "b") return builder.append_int(bit_at(s.data, s.first + row) ? 1 : 0);
  return builder.append_wide(load<int128>(s.data, row));  // decimal128
}

std::string_view string_at(const ColumnSource& s, size_t row) {
  size_t i = s.first + row;
  int64_t begin, end;
  if (s.field.offset_bytes == 4) {
    begin = load<int32_t>(s.data, i);
    end = load<int32_t>(s.data, i + 1);
  } else {
    begin = load<int64_t>(s.data, i);
    end = load<int64_t>(s.data, i + 1);
  }
  if (begin < 0 || end < begin) {
    throw Error(ErrorKind::Data,
                fmt::format("string offsets {}..{} of row {} are invalid", begin, end, row));
  }
  return {reinterpret_cast<const char*>(s.bytes) + begin, static_cast<size_t>(end - begin)};
}

ColumnPtr copied_column(const ColumnSource& s) {
  ColumnBuilder builder(s.field.type);
  builder.reserve(s.rows);
  for (size_t row = 0; row < s.rows; ++row) {
    if (!row_valid(s.validity, row)) {
      builder.append_null();
    } else if (s.field.type.is_string()) {
      builder.append_string(string_at(s, row));
    } else {
      append_fixed(builder, s, row);
    }
  }
  return builder.finish();
}

ColumnPtr make_column(const ColumnSource& s, const std::shared_ptr<const void>& keep_alive) {
  if (s.field.zero_copy && nulls_hold_zero(s)) {
    std::span<const uint8_t> bytes(s.data, s.rows * static_cast<size_t>(s.field.width));
    return Column::borrow_plain(s.field.type, bytes, s.validity, keep_alive);
  }
  return copied_column(s);
}

void require_buffers(const ArrowArray& a, int64_t count, const std::string& column) {
  if (a.n_buffers != count) {
    throw Error(ErrorKind::Data, fmt::format("column \"{}\": the Arrow array has {} buffers, its "
                                             "format needs {}",
                                             column, a.n_buffers, count));
  }
}

ColumnSource source_of(const ArrowSchema& schema, const ArrowArray& a, size_t struct_offset,
                       size_t rows, const std::string& column) {
  ColumnSource s;
  s.field = field_of(schema, column);
  if (a.length < 0 || a.offset < 0 || static_cast<size_t>(a.length) < struct_offset + rows) {
    throw Error(ErrorKind::Data, fmt::format("column \"{}\" has {} values, the table needs {}",
                                             column, a.length, struct_offset + rows));
  }
  bool strings = s.field.type.is_string();
  require_buffers(a, strings ? 3 : 2, column);
  size_t first = static_cast<size_t>(a.offset) + struct_offset;
  const auto* validity = static_cast<const uint8_t*>(a.buffers[0]);
  if (a.null_count == 0) validity = nullptr;  // the buffer may be absent or stale
  s.validity = validity_words(validity, first, rows);
  s.rows = rows;
  s.first = first;
  s.data = static_cast<const uint8_t*>(a.buffers[1]);
  if (strings) s.bytes = static_cast<const uint8_t*>(a.buffers[2]);
  if (s.field.width > 0) s.data += first * static_cast<size_t>(s.field.width);
  if (!s.data && rows > 0) {
    throw Error(ErrorKind::Data,
                fmt::format("column \"{}\": the Arrow data buffer is null", column));
  }
  return s;
}

std::string column_name(const ArrowSchema& schema, size_t index) {
  if (schema.name && *schema.name) return schema.name;
  return fmt::format("column{}", index + 1);
}

}  // namespace

TablePtr import_arrow_table(std::string name, ArrowSchema* schema, ArrowArray* array) {
  SchemaReleaser schema_releaser{schema};
  if (!schema || !array || !schema->release || !array->release) {
    throw Error(ErrorKind::Data, "register_arrow_table: a released or null Arrow struct");
  }
  std::shared_ptr<ArrowArray> owned = take_array(array);
  if (!schema->format || std::string_view(schema->format) != "+s") {
    throw Error(ErrorKind::Unsupported,
                fmt::format("table \"{}\": Arrow format \"{}\" is not a struct array (\"+s\")",
                            name, schema->format ? schema->format : ""));
  }
  if (owned->n_children != schema->n_children) {
    throw Error(ErrorKind::Data, fmt::format("table \"{}\": the schema has {} children, the array "
                                             "{}",
                                             name, schema->n_children, owned->n_children));
  }
  if (owned->null_count != 0 && owned->n_buffers > 0 && owned->buffers[0]) {
    throw Error(
        ErrorKind::Unsupported,
        fmt::format("table \"{}\": NULL rows of the struct array itself are not supported", name));
  }
  auto table = std::make_shared<Table>();
  table->schema.name = std::move(name);
  size_t rows = static_cast<size_t>(owned->length);
  size_t struct_offset = static_cast<size_t>(owned->offset);
  for (int64_t c = 0; c < schema->n_children; ++c) {
    const ArrowSchema& child_schema = *schema->children[c];
    std::string column = column_name(child_schema, static_cast<size_t>(c));
    if (table->schema.find_column(column) >= 0) {
      throw Error(ErrorKind::Catalog,
                  fmt::format("column \"{}\" specified more than once", column));
    }
    ColumnSource source = source_of(child_schema, *owned->children[c], struct_offset, rows, column);
    table->schema.columns.push_back({column, source.field.type, false});
    table->columns.push_back(make_column(source, owned));
  }
  return table;
}

namespace {

// The Arrow format a ColumnView's layout matches ("" for booleans, one byte a value).
std::string view_format(const ColumnView& view) {
  static const std::pair<TypeKind, const char*> kFormats[] = {
      {TypeKind::SmallInt, "s"},     {TypeKind::Integer, "i"},
      {TypeKind::BigInt, "l"},       {TypeKind::Real, "f"},
      {TypeKind::Double, "g"},       {TypeKind::Date, "tdD"},
      {TypeKind::Varchar, "U"},      {TypeKind::Boolean, ""},
      {TypeKind::Timestamp, "tsu:"}, {TypeKind::TimestampTz, "tsu:UTC"},
      {TypeKind::Time, "ttu"}};
  if (view.kind == TypeKind::Decimal) {
    return fmt::format("d:{},{}", view.precision, view.scale);
  }
  for (const auto& [kind, format] : kFormats) {
    if (kind == view.kind) return format;
  }
  throw Error(ErrorKind::Unsupported,
              fmt::format("column \"{}\": register_columns takes SMALLINT, INTEGER, BIGINT, "
                          "REAL, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIMESTAMPTZ, TIME, BOOLEAN or "
                          "VARCHAR columns",
                          view.name));
}

ColumnPtr bool_column(const ColumnSource& s) {
  ColumnBuilder builder(Type::boolean());
  builder.reserve(s.rows);
  for (size_t row = 0; row < s.rows; ++row) {
    if (!row_valid(s.validity, row)) {
      builder.append_null();
    } else {
      builder.append_int(s.data[row] ? 1 : 0);
    }
  }
  return builder.finish();
}

ColumnPtr view_column(const ColumnView& view, const std::shared_ptr<const void>& keep_alive) {
  std::string format = view_format(view);
  ColumnSource s;
  s.rows = view.rows;
  s.validity = validity_words(view.validity, 0, view.rows);
  s.data = static_cast<const uint8_t*>(view.data);
  if (!s.data && s.rows > 0) {
    throw Error(ErrorKind::Data, fmt::format("column \"{}\": the data is null", view.name));
  }
  if (format.empty()) return bool_column(s);
  ArrowSchema schema{};
  schema.format = format.c_str();
  s.field = field_of(schema, view.name);
  if (s.field.type.is_string()) {
    if (!view.offsets) {
      throw Error(ErrorKind::Data,
                  fmt::format("column \"{}\": a VARCHAR column needs offsets", view.name));
    }
    s.bytes = s.data;
    s.data = reinterpret_cast<const uint8_t*>(view.offsets);
  }
  return make_column(s, keep_alive);
}

}  // namespace

TablePtr import_column_views(std::string name, std::span<const ColumnView> columns,
                             std::shared_ptr<const void> keep_alive) {
  // The memory outlives the engine: any non-empty handle marks the columns as borrowed.
  if (!keep_alive) keep_alive = std::make_shared<int>(0);
  auto table = std::make_shared<Table>();
  table->schema.name = std::move(name);
  for (const ColumnView& view : columns) {
    if (!columns.empty() && view.rows != columns.front().rows) {
      throw Error(ErrorKind::Data,
                  fmt::format("column \"{}\" has {} rows, column \"{}\" {}", view.name, view.rows,
                              columns.front().name, columns.front().rows));
    }
    if (table->schema.find_column(view.name) >= 0) {
      throw Error(ErrorKind::Catalog,
                  fmt::format("column \"{}\" specified more than once", view.name));
    }
    ColumnPtr column = view_column(view, keep_alive);
    table->schema.columns.push_back({view.name, column->type(), false});
    table->columns.push_back(std::move(column));
  }
  return table;
}

}  // namespace tally
