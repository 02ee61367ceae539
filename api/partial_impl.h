// What a PartialResult holds (api/partial_result.cpp), and its byte format
// (api/partial_codec.cpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "runtime/cpu/partial_groups.h"
#include "runtime/session/database.h"
#include "tally/partial_result.h"

namespace tally {

struct PartialResult::Impl {
  std::string sql;
  TableSchema schema;  // the table in FROM as the statement was bound (no name: no FROM)
  // The statement bound against an empty table of `schema`, in a Database of its own, so
  // that a process without the data can merge and finalize.
  std::shared_ptr<Database> database;
  std::shared_ptr<const PreparedSelect> statement;
  PartialGroups groups;

  const BoundSelect& query() const { return statement->query; }
};

// Binds `sql` against an empty table of `schema` (api/partial_result.cpp).
void bind_partial(PartialResult::Impl& impl);

std::string encode_partial(const PartialResult::Impl& impl);
// Reads sql and schema, binds, then reads the groups.
void decode_partial(std::string_view bytes, PartialResult::Impl& impl);

}  // namespace tally
