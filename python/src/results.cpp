// tally::ResultSet for Python: names, SQL types, the device, and each column as a numpy
// array with a NULL mask. Fixed-width types become numpy arrays of their width (DATE as
// int32 days, which python/tally/result.py views as datetime64[D]); DECIMAL comes as its
// exact text (made decimal.Decimal in Python) and VARCHAR as str, in lists.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <tally/result_set.h>

#include <string>
#include <vector>

#include "python/src/bindings.h"

namespace tally_python {

namespace {

// A fixed-width column as a numpy array of T, copied whole (0 under NULLs).
template <typename T>
py::array numeric(const tally::ResultSet& r, size_t column) {
  py::array_t<T> values(static_cast<py::ssize_t>(r.row_count()));
  r.copy_column(column, values.mutable_data(), nullptr);
  return values;
}

// A list (python/tally/result.py makes it an object array): VARCHAR as str, or each
// cell's text (DECIMAL, HUGEINT, INTERVAL); None for NULL.
py::list objects(const tally::ResultSet& r, size_t column, bool text) {
  size_t rows = r.row_count();
  std::vector<uint8_t> nulls(rows);
  r.copy_column(column, nullptr, nulls.data());
  py::list values(rows);
  // text_of(row): the text of a row that is not NULL.
  auto fill = [&](auto text_of) {
    for (size_t row = 0; row < rows; ++row) {
      if (nulls[row]) {
        values[row] = py::none();
      } else {
        const std::string& cell = text_of(row);
        values[row] = py::str(cell.data(), cell.size());
      }
    }
  };
  if (text) {
    const std::vector<std::string> texts = r.text_column(column);
    fill([&](size_t row) -> const std::string& { return texts[row]; });
  } else if (r.column(column).kind == tally::TypeKind::Varchar) {
    const std::vector<std::optional<std::string>> strings = r.string_column(column);
    fill([&](size_t row) -> const std::string& { return *strings[row]; });
  } else {  // the NULL type: every cell is NULL
    for (size_t row = 0; row < rows; ++row) values[row] = py::none();
  }
  return values;
}

py::object column_values(const tally::ResultSet& r, size_t c) {
  switch (r.column(c).kind) {
    case tally::TypeKind::Boolean:
      return numeric<bool>(r, c);
    case tally::TypeKind::SmallInt:
      return numeric<int16_t>(r, c);
    case tally::TypeKind::Integer:
    case tally::TypeKind::Date:  // days
      return numeric<int32_t>(r, c);
    case tally::TypeKind::BigInt:
    case tally::TypeKind::Timestamp:
    case tally::TypeKind::TimestampTz:
    case tally::TypeKind::Time:
      return numeric<int64_t>(r, c);
    case tally::TypeKind::Real:
      return numeric<float>(r, c);
    case tally::TypeKind::Double:
      return numeric<double>(r, c);
    case tally::TypeKind::Decimal:
    case tally::TypeKind::HugeInt:   // beyond int64: Python numbers from the text
    case tally::TypeKind::Interval:  // PostgreSQL's text, '1 day 02:00:00'
      return objects(r, c, true);
    case tally::TypeKind::Varchar:
    case tally::TypeKind::Null:
      break;
  }
  return objects(r, c, false);
}

// True where the cell is NULL, or None when no cell is.
py::object null_mask(const tally::ResultSet& r, size_t column) {
  py::array_t<bool> mask(static_cast<py::ssize_t>(r.row_count()));
  const size_t nulls =
      r.copy_column(column, nullptr, reinterpret_cast<uint8_t*>(mask.mutable_data()));
  return nulls > 0 ? py::object(mask) : py::none();
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
