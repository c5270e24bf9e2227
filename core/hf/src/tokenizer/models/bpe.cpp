// Byte-pair encoding (bpe.hpp): a word's pieces merged by rank until no
// merge applies, with the vocabulary's unknown token and byte fallback.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <queue>

#include "attn/io/excerpt.hpp"
#include "tokenizer/models/model.hpp"
#include "tokenizer/text/unicode.hpp"

namespace attn::hf::tokenizer_detail {
namespace {

constexpr std::size_t kMaxCachedWordBytes = 256;

struct Merge {
  int rank;
  int new_id;
};

std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

// Words seen before, so a text's repeated words cost one lookup. Bounded
// like HF's cache; shared by copies of the tokenizer and guarded by a mutex.
class WordCache {
 public:
  bool get(std::string_view word, std::vector<int>& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(std::string(word));
    if (it == map_.end()) return false;
    out.insert(out.end(), it->second.begin(), it->second.end());
    return true;
  }
  void put(std::string_view word, const int* ids, std::size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (map_.size() >= kCapacity) return;
    map_.emplace(std::string(word), std::vector<int>(ids, ids + n));
  }

 private:
  static constexpr std::size_t kCapacity = 10000;
  std::mutex mutex_;
  std::unordered_map<std::string, std::vector<int>> map_;
};

class Bpe final : public Model {
 public:
  Bpe(Vocab vocab, BpeOptions options) : vocab_(std::move(vocab)), options_(std::move(options)) {}

  void add_merges(const std::vector<std::pair<std::string, std::string>>& merges, const Where& where) {
    merges_.reserve(merges.size());
    const std::string& prefix = options_.continuing_subword_prefix;
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
      const auto& [a, b] = merges[rank];
      const int ia = lookup(a, where.index(rank), "names");
      const int ib = lookup(b, where.index(rank), "names");
      // With a subword prefix, "a ##b" makes "ab", not "a##b".
      const std::size_t skip = !prefix.empty() && b.rfind(prefix, 0) == 0 ? prefix.size() : 0;
      const int merged = lookup(a + b.substr(skip), where.index(rank), "makes");
      merges_.insert_or_assign(pair_key(ia, ib), Merge{static_cast<int>(rank), merged});  // a repeat: the last wins, as in HF
    }
    if (!options_.unk_token.empty() && !vocab_.count(options_.unk_token))
      fail(where, "unk_token " + io::quoted_excerpt(options_.unk_token) + " is not in the vocabulary");
  }

  void tokenize(std::string_view piece, std::vector<int>& out) const override {
    if (piece.empty()) return;
    if (options_.ignore_merges) {
      // Llama 3: a whole piece that is a token is taken as is.
      auto it = vocab_.find(std::string(piece));
      if (it != vocab_.end()) {
        out.push_back(it->second);
        return;
      }
    }
    // Like HF, only short words are cached: long ones are rare and would
    // fill the cache with text.
    const bool cacheable = piece.size() <= kMaxCachedWordBytes;
    if (cacheable && cache_->get(piece, out)) return;
    const std::size_t first = out.size();
    merge_word(piece, out);
    if (cacheable) cache_->put(piece, out.data() + first, out.size() - first);
  }

  const Vocab& vocab() const override { return vocab_; }
  std::string kind() const override { return "BPE"; }
  bool byte_fallback() const { return options_.byte_fallback; }

 private:
  int lookup(const std::string& token, const Where& where, const char* verb) const {
    auto it = vocab_.find(token);
    if (it == vocab_.end()) fail(where, std::string(verb) + " " + io::quoted_excerpt(token) + ", which is not in the vocabulary");
    return it->second;
  }

