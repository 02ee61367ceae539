// Arrow struct arrays built by hand for the library's tests: each column from a list of
// optional values, with `lead` junk rows in front that an offset skips (the child's own
// offset, or the struct's), and a release callback that records that it ran.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tally/arrow_c_data.h"

namespace tally::test {

struct ArrowTestColumn {
  std::string name, format;
  std::vector<uint8_t> validity, data, characters;
  int64_t length = 0, null_count = 0;
  const void* buffers[3] = {nullptr, nullptr, nullptr};
  int n_buffers = 2;
};

inline void set_bit(std::vector<uint8_t>& bits, size_t i, bool on) {
  if (bits.size() <= i / 8) bits.resize(i / 8 + 1, 0);
  if (on) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
}

// Rows: `lead` junk rows (valid, value `junk`), then `values`. A NULL holds `null_fill`.
template <typename T>
ArrowTestColumn fixed_column(std::string name, std::string format,
                             const std::vector<std::optional<T>>& values, size_t lead = 0,
                             T junk = T{}, T null_fill = T{}) {
  ArrowTestColumn c;
  c.name = std::move(name);
  c.format = std::move(format);
  auto push = [&](T v) {
    size_t at = c.data.size();
    c.data.resize(at + sizeof(T));
    std::memcpy(c.data.data() + at, &v, sizeof(T));
  };
  for (size_t i = 0; i < lead; ++i) push(junk), set_bit(c.validity, i, true);
  for (size_t i = 0; i < values.size(); ++i) {
    push(values[i].value_or(null_fill));
    set_bit(c.validity, lead + i, values[i].has_value());
    c.null_count += values[i] ? 0 : 1;
  }
  c.length = static_cast<int64_t>(lead + values.size());
  return c;
}

inline ArrowTestColumn bool_column(std::string name, const std::vector<std::optional<bool>>& values,
                                   size_t lead = 0) {
  ArrowTestColumn c;
  c.name = std::move(name);
  c.format = "b";
  for (size_t i = 0; i < lead; ++i) set_bit(c.validity, i, true), set_bit(c.data, i, true);
  for (size_t i = 0; i < values.size(); ++i) {
    set_bit(c.validity, lead + i, values[i].has_value());
    set_bit(c.data, lead + i, values[i].value_or(false));
    c.null_count += values[i] ? 0 : 1;
  }
  c.data.resize((lead + values.size() + 7) / 8 + 1, 0);
  c.length = static_cast<int64_t>(lead + values.size());
  return c;
}

// utf8 ("u", int32 offsets) or large utf8 ("U", int64 offsets).
template <typename Offset = int32_t>
ArrowTestColumn string_column(std::string name,
                              const std::vector<std::optional<std::string>>& values,
                              size_t lead = 0) {
  ArrowTestColumn c;
  c.name = std::move(name);
  c.format = sizeof(Offset) == 4 ? "u" : "U";
  c.n_buffers = 3;
  auto push_offset = [&] {
    Offset o = static_cast<Offset>(c.characters.size());
    size_t at = c.data.size();
    c.data.resize(at + sizeof(Offset));
    std::memcpy(c.data.data() + at, &o, sizeof(Offset));
  };
  push_offset();
  for (size_t i = 0; i < lead; ++i) {
    c.characters.insert(c.characters.end(), {'j', 'u', 'n', 'k'});
    push_offset();
    set_bit(c.validity, i, true);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) c.characters.insert(c.characters.end(), values[i]->begin(), values[i]->end());
    push_offset();
    set_bit(c.validity, lead + i, values[i].has_value());
    c.null_count += values[i] ? 0 : 1;
  }
  c.length = static_cast<int64_t>(lead + values.size());
  return c;
}

// A struct array over `columns`. `child_offset`: the children start `lead` rows in;
// otherwise the struct's own offset skips them. `released` is set by the release callback.
class ArrowTestBatch {
 public:
  ArrowTestBatch(std::vector<ArrowTestColumn> columns, size_t lead, bool child_offset,
                 bool* released)
      : columns_(std::move(columns)), released_(released) {
    for (auto& c : columns_) {
      c.buffers[0] = c.validity.empty() || c.null_count == 0 ? nullptr : c.validity.data();
      c.buffers[1] = c.data.data();
      c.buffers[2] = c.characters.empty() ? c.data.data() : c.characters.data();
      arrays_.push_back(ArrowArray{c.length, c.null_count, child_offset ? int64_t(lead) : 0,
                                   c.n_buffers, 0, c.buffers, nullptr, nullptr, release_child,
                                   nullptr});
      schemas_.push_back(ArrowSchema{c.format.c_str(), c.name.c_str(), nullptr, ARROW_FLAG_NULLABLE,
                                     0, nullptr, nullptr, release_schema, nullptr});
    }
    for (auto& a : arrays_) array_pointers_.push_back(&a);
    for (auto& s : schemas_) schema_pointers_.push_back(&s);
    rows_ = columns_.empty() ? 0 : columns_.front().length - static_cast<int64_t>(lead);
    struct_offset_ = child_offset ? 0 : static_cast<int64_t>(lead);
  }

  // Structs for register_arrow_table; the array's release deletes this batch.
  static void hand_over(std::unique_ptr<ArrowTestBatch> batch, ArrowSchema* schema,
                        ArrowArray* array) {
    ArrowTestBatch* b = batch.release();
    *schema = ArrowSchema{"+s",
                          "",
                          nullptr,
                          0,
                          static_cast<int64_t>(b->schemas_.size()),
                          b->schema_pointers_.data(),
                          nullptr,
                          release_schema,
                          nullptr};
    *array = ArrowArray{b->rows_,
                        0,
                        b->struct_offset_,
                        1,
                        static_cast<int64_t>(b->arrays_.size()),
                        b->no_buffers_,
                        b->array_pointers_.data(),
                        nullptr,
                        release_batch,
                        b};
  }

  const ArrowTestColumn& column(size_t i) const { return columns_[i]; }

 private:
  static void release_child(ArrowArray* a) { a->release = nullptr; }
  static void release_schema(ArrowSchema* s) { s->release = nullptr; }
  static void release_batch(ArrowArray* a) {
    auto* b = static_cast<ArrowTestBatch*>(a->private_data);
    for (ArrowArray* child : b->array_pointers_) child->release(child);
    if (b->released_) *b->released_ = true;
    delete b;
    a->release = nullptr;
  }

  std::vector<ArrowTestColumn> columns_;
  std::vector<ArrowArray> arrays_;
  std::vector<ArrowSchema> schemas_;
  std::vector<ArrowArray*> array_pointers_;
  std::vector<ArrowSchema*> schema_pointers_;
  const void* no_buffers_[1] = {nullptr};
  int64_t rows_ = 0, struct_offset_ = 0;
  bool* released_ = nullptr;
};

}  // namespace tally::test
