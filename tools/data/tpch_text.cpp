#include "tools/data/tpch_text.h"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>

#include "tools/data/random.h"

namespace tally {

namespace {

using Words = std::span<const std::string_view>;

constexpr std::string_view kNouns[] = {
    "foxes",     "ideas",     "theodolites", "pinto beans", "instructions",   "dependencies",
    "excuses",   "platelets", "asymptotes",  "courts",      "dolphins",       "multipliers",
    "sauternes", "warthogs",  "frets",       "dinos",       "attainments",    "somas",
    "Tiresias",  "patterns",  "forges",      "braids",      "hockey players", "frays",
    "warhorses", "dugouts",   "notornis",    "epitaphs",    "pearls",         "tithes",
    "waters",    "orbits",    "gifts",       "sheaves",     "depths",         "sentiments",
    "decoys",    "realms",    "pains",       "grouches",    "escapades"};
constexpr std::string_view kVerbs[] = {
    "sleep",  "wake",   "are",       "cajole",   "haggle", "nag",   "use",     "boost",
    "affix",  "detect", "integrate", "maintain", "nod",    "was",   "lose",    "sublate",
    "solve",  "thrash", "promise",   "engage",   "hinder", "print", "x-ray",   "breach",
    "eat",    "grow",   "impress",   "mold",     "poach",  "serve", "run",     "dazzle",
    "snooze", "doze",   "unwind",    "kindle",   "play",   "hang",  "believe", "doubt"};
constexpr std::string_view kAdjectives[] = {
    "furious",  "sly",       "careful",  "blithe", "quick",  "fluffy",  "slow",
    "quiet",    "ruthless",  "thin",     "close",  "dogged", "daring",  "brave",
    "stealthy", "permanent", "enticing", "idle",   "busy",   "regular", "final",
    "ironic",   "even",      "bold",     "silent"};
constexpr std::string_view kAdverbs[] = {
    "sometimes", "always",    "never",   "furiously",  "slyly",       "carefully",  "blithely",
    "quickly",   "fluffily",  "slowly",  "quietly",    "ruthlessly",  "thinly",     "closely",
    "doggedly",  "daringly",  "bravely", "stealthily", "permanently", "enticingly", "idly",
    "busily",    "regularly", "finally", "ironically", "evenly",      "boldly",     "silently"};
constexpr std::string_view kPrepositions[] = {
    "about",        "above",   "according to", "across",  "after",       "against", "along",
    "alongside of", "among",   "around",       "at",      "atop",        "before",  "behind",
    "beneath",      "beside",  "besides",      "between", "beyond",      "by",      "despite",
    "during",       "except",  "for",          "from",    "in place of", "inside",  "instead of",
    "into",         "near",    "of",           "on",      "outside",     "over",    "past",
    "since",        "through", "throughout",   "to",      "toward",      "under",   "until",
    "up",           "upon",    "without",      "with",    "within"};
constexpr std::string_view kAuxiliaries[] = {
    "do",           "may",          "might",         "shall",         "will",
    "would",        "can",          "could",         "should",        "ought to",
    "must",         "will have to", "shall have to", "could have to", "should have to",
    "must have to", "need to",      "try to"};
constexpr std::string_view kTerminators[] = {".", ";", ":", "?", "!", "--"};

// Writes sentences of the spec's grammar, drawing from a counter-based stream.
class SentenceWriter {
 public:
  SentenceWriter(uint64_t seed, std::string& out) : seed_(seed), out_(out) {}

  void sentence() {
    switch (pick(5)) {
      case 0:
        noun_phrase(), verb_phrase();
        break;
      case 1:
        noun_phrase(), verb_phrase(), prepositional_phrase();
        break;
      case 2:
        noun_phrase(), verb_phrase(), noun_phrase();
        break;
      case 3:
        noun_phrase(), prepositional_phrase(), verb_phrase(), noun_phrase();
        break;
      default:
        noun_phrase(), prepositional_phrase(), verb_phrase(), prepositional_phrase();
        break;
    }
    out_ += kTerminators[pick(std::size(kTerminators))];
  }

 private:
  uint64_t pick(uint64_t n) { return uniform_below(random_bits(seed_, counter_++, 0), n); }
  void word(Words words) {
    if (!out_.empty() && out_.back() != ' ') out_ += ' ';
    out_ += words[pick(words.size())];
  }
  void noun_phrase() {
    switch (pick(4)) {
      case 0:
        break;
      case 1:
        word(kAdjectives);
        break;
      case 2:
        word(kAdjectives), out_ += ',', word(kAdjectives);
        break;
      default:
        word(kAdverbs), word(kAdjectives);
        break;
    }
    word(kNouns);
  }
  void verb_phrase() {
    switch (pick(4)) {
      case 0:
        word(kVerbs);
        break;
      case 1:
        word(kAuxiliaries), word(kVerbs);
        break;
      case 2:
        word(kVerbs), word(kAdverbs);
        break;
      default:
        word(kAuxiliaries), word(kVerbs), word(kAdverbs);
        break;
    }
  }
  void prepositional_phrase() {
    word(kPrepositions);
    out_ += " the";
    noun_phrase();
  }

  uint64_t seed_;
  uint64_t counter_ = 0;
  std::string& out_;
};

}  // namespace

std::vector<std::string> tpch_comments(size_t count, size_t min_length, size_t max_length,
                                       uint64_t seed) {
  std::string text;
  SentenceWriter writer(seed, text);
  // Long enough that slices rarely repeat.
  size_t text_size = std::max<size_t>(count * 16, 4 * max_length);
  while (text.size() < text_size) writer.sentence();
  std::vector<std::string> comments;
  comments.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    size_t length = static_cast<size_t>(uniform_between(random_bits(seed, i, 1),
                                                        static_cast<int64_t>(min_length),
                                                        static_cast<int64_t>(max_length)));
    size_t offset = uniform_below(random_bits(seed, i, 2), text.size() - length + 1);
    comments.push_back(text.substr(offset, length));
  }
  return comments;
}

}  // namespace tally
