// ResultSet::export_arrow: a result as an Arrow struct array whose buffers the exported
// structs own (released through their callbacks, children first, as the C Data Interface
// says), so the export outlives the ResultSet.
#include <fmt/format.h>

#include <memory>

#include "api/arrow_column_buffers.h"
#include "api/engine_impl.h"

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
  std::vector<ArrowBuffer> buffers;
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

// One result column's buffers as an Arrow array.
ArrowArray* column_array(size_t rows, ArrowColumnBuffers column) {
  auto data = std::make_unique<ArrayData>();
  data->buffers = std::move(column.buffers);
  auto array = std::make_unique<ArrowArray>();
  fill_array(array.get(), static_cast<int64_t>(rows), column.null_count, data.release());
  return array.release();
}

}  // namespace

void ResultSet::export_arrow(ArrowSchema* schema, ArrowArray* array) const {
  if (!schema || !array) throw Error(ErrorKind::Execution, "export_arrow: a null output struct");
  const Result& result = impl_->result;
  std::vector<ArrowSchema*> child_schemas;
  std::vector<ArrowArray*> child_arrays;
  std::vector<ArrowColumnBuffers> columns = arrow_column_buffers(result);
  try {
    for (size_t c = 0; c < result.names.size(); ++c) {
      child_arrays.push_back(column_array(result.rows.size(), std::move(columns[c])));
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
