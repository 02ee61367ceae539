// An expression's source text, shared with the script it came from rather than copied:
// every node of a left-deep chain such as `a + a + ... + a` spans from the chain's start,
// so a copy per node would cost the square of the chain's length.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace tally {

class SqlText {
 public:
  SqlText() = default;
  // Text made for a node (a folded constant, "NULL"): the node owns it.
  SqlText(std::string text)  // NOLINT(google-explicit-constructor): reads as a string
      : SqlText(std::make_shared<const std::string>(std::move(text))) {}
  SqlText(const char* text) : SqlText(std::string(text)) {}  // NOLINT(google-explicit-constructor)
  explicit SqlText(std::shared_ptr<const std::string> whole)
      : view_(*whole), source_(std::move(whole)) {}
  // `slice` lies inside *source.
  SqlText(std::shared_ptr<const std::string> source, std::string_view slice)
      : view_(slice), source_(std::move(source)) {}

  std::string_view view() const { return view_; }
  operator std::string_view() const { return view_; }  // NOLINT(google-explicit-constructor)
  std::string str() const { return std::string(view_); }
  bool empty() const { return view_.empty(); }
  size_t size() const { return view_.size(); }
  friend bool operator==(const SqlText& a, const SqlText& b) { return a.view_ == b.view_; }

 private:
  std::string_view view_;
  std::shared_ptr<const std::string> source_;  // keeps view_'s characters alive
};

}  // namespace tally

template <>
struct fmt::formatter<tally::SqlText> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const tally::SqlText& text, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(text.view(), ctx);
  }
};
