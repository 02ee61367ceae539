#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/storage/column.h"
#include "runtime/storage/table.h"

namespace tally {
namespace {

// A value as the test writes it down: NULL or one payload.
struct Cell {
  std::optional<int64_t> i;
  std::optional<int128> d;
  std::optional<double> f;
  std::optional<std::string> s;
  bool is_null() const { return !i && !d && !f && !s; }
};

Cell I(int64_t v) { return {v, {}, {}, {}}; }
Cell D(int128 v) { return {{}, v, {}, {}}; }
Cell F(double v) { return {{}, {}, v, {}}; }
Cell S(std::string v) { return {{}, {}, {}, std::move(v)}; }
const Cell kNull{};

ColumnPtr build(Type type, const std::vector<Cell>& cells, bool compress = true) {
  ColumnBuilder builder(type);
  for (const Cell& c : cells) {
    if (c.is_null())
      builder.append_null();
    else if (c.i)
      builder.append_int(*c.i);
    else if (c.d)
      builder.append_wide(*c.d);
    else if (c.f)
      builder.append_double(*c.f);
    else
      builder.append_string(*c.s);
  }
  CHECK(builder.size() == cells.size());
  return builder.finish(compress);
}

// Checks every row of `column` against `cells` through get_value and the typed getters.
void check_rows(const Column& column, const std::vector<Cell>& cells) {
  REQUIRE(column.size() == cells.size());
  size_t nulls = 0;
  for (size_t row = 0; row < cells.size(); ++row) {
    CAPTURE(row);
    const Cell& c = cells[row];
    Value v = column.get_value(row);
    CHECK(v.null == c.is_null());
    CHECK(column.is_valid(row) == !c.is_null());
    if (c.is_null()) {
      ++nulls;
    } else if (c.i) {
      CHECK(v.i == *c.i);
      CHECK(column.get_int(row) == *c.i);
      if (column.type().is_decimal()) CHECK(v.d == int128{*c.i});
    } else if (c.d) {
      CHECK(v.d == *c.d);
      CHECK(column.get_wide(row) == *c.d);
    } else if (c.f) {
      CHECK(v.f == *c.f);
      CHECK(column.get_double(row) == *c.f);
    } else {
      CHECK(column.dictionary().at(static_cast<size_t>(v.i)) == *c.s);
    }
  }
  CHECK(column.null_count() == nulls);
  CHECK(column.has_nulls() == (nulls > 0));
  CHECK(column.validity_words().empty() == (nulls == 0));
}

struct TypeCase {
  Type type;
  std::vector<Cell> values;
};

std::vector<TypeCase> every_type() {
  return {
      {Type::boolean(), {I(1), I(0), I(1)}},
      {Type::smallint(), {I(-32768), I(7), I(32767)}},
      {Type::integer(), {I(-5), I(100000), I(2147483647)}},
      {Type::bigint(), {I(std::numeric_limits<int64_t>::min()), I(0), I(int64_t{1} << 40)}},
      {Type::date(), {I(8035), I(10591), I(-1)}},
      {Type::timestamp(), {I(-14182940000000), I(0), I(1705314600123456)}},
      {Type::decimal(15, 2), {I(-12345), I(99), I(100000000000000LL)}},
      {Type::decimal(30, 4), {D(int128{1} << 100), D(-(int128{1} << 90)), D(5)}},
      {Type::real(), {F(0.5), F(static_cast<float>(0.1)), F(-3.25e10f)}},
      {Type::double_(), {F(0.1), F(-1e300), F(2.5)}},
      {Type::varchar(20), {S("pear"), S(""), S("apple")}},
      {Type::char_(1), {S("R"), S("A"), S("R")}},
  };
}

TEST_CASE("storage: every type round-trips without NULLs") {
  for (const TypeCase& t : every_type()) {
    CAPTURE(t.type.to_string());
    for (bool compress : {true, false}) {
      check_rows(*build(t.type, t.values, compress), t.values);
    }
  }
}

TEST_CASE("storage: every type round-trips with NULLs") {
  for (const TypeCase& t : every_type()) {
    CAPTURE(t.type.to_string());
    // NULLs first, between and last, and enough rows to span several validity words.
    std::vector<Cell> cells = {kNull};
    for (int k = 0; k < 50; ++k) {
      for (const Cell& c : t.values) cells.push_back(c);
      cells.push_back(kNull);
    }
    for (bool compress : {true, false}) check_rows(*build(t.type, cells, compress), cells);
  }
}

TEST_CASE("storage: an all-NULL and an empty column") {
  for (const TypeCase& t : every_type()) {
    CAPTURE(t.type.to_string());
    std::vector<Cell> nulls(3, kNull);
    check_rows(*build(t.type, nulls), nulls);
    check_rows(*build(t.type, {}), {});
  }
}

TEST_CASE("storage: REAL is stored as float - DOUBLE as double") {
  auto real = build(Type::real(), {F(0.1)});
  CHECK(real->encoding() == Encoding::Plain);
  REQUIRE(real->plain_bytes().size() == sizeof(float));
  float f;
  std::memcpy(&f, real->plain_bytes().data(), sizeof f);
  CHECK(f == 0.1f);
  CHECK(real->get_double(0) == static_cast<double>(0.1f));

  auto dbl = build(Type::double_(), {F(0.1)});
  REQUIRE(dbl->plain_bytes().size() == sizeof(double));
  CHECK(dbl->get_double(0) == 0.1);
}

TEST_CASE("storage: integers bit-pack with base = min when that is narrower") {
  std::vector<Cell> cells;
  for (int v = 1000; v <= 1255; ++v) cells.push_back(I(v));
  auto column = build(Type::integer(), cells);
  CHECK(column->encoding() == Encoding::BitPacked);
  CHECK(column->base() == 1000);
  CHECK(column->bits() == 8);  // 255 = 0b11111111
  CHECK(column->min_int() == 1000);
  CHECK(column->max_int() == 1255);
  CHECK(column->plain_bytes().empty());
  // 256 values * 8 bits = 32 words, plus the padding word.
  CHECK(column->packed_words().size() == 33);
  CHECK(column->packed_words().back() == 0);
  check_rows(*column, cells);

  auto small = build(Type::smallint(), {I(-5), I(5)});
  CHECK(small->encoding() == Encoding::BitPacked);
  CHECK(small->bits() == 4);  // range 10
  CHECK(small->base() == -5);

  auto flags = build(Type::boolean(), {I(0), I(1), I(1)});
  CHECK(flags->encoding() == Encoding::BitPacked);
  CHECK(flags->bits() == 1);

  auto constant = build(Type::bigint(), {I(42), I(42)});
  CHECK(constant->encoding() == Encoding::BitPacked);
  CHECK(constant->bits() == 0);
  CHECK(constant->get_int(1) == 42);
}

TEST_CASE("storage: Plain when packing gains nothing or compression is off") {
  auto full = build(Type::integer(), {I(std::numeric_limits<int32_t>::min()),
                                      I(std::numeric_limits<int32_t>::max()), I(-7)});
  CHECK(full->encoding() == Encoding::Plain);
  REQUIRE(full->plain_bytes().size() == 3 * sizeof(int32_t));
  int32_t third;
  std::memcpy(&third, full->plain_bytes().data() + 2 * sizeof(int32_t), sizeof third);
  CHECK(third == -7);

  auto off = build(Type::smallint(), {I(1), I(2)}, /*compress=*/false);
  CHECK(off->encoding() == Encoding::Plain);
  CHECK(off->plain_bytes().size() == 2 * sizeof(int16_t));

  auto dec = build(Type::decimal(12, 2), {I(1), I(2)}, false);
  CHECK(dec->plain_bytes().size() == 2 * sizeof(int64_t));

  auto flags = build(Type::boolean(), {I(1), I(0)}, false);
  auto flag_bytes = flags->plain_bytes();
  CHECK(std::vector<uint8_t>(flag_bytes.begin(), flag_bytes.end()) == std::vector<uint8_t>{1, 0});

  auto dates = build(Type::date(), {I(3)}, false);
  CHECK(dates->plain_bytes().size() == sizeof(int32_t));
}

TEST_CASE("storage: wide DECIMAL is Plain little-endian int128") {
  int128 v = (int128{0x0102030405060708LL} << 64) | 0x090a0b0c0d0e0f10ULL;
  auto column = build(Type::decimal(38, 0), {D(v), D(-1)});
  CHECK(column->encoding() == Encoding::Plain);
  REQUIRE(column->plain_bytes().size() == 32);
  CHECK(column->plain_bytes()[0] == 0x10);   // least significant byte first
  CHECK(column->plain_bytes()[15] == 0x01);  // most significant byte last
  for (int b = 16; b < 32; ++b) CHECK(column->plain_bytes()[b] == 0xff);
  CHECK(column->get_wide(0) == v);
  // The int64 stats saturate; the wide ones are exact.
  CHECK(column->min_int() == -1);
  CHECK(column->max_int() == std::numeric_limits<int64_t>::max());
  CHECK(column->min_wide() == -1);
  CHECK(column->max_wide() == v);
  auto with_nulls = build(Type::decimal(30, 2), {kNull, D(v), kNull, D(-v)});
  CHECK(with_nulls->min_wide() == -v);
  CHECK(with_nulls->max_wide() == v);
}

TEST_CASE("storage: strings become a sorted dictionary with codes in string order") {
  auto column = build(Type::varchar(), {S("pear"), S("apple"), S("fig"), S("apple"), kNull});
  CHECK(column->encoding() == Encoding::Dictionary);
  CHECK(column->dictionary() == std::vector<std::string>{"apple", "fig", "pear"});
  CHECK(column->get_int(0) == 2);
  CHECK(column->get_int(1) == 0);
  CHECK(column->get_int(2) == 1);
  CHECK(column->get_int(3) == 0);
  CHECK(column->bits() == 2);
  CHECK(column->base() == 0);
  CHECK(column->min_int() == 0);
  CHECK(column->max_int() == 2);
  CHECK(column->get_value(4).null);

  auto one = build(Type::char_(1), {S("N"), S("N")}, /*compress=*/false);
  CHECK(one->encoding() == Encoding::Dictionary);  // strings are always dictionaries
  CHECK(one->bits() == 0);
  CHECK(one->get_int(1) == 0);
}

// Reads value `row` out of the packed words bit by bit: an independent decoder of the
// documented layout (little-endian bits within 64-bit words).
uint64_t read_bits_slowly(const std::vector<uint64_t>& words, size_t row, int bits) {
  uint64_t v = 0;
  for (int b = 0; b < bits; ++b) {
    size_t bit = row * static_cast<size_t>(bits) + static_cast<size_t>(b);
    v |= ((words[bit / 64] >> (bit % 64)) & 1) << b;
  }
  return v;
}

TEST_CASE("storage: bit-packed values straddling word boundaries - widths 1..63") {
  for (int bits = 1; bits <= 63; ++bits) {
    CAPTURE(bits);
    uint64_t top = (uint64_t{1} << bits) - 1;
    int64_t base = -1000;
    std::vector<Cell> cells;
    // 0 and top pin the width; the rest are patterns with high and low bits set.
    for (size_t k = 0; k < 200; ++k) {
      uint64_t offset = k == 0 ? 0 : k == 1 ? top : (0x9e3779b97f4a7c15ULL * k) & top;
      cells.push_back(I(base + static_cast<int64_t>(offset)));
    }
    auto column = build(Type::bigint(), cells);
    REQUIRE(column->encoding() == Encoding::BitPacked);
    CHECK(column->bits() == bits);
    CHECK(column->base() == base);
    CHECK(column->packed_words().size() == (200 * static_cast<size_t>(bits) + 63) / 64 + 1);
    CHECK(column->packed_words().back() == 0);
    for (size_t row = 0; row < cells.size(); ++row) {
      CHECK(column->get_int(row) == *cells[row].i);
      CHECK(read_bits_slowly(column->packed_words(), row, bits) ==
            static_cast<uint64_t>(*cells[row].i - base));
    }
  }
  // 64 bits gain nothing over BIGINT: Plain.
  auto full = build(Type::bigint(), {I(std::numeric_limits<int64_t>::min()),
                                     I(std::numeric_limits<int64_t>::max())});
  CHECK(full->encoding() == Encoding::Plain);
  CHECK(full->get_int(0) == std::numeric_limits<int64_t>::min());
  CHECK(full->get_int(1) == std::numeric_limits<int64_t>::max());
}

TEST_CASE("storage: min/max ignore NULL rows - whose payload is 0") {
  auto column = build(Type::integer(), {kNull, I(5), I(-3), kNull, I(9)});
  CHECK(column->min_int() == -3);
  CHECK(column->max_int() == 9);
  CHECK(column->base() == -3);
  CHECK(read_bits_slowly(column->packed_words(), 0, column->bits()) == 0);
  CHECK(read_bits_slowly(column->packed_words(), 3, column->bits()) == 0);

  auto plain = build(Type::integer(), {I(4), kNull}, false);
  CHECK(plain->min_int() == 4);
  CHECK(plain->max_int() == 4);
  CHECK(plain->get_int(1) == 0);
  CHECK(plain->validity_words() == std::vector<uint64_t>{0b01});
}

TEST_CASE("storage: append_column copies every row - NULLs and strings included") {
  std::vector<Cell> first = {S("b"), kNull, S("a")};
  std::vector<Cell> second = {S("c"), S("a"), kNull, S("b")};
  auto column = build(Type::varchar(), second);
  ColumnBuilder builder(Type::varchar());
  builder.append_string("b");
  builder.append_null();
  builder.append_string("a");
  append_column(builder, *column);
  auto joined = builder.finish();
  std::vector<Cell> all = first;
  all.insert(all.end(), second.begin(), second.end());
  check_rows(*joined, all);
  CHECK(joined->dictionary() == std::vector<std::string>{"a", "b", "c"});

  for (const TypeCase& t : every_type()) {
    CAPTURE(t.type.to_string());
    std::vector<Cell> cells = t.values;
    cells.push_back(kNull);
    auto source = build(t.type, cells);
    ColumnBuilder copy(t.type);
    append_column(copy, *source);
    append_column(copy, *source);
    std::vector<Cell> twice = cells;
    twice.insert(twice.end(), cells.begin(), cells.end());
    check_rows(*copy.finish(), twice);
  }
}

TEST_CASE("storage: append_builder joins parts in order across validity words") {
  // 70 + 100 rows: the second part starts mid-word; NULLs only in one part, then both.
  for (int nulls_in : {0, 1, 2, 3}) {
    CAPTURE(nulls_in);
    ColumnBuilder a(Type::integer()), b(Type::integer());
    std::vector<Cell> cells;
    for (int i = 0; i < 70; ++i) {
      bool null = (nulls_in & 1) && i % 7 == 0;
      null ? a.append_null() : a.append_int(i);
      cells.push_back(null ? kNull : I(i));
    }
    for (int i = 0; i < 100; ++i) {
      bool null = (nulls_in & 2) && i % 5 == 0;
      null ? b.append_null() : b.append_int(-i);
      cells.push_back(null ? kNull : I(-i));
    }
    a.append_builder(std::move(b));
    CHECK(b.size() == 0);
    check_rows(*a.finish(), cells);
  }
  ColumnBuilder s1(Type::varchar()), s2(Type::varchar());
  s1.append_string("x");
  s2.append_null();
  s2.append_string("w");
  s2.append_string("x");
  s1.append_builder(std::move(s2));
  check_rows(*s1.finish(), {S("x"), kNull, S("w"), S("x")});
}

TEST_CASE("storage: finish_parts encodes parts in order as one column") {
  for (bool compress : {true, false}) {
    CAPTURE(compress);
    std::vector<ColumnBuilder> parts;
    parts.emplace_back(Type::smallint());
    parts.emplace_back(Type::smallint());
    parts.emplace_back(Type::smallint());
    std::vector<Cell> cells;
    for (int i = 0; i < 100; ++i) parts[0].append_int(i), cells.push_back(I(i));
    parts[1].append_null(), cells.push_back(kNull);  // a part of one NULL
    for (int i = 0; i < 30; ++i) parts[2].append_int(-i), cells.push_back(I(-i));
    auto column = ColumnBuilder::finish_parts(parts, compress);
    check_rows(*column, cells);
    CHECK(column->min_int() == -29);
    CHECK(column->max_int() == 99);
    CHECK(column->encoding() == (compress ? Encoding::BitPacked : Encoding::Plain));
    CHECK(parts[0].size() == 0);
  }
  std::vector<ColumnBuilder> strings;
  for (int p = 0; p < 3; ++p) strings.emplace_back(Type::varchar());
  strings[0].append_string("m"), strings[0].append_string("b");
  strings[1].append_null();
  strings[2].append_string("a"), strings[2].append_string("m");
  auto column = ColumnBuilder::finish_parts(strings);
  CHECK(column->dictionary() == std::vector<std::string>{"a", "b", "m"});
  check_rows(*column, {S("m"), S("b"), kNull, S("a"), S("m")});

  std::vector<ColumnBuilder> wides;
  wides.emplace_back(Type::decimal(38, 2));
  wides.emplace_back(Type::decimal(38, 2));
  wides[0].append_wide(int128{1} << 80);
  wides[1].append_null();
  wides[1].append_wide(-3);
  check_rows(*ColumnBuilder::finish_parts(wides), {D(int128{1} << 80), kNull, D(-3)});
}

TEST_CASE("storage: the string interner keeps ids dense and stable while growing") {
  StringInterner interner;
  for (int round = 0; round < 2; ++round) {
    for (uint32_t i = 0; i < 5000; ++i) {
      // Second round: every string is found again with its first id.
      CHECK(interner.intern("s" + std::to_string(i)) == i);
    }
  }
  CHECK(interner.size() == 5000);
  CHECK(interner.get(1234) == "s1234");
  CHECK(interner.intern("") == 5000);
  CHECK(interner.get(5000) == "");
  StringInterner copy = interner;
  CHECK(copy.intern("s42") == 42);
}

TEST_CASE("storage: dictionary order is std::string order for tricky strings") {
  std::vector<std::string> values = {"abcdefgh",
                                     "abcdefghX",
                                     "abcdefgh\x01",
                                     "abcdefg",
                                     "",
                                     "\xff",
                                     "\x80"
                                     "abc",
                                     "zz",
                                     "abcdefgi",
                                     "Abcdefgh",
                                     std::string("ab\0c", 4),
                                     "ab",
                                     "abcdefgh"};
  ColumnBuilder builder(Type::varchar());
  for (const auto& v : values) builder.append_string(v);
  auto column = builder.finish();
  std::vector<std::string> expected = values;
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  CHECK(column->dictionary() == expected);
  for (size_t row = 0; row < values.size(); ++row) {
    CHECK(column->dictionary()[static_cast<size_t>(column->get_int(row))] == values[row]);
  }
}

TEST_CASE("storage: bulk appends and append_value") {
  ColumnBuilder ints(Type::bigint());
  std::vector<int64_t> values = {3, 1, 2};
  ints.append_null();
  ints.append_ints(values);
  check_rows(*ints.finish(), {kNull, I(3), I(1), I(2)});

  ColumnBuilder reals(Type::real());
  std::vector<double> doubles = {0.1, 2};
  reals.append_doubles(doubles);
  check_rows(*reals.finish(), {F(0.1f), F(2)});

  std::vector<std::string> pool = {"unused", "z", "y"};
  std::vector<uint32_t> picks = {1, 2, 1};
  ColumnBuilder strings(Type::varchar());
  strings.append_pooled_strings(pool, picks);
  auto pooled = strings.finish();
  CHECK(pooled->dictionary() == std::vector<std::string>{"y", "z"});  // only used strings
  check_rows(*pooled, {S("z"), S("y"), S("z")});

  StringHeap heap;
  ColumnBuilder from_values(Type::varchar());
  from_values.append_value(Value::from_int(heap.intern("hello")), &heap);
  from_values.append_value(Value::make_null(), &heap);
  check_rows(*from_values.finish(), {S("hello"), kNull});

  ColumnBuilder decimals(Type::decimal(10, 2));
  decimals.append_value(Value::from_decimal(-150), nullptr);
  check_rows(*decimals.finish(), {I(-150)});

  ColumnBuilder wrong(Type::integer());
  CHECK_THROWS_AS(wrong.append_string("x"), Error);
}

TEST_CASE("storage: an empty table has one empty column per schema column") {
  TableSchema schema{"t", {{"a", Type::integer()}, {"b", Type::varchar()}}};
  auto table = make_empty_table(schema);
  CHECK(table->columns.size() == 2);
  CHECK(table->rows() == 0);
  CHECK(table->columns[1]->encoding() == Encoding::Dictionary);
}

}  // namespace
}  // namespace tally
