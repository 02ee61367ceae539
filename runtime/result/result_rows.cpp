#include "runtime/result/result_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"

namespace tally {

namespace {

// Types whose values use Value's whole 128 bits; every other type lives in its low word.
bool needs_wide_cells(const Type& type) {
  return type.is_decimal() || type.is_hugeint() || type.is_interval();
}

}  // namespace

ResultColumn::ResultColumn(const Type& type) : wide_(needs_wide_cells(type)) {}

Value ResultColumn::get(size_t row) const {
  Value v;
  if (nulls_[row]) return v;
  if (wide_) {
    v.d = cells_[row];
  } else {
    v.i = words_[row];
  }
  v.null = false;
  return v;
}

void ResultColumn::set(size_t row, const Value& value) {
  nulls_[row] = value.null;
  if (wide_) {
    cells_[row] = value.null ? 0 : value.d;
  } else {
    words_[row] = value.null ? 0 : value.i;
  }
}

void ResultColumn::push_back(const Value& value) {
  nulls_.push_back(value.null);
  if (wide_) {
    cells_.push_back(value.null ? 0 : value.d);
  } else {
    words_.push_back(value.null ? 0 : value.i);
  }
}

void ResultColumn::resize(size_t rows) {
  if (wide_) {
    cells_.resize(rows, 0);
  } else {
    words_.resize(rows, 0);
  }
  nulls_.resize(rows, 1);
}

void ResultColumn::allocate(size_t rows) {
  if (wide_) {
    cells_.resize(rows);
  } else {
    words_.resize(rows);
  }
  nulls_.resize(rows);
}

void ResultColumn::copy_in(const ResultColumn& other, size_t at) {
  const size_t n = other.size();
  std::copy_n(other.nulls_.data(), n, nulls_.data() + at);
  if (wide_) {
    std::copy_n(other.cells_.data(), n, cells_.data() + at);
  } else {
    std::copy_n(other.words_.data(), n, words_.data() + at);
  }
}

void ResultColumn::reserve(size_t rows) {
  if (wide_) {
    cells_.reserve(rows);
  } else {
    words_.reserve(rows);
  }
  nulls_.reserve(rows);
}

ResultColumn ResultColumn::gather(const std::vector<size_t>& rows) const {
  ResultColumn out;
  out.wide_ = wide_;
  out.allocate(rows.size());
  constexpr size_t kChunk = 1 << 16;  // rows a task copies
  run_parallel((rows.size() + kChunk - 1) / kChunk, [&](size_t t) {
    for (size_t i = t * kChunk; i < std::min(rows.size(), (t + 1) * kChunk); ++i) {
      out.nulls_[i] = nulls_[rows[i]];
      if (wide_) {
        out.cells_[i] = cells_[rows[i]];
      } else {
        out.words_[i] = words_[rows[i]];
      }
    }
  });
  return out;
}

Value ResultRows::Row::at(size_t column) const {
  if (column >= size()) {
    throw std::out_of_range(fmt::format("result column {} of {}", column, size()));
  }
  return (*this)[column];
}

std::vector<Value> ResultRows::Row::values() const {
  std::vector<Value> out(size());
  for (size_t c = 0; c < out.size(); ++c) out[c] = (*this)[c];
  return out;
}

ResultRows::ResultRows(const std::vector<Type>& types) {
  columns_.reserve(types.size());
  for (const Type& type : types) columns_.emplace_back(type);
}

ResultRows::Row ResultRows::at(size_t row) const {
  if (row >= rows_) throw std::out_of_range(fmt::format("result row {} of {}", row, rows_));
  return Row(this, row);
}

void ResultRows::push_back(const std::vector<Value>& row) { push_back(row.data(), row.size()); }

void ResultRows::push_back(const Value* row, size_t count) {
  if (rows_ == 0 && columns_.empty()) columns_.resize(count);
  if (count != columns_.size()) {
    throw Error(ErrorKind::Internal,
                fmt::format("a result row of {} values for {} columns", count, columns_.size()));
  }
  for (size_t c = 0; c < count; ++c) columns_[c].push_back(row[c]);
  ++rows_;
}

void ResultRows::reserve(size_t rows) {
  for (auto& column : columns_) column.reserve(rows);
}

void ResultRows::resize(size_t rows) {
  for (auto& column : columns_) column.resize(rows);
  rows_ = rows;
}

void ResultRows::allocate(size_t rows) {
  for (auto& column : columns_) column.allocate(rows);
  rows_ = rows;
}

ResultRows ResultRows::concatenate(const std::vector<ResultRows>& parts) {
  if (parts.empty()) return ResultRows();
  ResultRows out = parts[0].gather({});
  std::vector<size_t> first(parts.size() + 1, 0);
  for (size_t p = 0; p < parts.size(); ++p) {
    if (parts[p].width() != out.width()) {
      throw Error(ErrorKind::Internal, "result rows of different widths concatenated");
    }
    first[p + 1] = first[p] + parts[p].size();
  }
  out.allocate(first.back());
  run_parallel(parts.size(), [&](size_t p) {
    for (size_t c = 0; c < out.width(); ++c) {
      out.columns_[c].copy_in(parts[p].columns_[c], first[p]);
    }
  });
  return out;
}

void ResultRows::keep_columns(size_t count) {
  if (count < columns_.size()) columns_.resize(count);
}

ResultRows ResultRows::columns(const std::vector<size_t>& columns) const {
  ResultRows out;
  for (size_t c : columns) out.columns_.push_back(columns_.at(c));
  out.rows_ = rows_;
  return out;
}

ResultRows ResultRows::gather(const std::vector<size_t>& rows) const {
  ResultRows out;
  out.columns_.reserve(columns_.size());
  for (const auto& column : columns_) out.columns_.push_back(column.gather(rows));
  out.rows_ = rows.size();
  return out;
}

std::vector<std::vector<Value>> ResultRows::to_vectors() const {
  std::vector<std::vector<Value>> out;
  out.reserve(rows_);
  for (size_t r = 0; r < rows_; ++r) out.push_back((*this)[r].values());
  return out;
}

}  // namespace tally