  // The piece's characters as initial symbols (HF's merge_word before merging).
  std::vector<int> initial_symbols(std::string_view piece) const {
    std::vector<int> ids;
    int pending_unk = -1;  // fused or not, the unknown waits until a known symbol
    const int unk_id = options_.unk_token.empty() ? -1 : vocab_.at(options_.unk_token);
    std::size_t i = 0;
    std::string s;
    while (i < piece.size()) {
      const std::size_t begin = i;
      next_code_point(piece, i);
      s.assign(piece.substr(begin, i - begin));
      if (begin > 0) s.insert(0, options_.continuing_subword_prefix);
      if (i == piece.size()) s += options_.end_of_word_suffix;
      auto it = vocab_.find(s);
      if (it != vocab_.end()) {
        if (pending_unk >= 0) ids.push_back(pending_unk);
        pending_unk = -1;
        ids.push_back(it->second);
        continue;
      }
      if (options_.byte_fallback && byte_tokens(piece.substr(begin, i - begin), ids)) continue;
      if (unk_id >= 0) {
        // HF keeps one unknown pending: fused, later unknowns join it.
        if (pending_unk >= 0 && !options_.fuse_unk) ids.push_back(pending_unk);
        pending_unk = unk_id;
      }
    }
    if (pending_unk >= 0) ids.push_back(pending_unk);
    return ids;
  }

  // "<0xNN>" for every byte, if the vocabulary has them all.
  bool byte_tokens(std::string_view chars, std::vector<int>& ids) const {
    std::vector<int> found;
    char name[8];
    for (unsigned char b : chars) {
      std::snprintf(name, sizeof name, "<0x%02X>", b);
      auto it = vocab_.find(name);
      if (it == vocab_.end()) return false;
      found.push_back(it->second);
    }
    ids.insert(ids.end(), found.begin(), found.end());
    return true;
  }

  // Repeatedly merges the adjacent pair of lowest rank (leftmost on ties),
  // through a heap of candidates checked for staleness when popped.
  void merge_word(std::string_view piece, std::vector<int>& out) const {
    struct Symbol {
      int id, prev, next;
      bool alive;
    };
    struct Candidate {
      int rank, pos, new_id;
      bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    const std::vector<int> ids = initial_symbols(piece);
    const int n = static_cast<int>(ids.size());
    std::vector<Symbol> syms(ids.size());
    for (int k = 0; k < n; ++k) syms[static_cast<std::size_t>(k)] = {ids[static_cast<std::size_t>(k)], k - 1, k + 1 < n ? k + 1 : -1, true};
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    auto consider = [&](int left) {
      if (left < 0) return;
      const int right = syms[static_cast<std::size_t>(left)].next;
      if (right < 0) return;
      auto it = merges_.find(pair_key(syms[static_cast<std::size_t>(left)].id, syms[static_cast<std::size_t>(right)].id));
      if (it != merges_.end()) heap.push({it->second.rank, left, it->second.new_id});
    };
    for (int k = 0; k + 1 < n; ++k) consider(k);
    while (!heap.empty()) {
      const Candidate top = heap.top();
      heap.pop();
      Symbol& s = syms[static_cast<std::size_t>(top.pos)];
      if (!s.alive || s.next < 0) continue;
      Symbol& right = syms[static_cast<std::size_t>(s.next)];
      auto it = merges_.find(pair_key(s.id, right.id));
      if (it == merges_.end() || it->second.new_id != top.new_id) continue;  // stale
      s.id = top.new_id;
      right.alive = false;
      s.next = right.next;
      if (s.next >= 0) syms[static_cast<std::size_t>(s.next)].prev = top.pos;
      consider(s.prev);
      consider(top.pos);
    }
    for (int k = n > 0 ? 0 : -1; k >= 0; k = syms[static_cast<std::size_t>(k)].next) out.push_back(syms[static_cast<std::size_t>(k)].id);
  }

  Vocab vocab_;
  BpeOptions options_;
  std::unordered_map<std::uint64_t, Merge> merges_;
  std::shared_ptr<WordCache> cache_ = std::make_shared<WordCache>();
};

}  // namespace

std::unique_ptr<Model> make_bpe(Vocab vocab, const std::vector<std::pair<std::string, std::string>>& merges,
                                BpeOptions options, const Where& where) {
  auto bpe = std::make_unique<Bpe>(std::move(vocab), std::move(options));
  bpe->add_merges(merges, where);
  return bpe;
}

}  // namespace attn::hf::tokenizer_detail
