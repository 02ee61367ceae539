#include "tools/data/tpch_lineitem.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "compiler/common/date.h"
#include "compiler/common/error.h"
#include "runtime/load/parallel.h"
#include "tools/data/random.h"
#include "tools/data/tpch_text.h"

namespace tally {

namespace {

enum LineitemColumn {
  kOrderKey,
  kPartKey,
  kSuppKey,
  kLineNumber,
  kQuantity,
  kExtendedPrice,
  kDiscount,
  kTax,
  kReturnFlag,
  kLineStatus,
  kShipDate,
  kCommitDate,
  kReceiptDate,
  kShipInstruct,
  kShipMode,
  kComment,
  kColumnCount
};

// Random fields, each its own counter-based stream.
enum Field : uint64_t {
  kFieldLineCount = 1,
  kFieldOrderDate,
  kFieldPart,
  kFieldSupplier,
  kFieldQuantity,
  kFieldDiscount,
  kFieldTax,
  kFieldShip,
  kFieldCommit,
  kFieldReceipt,
  kFieldReturnFlag,
  kFieldInstruct,
  kFieldMode,
  kFieldComment,
  kFieldCommentPool,
};

const std::vector<std::string> kInstructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                                "TAKE BACK RETURN"};
const std::vector<std::string> kModes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
const std::vector<std::string> kFlags = {"A", "F", "N", "O", "R"};
enum Flag : uint32_t { kA, kF, kN, kO, kR };

// dbgen draws comments from a large text; a fixed pool keeps the dictionary of l_comment
// small (a few thousand entries instead of millions) while the values look the same.
constexpr size_t kCommentPool = 4096;

struct Scale {
  uint64_t orders;
  int64_t parts;      // SF * 200,000
  int64_t suppliers;  // SF * 10,000
};

Scale scale_of(double sf) {
  if (!(sf > 0) || sf > 100000) {
    throw Error(ErrorKind::Unsupported,
                "lineitem scale factor must be positive, got " + std::to_string(sf));
  }
  auto at_least_one = [](double v) { return std::max<int64_t>(1, std::llround(v)); };
  return {static_cast<uint64_t>(at_least_one(sf * 1500000)), at_least_one(sf * 200000),
          at_least_one(sf * 10000)};
}

// Spec 4.2.3: P_RETAILPRICE in cents.
int64_t retail_price_cents(int64_t partkey) {
  return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000);
}

