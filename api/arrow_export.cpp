// ResultSet::export_arrow: a result as an Arrow struct array whose buffers the exported
// structs own (released through their callbacks, children first, as the C Data Interface
// says), so the export outlives the ResultSet.
#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "api/engine_impl.h"
#include "compiler/common/interval_value.h"

namespace tally {

namespace {

// ---- schema ----

struct SchemaData {
  std::string format, name;
  std::vector<ArrowSchema*> children;
};

void release_schema(ArrowSchema* schema) {
  auto* data = static_cast<SchemaData*>(schema->private_data);
  for (ArrowSchema* child : data->children) {
    if (child->release) child->release(child);
    delete child;
  }
  delete data;
  schema->release = nullptr;
}

void fill_schema(ArrowSchema* out, std::string format, std::string name, int64_t flags,
                 std::vector<ArrowSchema*> children) {
  auto* data = new SchemaData{std::move(format), std::move(name), std::move(children)};
  *out = ArrowSchema{};
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(data->children.size());
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->release = release_schema;
  out->private_data = data;
}

std::string format_of(const Type& type) {
  switch (type.id) {
    case TypeId::Null:
      return "n";
    case TypeId::Boolean:
      return "b";
    case TypeId::SmallInt:
      return "s";
    case TypeId::Integer:
      return "i";
    case TypeId::BigInt:
      return "l";
    case TypeId::Real:
      return "f";
    case TypeId::Double:
      return "g";
    case TypeId::Decimal:
      return fmt::format("d:{},{}", type.precision, type.scale);
    case TypeId::HugeInt:
      return "d:38,0";  // decimal128, as DuckDB exports a HUGEINT
    case TypeId::Date:
      return "tdD";
    case TypeId::Timestamp:
      return "tsu:";  // microseconds, no time zone
    case TypeId::TimestampTz:
      return "tsu:UTC";
    case TypeId::Time:
      return "ttu";  // microseconds since midnight
    case TypeId::Interval:
      return "tin";  // month_day_nano: int32 months, int32 days, int64 nanoseconds
    case TypeId::Varchar:
      return "u";
  }
  throw Error(ErrorKind::Internal, "export_arrow: a type without an Arrow format");
}

// ---- arrays ----

struct ArrayData {
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<const void*> pointers;
  std::vector<ArrowArray*> children;
};

void release_array(ArrowArray* array) {
  auto* data = static_cast<ArrayData*>(array->private_data);
  for (ArrowArray* child : data->children) {
    if (child->release) child->release(child);
    delete child;
  }
  delete data;
  array->release = nullptr;
}

void fill_array(ArrowArray* out, int64_t length, int64_t null_count, ArrayData* data) {
  for (const auto& buffer : data->buffers) {
    data->pointers.push_back(buffer.empty() ? nullptr : buffer.data());
  }
  *out = ArrowArray{};
  out->length = length;
  out->null_count = null_count;
  out->n_buffers = static_cast<int64_t>(data->pointers.size());
  out->buffers = data->pointers.empty() ? nullptr : data->pointers.data();
  out->n_children = static_cast<int64_t>(data->children.size());
  out->children = data->children.empty() ? nullptr : data->children.data();
  out->release = release_array;
  out->private_data = data;
}

template <typename T>
void append_value(std::vector<uint8_t>& buffer, T value) {
  size_t at = buffer.size();
  buffer.resize(at + sizeof(T));
  std::memcpy(buffer.data() + at, &value, sizeof(T));
}

void set_bit(std::vector<uint8_t>& bits, size_t index) {
  bits[index >> 3] = static_cast<uint8_t>(bits[index >> 3] | (1u << (index & 7)));
}

// Arrow's month_day_nano cell; micros past 2^63 nanoseconds (292 years) have none.
void append_interval(std::vector<uint8_t>& buffer, const Value& v) {
  const Interval iv = v.null ? Interval{} : as_interval(v);
  int64_t nanos = 0;
  if (__builtin_mul_overflow(iv.micros, int64_t{1000}, &nanos)) {
    throw Error(ErrorKind::Unsupported,
                "export_arrow: an INTERVAL whose time part passes 2^63 nanoseconds");
  }
  append_value<int32_t>(buffer, iv.months);
  append_value<int32_t>(buffer, iv.days);
  append_value<int64_t>(buffer, nanos);
}

// One result column as an Arrow array. NULL slots hold zeros (and empty strings).
ArrowArray* export_column(const Result& result, size_t column) {
  const Type& type = result.types[column];
  size_t rows = result.rows.size();
  auto data = std::make_unique<ArrayData>();
  auto array = std::make_unique<ArrowArray>();
  if (type.id == TypeId::Null) {  // the null layout has no buffers
    fill_array(array.get(), static_cast<int64_t>(rows), static_cast<int64_t>(rows), data.release());
    return array.release();
  }
  std::vector<uint8_t> validity((rows + 7) / 8, 0), values, characters;
  if (type.id == TypeId::Boolean) values.assign((rows + 7) / 8, 0);
  if (type.is_string()) append_value<int32_t>(values, 0);
  int64_t nulls = 0;
  for (size_t row = 0; row < rows; ++row) {
    const Value& v = result.rows[row][column];
    if (v.null) {
      ++nulls;
    } else {
      set_bit(validity, row);
    }
    switch (type.id) {
      case TypeId::Boolean:
        if (!v.null && v.i) set_bit(values, row);
        break;
      case TypeId::SmallInt:
        append_value<int16_t>(values, v.null ? 0 : static_cast<int16_t>(v.i));
        break;
      case TypeId::Integer:
      case TypeId::Date:
        append_value<int32_t>(values, v.null ? 0 : static_cast<int32_t>(v.i));
        break;
      case TypeId::BigInt:
      case TypeId::Timestamp:
      case TypeId::TimestampTz:
      case TypeId::Time:
        append_value<int64_t>(values, v.null ? 0 : v.i);
        break;
      case TypeId::Real:
        append_value<float>(values, v.null ? 0.0f : static_cast<float>(v.f));
        break;
      case TypeId::Double:
        append_value<double>(values, v.null ? 0.0 : v.f);
        break;
      case TypeId::Decimal:
      case TypeId::HugeInt:
        append_value<int128>(values, v.null ? 0 : v.d);
        break;
      case TypeId::Interval:
        append_interval(values, v);
        break;
      case TypeId::Varchar: {
        if (!v.null) {
          const std::string& s = result.strings->get(v.i);
          characters.insert(characters.end(), s.begin(), s.end());
        }
        if (characters.size() > static_cast<size_t>(INT32_MAX)) {
          throw Error(ErrorKind::Unsupported, "export_arrow: over 2 GiB of strings in a column");
        }
        append_value<int32_t>(values, static_cast<int32_t>(characters.size()));
        break;
      }
      case TypeId::Null:
        break;
    }
  }
  if (nulls == 0) validity.clear();  // no bitmap: every value is valid
  data->buffers.push_back(std::move(validity));
  data->buffers.push_back(std::move(values));
  if (type.is_string()) data->buffers.push_back(std::move(characters));
  fill_array(array.get(), static_cast<int64_t>(rows), nulls, data.release());
  return array.release();
}

}  // namespace

void ResultSet::export_arrow(ArrowSchema* schema, ArrowArray* array) const {
  if (!schema || !array) throw Error(ErrorKind::Execution, "export_arrow: a null output struct");
  const Result& result = impl_->result;
  std::vector<ArrowSchema*> child_schemas;
  std::vector<ArrowArray*> child_arrays;
  try {
    for (size_t c = 0; c < result.names.size(); ++c) {
      child_arrays.push_back(export_column(result, c));
      auto* child = new ArrowSchema();
      fill_schema(child, format_of(result.types[c]), result.names[c], ARROW_FLAG_NULLABLE, {});
      child_schemas.push_back(child);
    }
  } catch (...) {
    for (ArrowArray* a : child_arrays) release_array(a), delete a;
    for (ArrowSchema* s : child_schemas) release_schema(s), delete s;
    throw;
  }
  fill_schema(schema, "+s", "", 0, std::move(child_schemas));
  auto* data = new ArrayData();
  data->children = std::move(child_arrays);
  data->buffers.emplace_back();  // the struct's validity: none
  fill_array(array, static_cast<int64_t>(result.rows.size()), 0, data);
}

}  // namespace tally
