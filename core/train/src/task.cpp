// Toy task generation. Every task shares one marker token (id = vocab): the
// separator "|" between the two halves of copy/reverse/sort and between the
// pairs and the query of key-value, or the filler "." of induction and
// previous-token. The Python mirror of these rules follows them exactly.
#include "attn/train/task.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace attn::train {
namespace {

constexpr int kMaxVocab = kMaxTaskVocab;
constexpr int kMaxLength = kMaxTaskLength;
// Keeps the held-out generator's stream apart from the training stream's.
constexpr std::uint64_t kHeldOutSalt = 0x9E3779B97F4A7C15ULL;

int marker(const TaskSpec& task) { return task.vocab; }

bool marker_is_separator(TaskKind kind) {
  return kind == TaskKind::Copy || kind == TaskKind::Reverse || kind == TaskKind::Sort ||
         kind == TaskKind::KeyValue;
}

int uniform(std::mt19937_64& rng, int lo, int hi) {  // inclusive bounds
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

std::vector<int> random_content(const TaskSpec& task, std::mt19937_64& rng) {
  std::vector<int> s(task.length);
  for (int& t : s) t = uniform(rng, 0, task.vocab - 1);
  return s;
}

// `count` distinct values from [0, range) (a partial shuffle); validate_task
// keeps count <= range, since a repeat would make the task ambiguous.
std::vector<int> distinct_content(int count, int range, std::mt19937_64& rng) {
  std::vector<int> out(count);
  std::vector<int> pool(range);
  std::iota(pool.begin(), pool.end(), 0);
  for (int i = 0; i < count; ++i) {
    std::swap(pool[i], pool[uniform(rng, i, range - 1)]);
    out[i] = pool[i];
  }
  return out;
}

// One row: input = full[0..n-1], target[t] = full[t+1] (the last target is
// full[n] when present, else 0), scored where `scored_from <= t <= scored_to`.
void fill_next_token_row(Batch& b, int row, const std::vector<int>& full, int scored_from, int scored_to) {
  const int n = static_cast<int>(b.tokens.cols());
  for (int t = 0; t < n; ++t) {
    b.tokens(row, t) = full[t];
    b.target(row, t) = t + 1 < static_cast<int>(full.size()) ? full[t + 1] : 0;
    b.scored(row, t) = t >= scored_from && t <= scored_to;
  }
}

void make_sequence_task_row(const TaskSpec& task, Batch& b, int row, std::mt19937_64& rng) {
  const int L = task.length;
  const std::vector<int> s = random_content(task, rng);
  std::vector<int> answer = s;
  if (task.kind == TaskKind::Reverse) std::reverse(answer.begin(), answer.end());
  if (task.kind == TaskKind::Sort) std::sort(answer.begin(), answer.end());
  std::vector<int> full = s;
  full.push_back(marker(task));
  full.insert(full.end(), answer.begin(), answer.end());
  fill_next_token_row(b, row, full, L, 2 * L - 1);
}

void make_previous_token_row(const TaskSpec& task, Batch& b, int row, std::mt19937_64& rng) {
  const std::vector<int> s = random_content(task, rng);
  for (int t = 0; t < task.length; ++t) {
    b.tokens(row, t) = s[t];
    b.target(row, t) = t == 0 ? 0 : s[t - 1];
    b.scored(row, t) = t >= 1;
  }
}

void make_induction_row(const TaskSpec& task, Batch& b, int row, std::mt19937_64& rng) {
  const int L = task.length;
  const int n = sequence_length(task);
  // With a random offset, the L/2 fillers fall at random before the first
  // copy and between the copies, so both where the repeat starts and how
  // far back its earlier copy lies change: no fixed distance finds it.
  int prefix = 0, gap = 0;
  if (task.random_offset) {
    prefix = uniform(rng, 0, L / 2);
    gap = uniform(rng, 0, L / 2 - prefix);
  }
  const std::vector<int> s = distinct_content(L, task.vocab, rng);
  std::vector<int> full(prefix, marker(task));
  full.insert(full.end(), s.begin(), s.end());
  full.insert(full.end(), gap, marker(task));
  full.insert(full.end(), s.begin(), s.end());
  full.resize(n + 1, marker(task));  // trailing fillers, plus the target after the last input
  const int second = prefix + L + gap;  // where the repeat starts
  fill_next_token_row(b, row, full, second, second + L - 2);
}

void make_key_value_row(const TaskSpec& task, Batch& b, int row, std::mt19937_64& rng) {
  const int L = task.length;
  const int half = task.vocab / 2;
  const std::vector<int> keys = distinct_content(L, half, rng);
  std::vector<int> full;
  std::vector<int> values(L);
  for (int i = 0; i < L; ++i) {
    values[i] = uniform(rng, half, task.vocab - 1);
    full.push_back(keys[i]);
    full.push_back(values[i]);
  }
  const int asked = uniform(rng, 0, L - 1);
  full.push_back(keys[asked]);
  full.push_back(values[asked]);
  fill_next_token_row(b, row, full, 2 * L, 2 * L);
}

}  // namespace

int model_vocab(const TaskSpec& task) { return task.vocab + 1; }

int sequence_length(const TaskSpec& task) {
  const int L = task.length;
  switch (task.kind) {
    case TaskKind::PreviousToken: return L;
    case TaskKind::Induction: return task.random_offset ? 2 * L + L / 2 : 2 * L;
    case TaskKind::KeyValue: return 2 * L + 1;
    default: return 2 * L;  // copy, reverse, sort: s, marker, all but the last answer token
  }
}

std::string task_name(TaskKind kind) {
  switch (kind) {
    case TaskKind::Copy: return "copy";
    case TaskKind::Reverse: return "reverse";
    case TaskKind::Sort: return "sort";
    case TaskKind::PreviousToken: return "previous-token";
    case TaskKind::Induction: return "induction";
    case TaskKind::KeyValue: return "key-value";
  }
  return "unknown";
}

TaskKind task_from_name(const std::string& name) {
  for (TaskKind k : {TaskKind::Copy, TaskKind::Reverse, TaskKind::Sort, TaskKind::PreviousToken,
                     TaskKind::Induction, TaskKind::KeyValue})
    if (task_name(k) == name) return k;
  throw std::invalid_argument("task: unknown name \"" + name +
                              "\" (expected copy, reverse, sort, previous-token, induction or key-value)");
}

std::string task_rule(TaskKind kind) {
  switch (kind) {
    case TaskKind::Copy:
      return "After the separator, look back at the token in the same slot of the first half and repeat it.";
    case TaskKind::Reverse:
      return "After the separator, look at the first half from its end backwards, one slot further each step.";
    case TaskKind::Sort:
      return "After the separator, pick the smallest token of the first half not yet written out.";
    case TaskKind::PreviousToken:
      return "Look one position back and repeat the token found there.";
    case TaskKind::Induction:
      return "Find the earlier place the current token appeared and copy the token that followed it.";
    case TaskKind::KeyValue:
      return "Find the earlier copy of the queried key and answer with the value right after it.";
  }
  return "";
}

std::string token_name(const TaskSpec& task, int token) {
  if (token == marker(task)) return marker_is_separator(task.kind) ? "|" : ".";
  if (token < 0 || token > task.vocab) return "#" + std::to_string(token);
  if (token < 26) return std::string(1, static_cast<char>('A' + token));
  return "t" + std::to_string(token);
}

namespace {

// A typed word quoted in a message: a pasted paragraph is not repeated whole.
std::string quoted_word(const std::string& word) {
  constexpr std::size_t kShown = 40;
  if (word.size() <= kShown) return "\"" + word + "\"";
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
  return "\"" + word.substr(0, cut) + "\u2026\" (" + std::to_string(word.size()) + " characters)";
}

}  // namespace

std::vector<int> parse_tokens(const TaskSpec& task, const std::string& text) {
  std::istringstream in(text);
  std::vector<int> out;
  std::string word;
  while (in >> word) {
    int found = -1;
    for (int t = 0; t < model_vocab(task) && found < 0; ++t)
      if (token_name(task, t) == word) found = t;
    if (found < 0)
      throw std::invalid_argument("tokens: unknown token " + quoted_word(word) + " for " + task_name(task.kind) +
                                  " with vocab " + std::to_string(task.vocab));
    out.push_back(found);
  }
  return out;
}

std::string validate_task(const TaskSpec& task) {
  if (task.vocab < 2 || task.vocab > kMaxVocab)
    return "vocab: " + std::to_string(task.vocab) + " is outside 2.." + std::to_string(kMaxVocab);
  if (task.length < 1 || task.length > kMaxLength)
    return "length: " + std::to_string(task.length) + " is outside 1.." + std::to_string(kMaxLength);
  // A symbol twice in the first half would leave two possible next tokens
  // after it in the second: the rule could not be learned, only guessed.
  if (task.kind == TaskKind::Induction && task.length > task.vocab)
    return "length: induction needs every symbol of the first half to be different, so 1 to " +
           std::to_string(task.vocab) + " for vocab " + std::to_string(task.vocab) + ", got " +
           std::to_string(task.length);
  if (task.kind == TaskKind::KeyValue && task.length > task.vocab / 2)
    return "length: key-value needs distinct keys from the lower half of the vocabulary, so 1 to " +
           std::to_string(task.vocab / 2) + " pairs for vocab " + std::to_string(task.vocab) + ", got " +
           std::to_string(task.length);
  return "";
}

Batch make_batch(const TaskSpec& task, int batch, std::mt19937_64& rng) {
  const std::string problem = validate_task(task);
  if (!problem.empty()) throw std::invalid_argument(problem);
  if (batch < 1) throw std::invalid_argument("batch: must be at least 1, got " + std::to_string(batch));
  const int n = sequence_length(task);
  Batch b;
  b.tokens.setZero(batch, n);
  b.target.setZero(batch, n);
  b.scored.setConstant(batch, n, false);
  for (int row = 0; row < batch; ++row) {
    switch (task.kind) {
      case TaskKind::PreviousToken: make_previous_token_row(task, b, row, rng); break;
      case TaskKind::Induction: make_induction_row(task, b, row, rng); break;
      case TaskKind::KeyValue: make_key_value_row(task, b, row, rng); break;
      default: make_sequence_task_row(task, b, row, rng); break;
    }
  }
  return b;
}

Batch held_out_batch(const TaskSpec& task, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ kHeldOutSalt);
  return make_batch(task, count, rng);
}

}  // namespace attn::train
