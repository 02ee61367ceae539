// A result's rows held a column at a time: 8 bytes a cell where the column's type fits a word
// (integers, dates, times, strings' ids, floats), 16 where a value needs all of Value's 128
// bits (DECIMAL, HUGEINT, INTERVAL, or a column built without a type), and a byte for NULL.
// Millions of rows cost a few arrays instead of a heap vector of Values a row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally {

// An allocator whose resize leaves new cells unwritten: a large result's cells are written
// once, by the threads that compute them, so zeroing them first (on one thread) is waste.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using CellVector = std::vector<T, UninitializedAllocator<T>>;

class ResultColumn {
 public:
  ResultColumn() = default;  // wide: any Value round-trips
  explicit ResultColumn(const Type& type);

  size_t size() const { return nulls_.size(); }
  bool wide() const { return wide_; }
  bool is_null(size_t row) const { return nulls_[row] != 0; }
  // The value's 64-bit word (integers, strings' ids, a double's bits): narrow columns only.
  int64_t word(size_t row) const { return words_[row]; }
  Value get(size_t row) const;
  // The cells whole, for readers of a column at a time (runtime/result/column_cells.h):
  // a narrow column's words or a wide one's 128-bit cells (the other span is empty), and a
  // byte a row, 1 where NULL (the cell under a NULL is 0).
  std::span<const int64_t> words() const { return {words_.data(), wide_ ? 0 : size()}; }
  std::span<const int128> cells() const { return {cells_.data(), wide_ ? size() : 0}; }
  std::span<const uint8_t> nulls() const { return {nulls_.data(), nulls_.size()}; }
  size_t cell_bytes() const { return wide_ ? sizeof(int128) : sizeof(int64_t); }
  void set(size_t row, const Value& value);
  void push_back(const Value& value);
  void resize(size_t rows);  // new cells are NULL
  // Room for `rows` cells, unwritten: each must be set before it is read.
  void allocate(size_t rows);
  void reserve(size_t rows);
  // The cells of `rows`, in that order.
  ResultColumn gather(const std::vector<size_t>& rows) const;
  // Copies `other`'s cells over this column's from row `at` on (allocated, same width).
  void copy_in(const ResultColumn& other, size_t at);

 private:
  bool wide_ = true;
  CellVector<int64_t> words_;  // narrow
  CellVector<int128> cells_;   // wide
  CellVector<uint8_t> nulls_;
};

class ResultRows {
 public:
  // One row, read through its columns.
  class Row {
   public:
    Row(const ResultRows* rows, size_t row) : rows_(rows), row_(row) {}
    Value operator[](size_t column) const { return rows_->cell(row_, column); }
    Value at(size_t column) const;  // throws std::out_of_range past the last column
    Value back() const { return (*this)[size() - 1]; }
    size_t size() const { return rows_->width(); }
    std::vector<Value> values() const;
    operator std::vector<Value>() const { return values(); }

   private:
    const ResultRows* rows_;
    size_t row_;
  };

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Row;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Row;
    Iterator(const ResultRows* rows, size_t row) : rows_(rows), row_(row) {}
    Row operator*() const { return Row(rows_, row_); }
    Iterator& operator++() {
      ++row_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return row_ == other.row_; }

   private:
    const ResultRows* rows_;
    size_t row_;
  };

  ResultRows() = default;  // columns come with the first row pushed (wide)
  explicit ResultRows(const std::vector<Type>& types);

  size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  size_t width() const { return columns_.size(); }
  Value cell(size_t row, size_t column) const { return columns_[column].get(row); }
  void set(size_t row, size_t column, const Value& value) { columns_[column].set(row, value); }
  Row operator[](size_t row) const { return Row(this, row); }
  Row at(size_t row) const;  // throws std::out_of_range past the end
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, rows_); }

  const ResultColumn& column(size_t c) const { return columns_[c]; }
  // `row` holds width() values (any number for the first row of a ResultRows built without
  // types, which makes that many wide columns).
  void push_back(const std::vector<Value>& row);
  void push_back(const Value* row, size_t count);
  void reserve(size_t rows);
  void resize(size_t rows);  // new rows are NULL
  // `rows` rows whose cells are unwritten: each must be set before it is read.
  void allocate(size_t rows);
  // Drops the columns from `count` on (hidden outputs).
  void keep_columns(size_t count);
  // Columns `columns`, in that order (a column may come twice).
  ResultRows columns(const std::vector<size_t>& columns) const;
  // The rows `rows`, in that order.
  ResultRows gather(const std::vector<size_t>& rows) const;
  std::vector<std::vector<Value>> to_vectors() const;

  // The rows of `parts` (same columns) in order, copied on all cores.
  static ResultRows concatenate(const std::vector<ResultRows>& parts);

 private:
  std::vector<ResultColumn> columns_;
  size_t rows_ = 0;
};

}  // namespace tally
