// Writes generated CUDA so that it reads like code a person wrote: statements at the depth of
// the blocks around them, blocks that close themselves, snippets re-indented to fit.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

namespace tally {

class SourceWriter {
 public:
  // One line at the current depth (a line that starts with '#', a pragma, too).
  void line(std::string_view text);
  template <typename... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    line(std::string_view(fmt::format(format, std::forward<Args>(args)...)));
  }
  // Several lines, each at the current depth plus the depth of the braces opened before it
  // within `text` (its own leading spaces are dropped).
  void lines(std::string_view text);
  void blank() { out_ += '\n'; }

  // `head {` now and `}` when the Block ends; the lines between are one level deeper.
  class [[nodiscard]] Block {
   public:
    explicit Block(SourceWriter& w, std::string_view close) : w_(&w), close_(close) {}
    Block(Block&& other) noexcept : w_(std::exchange(other.w_, nullptr)), close_(other.close_) {}
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    Block& operator=(Block&&) = delete;
    ~Block();

   private:
    SourceWriter* w_;
    std::string close_;
  };
  Block block(std::string_view head, std::string_view close = "}");
  template <typename... Args>
  Block block(fmt::format_string<Args...> format, Args&&... args) {
    return block(std::string_view(fmt::format(format, std::forward<Args>(args)...)));
  }

  const std::string& text() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int depth_ = 0;
};

}  // namespace tally
