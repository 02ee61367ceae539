#include "tools/data/paper_tables.h"

#include <cmath>
#include <string>

#include "compiler/common/date.h"
#include "compiler/common/error.h"
#include "runtime/load/parallel.h"
#include "tools/data/random.h"
#include "tools/data/zipf.h"

namespace tally {

namespace {

// Cents as REAL: rounding to cents first keeps the values what a shop would store.
double cents(double amount) { return std::round(amount * 100) / 100; }

}  // namespace

TablePtr generate_orders_table(size_t rows, uint32_t zip_count, uint64_t seed) {
  if (zip_count == 0) throw Error(ErrorKind::Unsupported, "orders table: zip_count must be > 0");
  TableSchema schema{"orders",
                     {{"zip", Type::integer(), true},
                      {"chargedamount", Type::real(), true},
                      {"tax", Type::real(), true},
                      {"ordertotal", Type::real(), true}}};
  auto fill = [&](std::vector<ColumnBuilder>& columns, size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      auto bits = [&](uint64_t field) { return random_bits(seed, row, field); };
      double total = cents(1 + uniform_unit(bits(2)) * 999);
      double discount = uniform_unit(bits(3)) * 0.3;
      double tax_rate = uniform_unit(bits(4)) * 0.1;
      double charged = cents(total * (1 - discount));
      double tax = cents(charged * tax_rate / (1 + tax_rate));
      columns[0].append_int(static_cast<int64_t>(uniform_below(bits(1), zip_count)));
      columns[1].append_double(charged);
      columns[2].append_double(tax);
      columns[3].append_double(total);
    }
  };
  return build_table_parallel(std::move(schema), rows, fill);
}

uint64_t atable_col1(uint64_t seed, size_t row, uint64_t key_range, const ZipfSampler* zipf) {
  if (zipf == nullptr) return uniform_below(random_bits(seed, row, 1), key_range);
  uint64_t attempt = 16;  // rejection draws use fields 16, 17, ...
  return zipf->sample([&] { return uniform_unit(random_bits(seed, row, attempt++)); }) - 1;
}

int64_t atable_col2(uint64_t seed, size_t row) {
  return static_cast<int64_t>(uniform_below(random_bits(seed, row, 2), 1000000));
}

TablePtr generate_atable(size_t rows, uint64_t key_range, double zipf_exponent, uint64_t seed) {
  if (key_range == 0) throw Error(ErrorKind::Unsupported, "atable: key_range must be > 0");
  if (zipf_exponent < 0) throw Error(ErrorKind::Unsupported, "atable: negative Zipf exponent");
  TableSchema schema{"atable",
                     {{"col1", Type::bigint(), true},
                      {"col2", Type::integer(), true},
                      {"col3", Type::double_(), true},
                      {"col4", Type::decimal(12, 2), true}}};
  ZipfSampler zipf(key_range, zipf_exponent > 0 ? zipf_exponent : 1);
  const ZipfSampler* sampler = zipf_exponent > 0 ? &zipf : nullptr;
  auto fill = [&](std::vector<ColumnBuilder>& columns, size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      auto bits = [&](uint64_t field) { return random_bits(seed, row, field); };
      columns[0].append_int(static_cast<int64_t>(atable_col1(seed, row, key_range, sampler)));
      columns[1].append_int(atable_col2(seed, row));
      columns[2].append_double(uniform_unit(bits(3)) * 1000);
      columns[3].append_int(uniform_between(bits(4), 0, 1000000));
    }
  };
  return build_table_parallel(std::move(schema), rows, fill);
}

TablePtr generate_nulls_table(size_t rows, double null_fraction, uint64_t seed) {
  TableSchema schema{"nulls",
                     {{"c_smallint", Type::smallint()},
                      {"c_integer", Type::integer()},
                      {"c_bigint", Type::bigint()},
                      {"c_real", Type::real()},
                      {"c_double", Type::double_()},
                      {"c_decimal", Type::decimal(10, 2)},
                      {"c_wide", Type::decimal(30, 4)},
                      {"c_date", Type::date()},
                      {"c_varchar", Type::varchar(20)},
                      {"c_boolean", Type::boolean()}}};
  static const std::string kWords[] = {"alpha", "beta", "gamma", "delta", "epsilon",
                                       "zeta",  "eta",  "theta", "iota",  "kappa"};
  int32_t first_day = days_from_civil(1995, 1, 1);
  auto fill = [&](std::vector<ColumnBuilder>& columns, size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      for (size_t c = 0; c < columns.size(); ++c) {
        ColumnBuilder& column = columns[c];
        if (uniform_unit(random_bits(seed, row, 100 + c)) < null_fraction) {
          column.append_null();
          continue;
        }
        int64_t k = static_cast<int64_t>(uniform_below(random_bits(seed, row, c), 10));
        switch (c) {
          case 0:
            column.append_int(k - 5);
            break;  // -5..4
          case 1:
            column.append_int(k * 1000);
            break;  // 0..9000
          case 2:
            column.append_int((k + 1) * 10000000000LL);
            break;  // beyond 32 bits
          case 3:
            column.append_double(0.5 + static_cast<double>(k));
            break;  // exact floats
          case 4:
            column.append_double(static_cast<double>(k) / 4);
            break;
          case 5:
            column.append_int(k * 125 - 500);
            break;  // -5.00..6.25
          case 6:
            column.append_wide(static_cast<int128>(k + 1) * 1000000000000000000LL * 10000);
            break;  // (k+1) * 10^18 at scale 4: needs the wide storage
          case 7:
            column.append_int(first_day + k);
            break;
          case 8:
            column.append_string(kWords[k]);
            break;
          default:
            column.append_int(k % 2);
            break;
        }
      }
    }
  };
  return build_table_parallel(std::move(schema), rows, fill);
}

}  // namespace tally