// Spec 4.2.3: the i-th (0..3) supplier of a part, as PARTSUPP lists them.
int64_t supplier_of(int64_t partkey, int64_t i, int64_t suppliers) {
  return (partkey + i * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1;
}

// Orders are numbered 0..n-1; keys are sparse, 8 used of every 32 (spec 4.2.3).
int64_t order_key(uint64_t order) { return static_cast<int64_t>((order / 8) * 32 + order % 8 + 1); }

struct Dates {
  int32_t start = days_from_civil(1992, 1, 1);
  int32_t last_order = days_from_civil(1998, 12, 31) - 151;
  int32_t current = days_from_civil(1995, 6, 17);
};

// The rows of one chunk: numbers go straight to the builders, strings are collected as
// pool indexes and appended in bulk at the end of the chunk.
struct ChunkRows {
  std::vector<ColumnBuilder>& ints;
  std::array<std::vector<uint32_t>, kColumnCount> codes;
};

class LineitemWriter {
 public:
  LineitemWriter(const Scale& scale, uint64_t seed) : scale_(scale), seed_(seed) {}

  void order(uint64_t o, ChunkRows& rows) const {
    int64_t lines = uniform_between(random_bits(seed_, o, kFieldLineCount), 1, 7);
    int32_t ordered = static_cast<int32_t>(
        uniform_between(random_bits(seed_, o, kFieldOrderDate), dates_.start, dates_.last_order));
    for (int64_t line = 0; line < lines; ++line) {
      this->line(o, line, ordered, rows);
    }
  }

 private:
  void line(uint64_t o, int64_t line, int32_t ordered, ChunkRows& rows) const {
    uint64_t id = o * 8 + static_cast<uint64_t>(line);
    auto draw = [&](Field f, int64_t lo, int64_t hi) {
      return uniform_between(random_bits(seed_, id, f), lo, hi);
    };
    int64_t part = draw(kFieldPart, 1, scale_.parts);
    int64_t quantity = draw(kFieldQuantity, 1, 50);
    int64_t ship = ordered + draw(kFieldShip, 1, 121);
    int64_t receipt = ship + draw(kFieldReceipt, 1, 30);
    auto& ints = rows.ints;
    ints[kOrderKey].append_int(order_key(o));
    ints[kPartKey].append_int(part);
    ints[kSuppKey].append_int(supplier_of(part, draw(kFieldSupplier, 0, 3), scale_.suppliers));
    ints[kLineNumber].append_int(line + 1);
    ints[kQuantity].append_int(quantity * 100);
    ints[kExtendedPrice].append_int(quantity * retail_price_cents(part));
    ints[kDiscount].append_int(draw(kFieldDiscount, 0, 10));
    ints[kTax].append_int(draw(kFieldTax, 0, 8));
    ints[kShipDate].append_int(ship);
    ints[kCommitDate].append_int(ordered + draw(kFieldCommit, 30, 90));
    ints[kReceiptDate].append_int(receipt);
    auto& codes = rows.codes;
    uint32_t returned = draw(kFieldReturnFlag, 0, 1) ? kR : kA;
    codes[kReturnFlag].push_back(receipt <= dates_.current ? returned : kN);
    codes[kLineStatus].push_back(ship > dates_.current ? kO : kF);
    codes[kShipInstruct].push_back(static_cast<uint32_t>(draw(kFieldInstruct, 0, 3)));
    codes[kShipMode].push_back(static_cast<uint32_t>(draw(kFieldMode, 0, 6)));
    codes[kComment].push_back(static_cast<uint32_t>(draw(kFieldComment, 0, kCommentPool - 1)));
  }

  Scale scale_;
  uint64_t seed_;
  Dates dates_;
};

}  // namespace

TableSchema lineitem_schema() {
  auto money = Type::decimal(15, 2);
  return {"lineitem",
          {{"l_orderkey", Type::bigint(), true},
           {"l_partkey", Type::integer(), true},
           {"l_suppkey", Type::integer(), true},
           {"l_linenumber", Type::integer(), true},
           {"l_quantity", money, true},
           {"l_extendedprice", money, true},
           {"l_discount", money, true},
           {"l_tax", money, true},
           {"l_returnflag", Type::char_(1), true},
           {"l_linestatus", Type::char_(1), true},
           {"l_shipdate", Type::date(), true},
           {"l_commitdate", Type::date(), true},
           {"l_receiptdate", Type::date(), true},
           {"l_shipinstruct", Type::char_(25), true},
           {"l_shipmode", Type::char_(10), true},
           {"l_comment", Type::varchar(44), true}}};
}

TablePtr generate_lineitem(double scale_factor, uint64_t seed) {
  Scale scale = scale_of(scale_factor);
  LineitemWriter writer(scale, seed);
  std::vector<std::string> comments = tpch_comments(kCommentPool, 10, 43, seed ^ kFieldCommentPool);
  std::array<const std::vector<std::string>*, kColumnCount> pools{};
  pools[kReturnFlag] = pools[kLineStatus] = &kFlags;
  pools[kShipInstruct] = &kInstructions;
  pools[kShipMode] = &kModes;
  pools[kComment] = &comments;

  auto fill = [&](std::vector<ColumnBuilder>& columns, size_t begin, size_t end) {
    ChunkRows rows{columns, {}};
    size_t expected = (end - begin) * 4 + 64;  // 4 lines per order on average
    for (size_t c = 0; c < kColumnCount; ++c) {
      pools[c] ? rows.codes[c].reserve(expected) : columns[c].reserve(expected);
    }
    for (size_t o = begin; o < end; ++o) writer.order(o, rows);
    for (size_t c = 0; c < kColumnCount; ++c) {
      if (pools[c]) columns[c].append_pooled_strings(*pools[c], rows.codes[c]);
    }
  };
  return build_table_parallel(lineitem_schema(), scale.orders, fill);
}

}  // namespace tally
