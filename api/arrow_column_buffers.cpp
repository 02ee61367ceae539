#include "api/arrow_column_buffers.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "compiler/common/error.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/run_parallel.h"
#include "runtime/result/column_cells.h"

namespace tally {

namespace {

// Rows a task fills: a multiple of 8, so that tasks never share a bitmap byte.
constexpr size_t kChunkRows = size_t{1} << 16;

struct Chunk {
  size_t begin, end;
};

// Bits of rows [begin, end), begin a multiple of 8: set where the row is valid, LSB first;
// a last byte's bits past `end` stay 0. Returns the NULLs among the rows.
int64_t fill_validity(const uint8_t* nulls, Chunk rows, uint8_t* bits) {
  int64_t count = 0;
  for (size_t row = rows.begin; row < rows.end; row += 8) {
    uint8_t byte = 0;
    for (size_t k = 0; k < 8 && row + k < rows.end; ++k) {
      const bool null = nulls[row + k] != 0;
      count += null;
      byte = static_cast<uint8_t>(byte | (uint8_t{!null} << k));
    }
    bits[row / 8] = byte;
  }
  return count;
}

template <typename T, typename Convert = std::identity>
void store_words(const ResultColumn& column, Chunk rows, uint8_t* out, Convert convert = {}) {
  tally::store_words<T>(column, rows.begin, rows.end, out, convert);
}

// BOOLEAN's values are bits too: set where the row is valid and true.
void store_booleans(const ResultColumn& column, Chunk rows, uint8_t* bits) {
  const uint8_t* nulls = column.nulls().data();
  read_words(column, [&](auto word_of) {
    for (size_t row = rows.begin; row < rows.end; row += 8) {
      uint8_t byte = 0;
      for (size_t k = 0; k < 8 && row + k < rows.end; ++k) {
        const bool set = !nulls[row + k] && word_of(row + k) != 0;
        byte = static_cast<uint8_t>(byte | (uint8_t{set} << k));
      }
      bits[row / 8] = byte;
    }
  });
}

// Arrow's month_day_nano cells; micros past 2^63 nanoseconds (292 years) have none.
void store_intervals(const ResultColumn& column, Chunk rows, uint8_t* out) {
  const uint8_t* nulls = column.nulls().data();
  read_wide(column, [&](auto cell_of) {
    for (size_t row = rows.begin; row < rows.end; ++row) {
      const Interval iv = nulls[row] ? Interval{} : unpack_interval(cell_of(row));
      int64_t nanos = 0;
      if (__builtin_mul_overflow(iv.micros, int64_t{1000}, &nanos)) {
        throw Error(ErrorKind::Unsupported,
                    "export_arrow: an INTERVAL whose time part passes 2^63 nanoseconds");
      }
      uint8_t* cell = out + row * 16;
      std::memcpy(cell, &iv.months, 4);
      std::memcpy(cell + 4, &iv.days, 4);
      std::memcpy(cell + 8, &nanos, 8);
    }
  });
}

// The characters of the rows' strings (NULLs have none).
int64_t string_bytes(const Result& result, const ResultColumn& column, Chunk rows) {
  int64_t bytes = 0;
  const uint8_t* nulls = column.nulls().data();
  result.strings->read_many([&](auto string_of) {
    read_words(column, [&](auto word_of) {
      for (size_t row = rows.begin; row < rows.end; ++row) {
        if (!nulls[row]) bytes += static_cast<int64_t>(string_of(word_of(row)).size());
      }
    });
  });
  return bytes;
}

// Offsets of rows [begin, end) and their characters, from `at` on in `characters`.
void store_strings(const Result& result, const ResultColumn& column, Chunk rows, int64_t at,
                   uint8_t* offsets, uint8_t* characters) {
  const uint8_t* nulls = column.nulls().data();
  result.strings->read_many([&](auto string_of) {
    read_words(column, [&](auto word_of) {
      for (size_t row = rows.begin; row < rows.end; ++row) {
        if (!nulls[row]) {
          const std::string& s = string_of(word_of(row));
          std::memcpy(characters + at, s.data(), s.size());
          at += static_cast<int64_t>(s.size());
        }
        const auto end = static_cast<int32_t>(at);
        std::memcpy(offsets + (row + 1) * 4, &end, 4);
      }
    });
  });
}

// The bytes a value takes in Arrow's fixed-width layouts (0: a bitmap, or offsets).
size_t value_bytes(TypeId id) {
  switch (id) {
    case TypeId::SmallInt:
      return 2;
    case TypeId::Integer:
    case TypeId::Date:
    case TypeId::Real:
      return 4;
    case TypeId::BigInt:
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time:
    case TypeId::Double:
      return 8;
    case TypeId::Decimal:
    case TypeId::HugeInt:
    case TypeId::Interval:
      return 16;
    case TypeId::Null:
    case TypeId::Boolean:
    case TypeId::Varchar:
      break;
  }
  return 0;
}

// Validity and values (or offsets) sized, unwritten; a string column's first offset, 0.
ArrowColumnBuffers allocate_buffers(const Type& type, size_t rows) {
  ArrowColumnBuffers out;
  if (type.id == TypeId::Null) return out;
  out.buffers.resize(type.is_string() ? 3 : 2);
  out.buffers[0].resize((rows + 7) / 8);
  if (type.id == TypeId::Boolean) {
    out.buffers[1].resize((rows + 7) / 8);
  } else if (type.is_string()) {
    out.buffers[1].resize((rows + 1) * 4);
    std::memset(out.buffers[1].data(), 0, 4);
  } else {
    out.buffers[1].resize(rows * value_bytes(type.id));
  }
  return out;
}

// Values of one chunk of a fixed-width column (a string column's come later).
void store_values(const Type& type, const ResultColumn& column, Chunk rows, uint8_t* out) {
  switch (type.id) {
    case TypeId::Boolean:
      return store_booleans(column, rows, out);
    case TypeId::SmallInt:
      return store_words<int16_t>(column, rows, out);
    case TypeId::Integer:
    case TypeId::Date:
      return store_words<int32_t>(column, rows, out);
    case TypeId::BigInt:
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time:
      return store_words<int64_t>(column, rows, out);
    case TypeId::Real:
      return store_words<float>(column, rows, out, word_double);
    case TypeId::Double:
      return store_words<double>(column, rows, out, word_double);
    case TypeId::Decimal:
    case TypeId::HugeInt:
      return read_wide(column, [&](auto cell_of) {
        store_cells<int128>(column, cell_of, rows.begin, rows.end, out);
      });
    case TypeId::Interval:
      return store_intervals(column, rows, out);
    case TypeId::Null:
    case TypeId::Varchar:
      break;
  }
}

}  // namespace

std::vector<ArrowColumnBuffers> arrow_column_buffers(const Result& result) {
  const size_t width = result.types.size(), rows = result.rows.size();
  const size_t chunks = (rows + kChunkRows - 1) / kChunkRows;
  auto chunk = [&](size_t k) {
    return Chunk{k * kChunkRows, std::min(rows, (k + 1) * kChunkRows)};
  };
  std::vector<ArrowColumnBuffers> out;
  for (size_t c = 0; c < width; ++c) out.push_back(allocate_buffers(result.types[c], rows));
  // Per (column, chunk): its NULLs, and a string column's characters.
  std::vector<int64_t> nulls(width * chunks, 0), characters(width * chunks, 0);
  run_parallel(width * chunks, [&](size_t task) {
    const size_t c = task / chunks;
    const Type& type = result.types[c];
    if (type.id == TypeId::Null) return;
    const ResultColumn& column = result.rows.column(c);
    const Chunk rows = chunk(task % chunks);
    nulls[task] = fill_validity(column.nulls().data(), rows, out[c].buffers[0].data());
    if (type.is_string()) {
      characters[task] = string_bytes(result, column, rows);
    } else {
      store_values(type, column, rows, out[c].buffers[1].data());
    }
  });
  // Where each string chunk's characters start.
  std::vector<int64_t> starts(width * chunks, 0);
  for (size_t c = 0; c < width; ++c) {
    int64_t total = 0;
    for (size_t k = 0; k < chunks; ++k) {
      out[c].null_count += nulls[c * chunks + k];
      starts[c * chunks + k] = total;
      total += characters[c * chunks + k];
    }
    if (result.types[c].id == TypeId::Null) out[c].null_count = static_cast<int64_t>(rows);
    if (out[c].null_count == 0 && !out[c].buffers.empty()) out[c].buffers[0] = ArrowBuffer();
    if (!result.types[c].is_string()) continue;
    if (total > INT32_MAX) {
      throw Error(ErrorKind::Unsupported, "export_arrow: over 2 GiB of strings in a column");
    }
    out[c].buffers[2].resize(static_cast<size_t>(total));
  }
  run_parallel(width * chunks, [&](size_t task) {
    const size_t c = task / chunks;
    if (!result.types[c].is_string()) return;
    std::vector<ArrowBuffer>& buffers = out[c].buffers;
    store_strings(result, result.rows.column(c), chunk(task % chunks), starts[task],
                  buffers[1].data(), buffers[2].data());
  });
  return out;
}

}  // namespace tally
