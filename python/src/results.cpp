// tally::ResultSet for Python: names, SQL types, the device, and each column as a numpy
// array with a NULL mask. Fixed-width types become numpy arrays of their width (DATE as
// int32 days, which python/tally/result.py views as datetime64[D]); DECIMAL comes as its
// exact text (made decimal.Decimal in Python) and VARCHAR as str, in lists.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <tally/result_set.h>

#include <string>

#include "python/src/bindings.h"

namespace tally_python {

namespace {

template <typename T, typename Get>
py::array numeric(const tally::ResultSet& r, size_t column, Get get) {
  size_t rows = r.row_count();
  py::array_t<T> values(static_cast<py::ssize_t>(rows));
  T* out = values.mutable_data();
  for (size_t row = 0; row < rows; ++row) {
    out[row] = r.is_null(row, column) ? T{} : static_cast<T>(get(row));
  }
  return values;
}

// A list (python/tally/result.py makes it an object array).
py::list objects(const tally::ResultSet& r, size_t column, bool decimal) {
  size_t rows = r.row_count();
  py::list values(rows);
  for (size_t row = 0; row < rows; ++row) {
    if (r.is_null(row, column)) {
      values[row] = py::none();
    } else if (decimal) {
      values[row] = py::str(r.get_text(row, column));
    } else {
      std::string_view text = r.get_string(row, column);
      values[row] = py::str(text.data(), text.size());
    }
  }
  return values;
}

py::object column_values(const tally::ResultSet& r, size_t c) {
  switch (r.column(c).kind) {
    case tally::TypeKind::Boolean:
      return numeric<bool>(r, c, [&](size_t row) { return r.get_bool(row, c); });
    case tally::TypeKind::SmallInt:
      return numeric<int16_t>(r, c, [&](size_t row) { return r.get_int64(row, c); });
    case tally::TypeKind::Integer:
      return numeric<int32_t>(r, c, [&](size_t row) { return r.get_int64(row, c); });
    case tally::TypeKind::BigInt:
      return numeric<int64_t>(r, c, [&](size_t row) { return r.get_int64(row, c); });
    case tally::TypeKind::Real:
      return numeric<float>(r, c, [&](size_t row) { return r.get_double(row, c); });
    case tally::TypeKind::Double:
      return numeric<double>(r, c, [&](size_t row) { return r.get_double(row, c); });
    case tally::TypeKind::Date:
      return numeric<int32_t>(r, c, [&](size_t row) { return r.get_date(row, c); });
    case tally::TypeKind::Timestamp:
    case tally::TypeKind::TimestampTz:
    case tally::TypeKind::Time:
      return numeric<int64_t>(r, c, [&](size_t row) { return r.get_timestamp(row, c); });
    case tally::TypeKind::Decimal:
    case tally::TypeKind::HugeInt:  // beyond int64: Python numbers from the text
      return objects(r, c, true);
    case tally::TypeKind::Interval:
      return objects(r, c, true);  // PostgreSQL's text, '1 day 02:00:00'
    case tally::TypeKind::Varchar:
      return objects(r, c, false);
    case tally::TypeKind::Null:
      break;
  }
  return objects(r, c, false);  // every cell NULL
}

// True where the cell is NULL, or None when no cell is.
py::object null_mask(const tally::ResultSet& r, size_t column) {
  size_t rows = r.row_count();
  py::array_t<bool> mask(static_cast<py::ssize_t>(rows));
  bool* out = mask.mutable_data();
  bool any = false;
  for (size_t row = 0; row < rows; ++row) {
    out[row] = r.is_null(row, column);
    any = any || out[row];
  }
  return any ? py::object(mask) : py::none();
}

const char* kind_name(tally::TypeKind kind) {
  static const char* const kNames[] = {
      "null", "boolean", "smallint",  "integer",     "bigint", "real",    "double",  "decimal",
      "date", "varchar", "timestamp", "timestamptz", "time",   "hugeint", "interval"};
  return kNames[static_cast<int>(kind)];
}

// One entry per column: what `get` reads of its ColumnInfo.
template <typename Get>
py::list per_column(const tally::ResultSet& r, Get get) {
  py::list out;
  for (size_t c = 0; c < r.column_count(); ++c) out.append(get(r.column(c)));
  return out;
}

}  // namespace

void bind_results(py::module_& m) {
  py::class_<tally::ResultSet>(m, "ResultSet")
      .def_property_readonly("row_count", &tally::ResultSet::row_count)
      .def_property_readonly("column_count", &tally::ResultSet::column_count)
      .def_property_readonly("tag", &tally::ResultSet::tag)
      .def_property_readonly("device", &tally::ResultSet::device)
      .def_property_readonly("names",
                             [](const tally::ResultSet& r) {
                               return per_column(r, [](const auto& c) { return c.name; });
                             })
      .def_property_readonly("types",
                             [](const tally::ResultSet& r) {
                               return per_column(r, [](const auto& c) { return c.type_name; });
                             })
      .def_property_readonly("kinds",
                             [](const tally::ResultSet& r) {
                               return per_column(r,
                                                 [](const auto& c) { return kind_name(c.kind); });
                             })
      .def("column", [](const tally::ResultSet& r, size_t c) {
        if (c >= r.column_count()) throw py::index_error("no such column");
        return py::make_tuple(column_values(r, c), null_mask(r, c));
      });
}

}  // namespace tally_python
