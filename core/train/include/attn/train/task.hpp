// Toy sequence tasks for training a tiny attention model, generated on the fly
// from a seed. Every task is next-token prediction over a causal sequence;
// only the positions the task makes predictable are scored.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace attn::train {

enum class TaskKind { Copy, Reverse, Sort, PreviousToken, Induction, KeyValue };

struct TaskSpec {
  TaskKind kind = TaskKind::Induction;
  int vocab = 16;   // content symbols; task markers (e.g. the separator) come on top
  int length = 12;  // length of the random part (for key-value: number of pairs)
  // Induction only: length/2 filler tokens fall at random before the first
  // copy and between the copies, so where the repeat starts and how far back
  // its earlier copy lies both vary, and no head can solve the task by
  // position alone. (Fillers only before the first copy left that distance
  // fixed at `length`.)
  bool random_offset = false;
};

// A batch of sequences: tokens(b, t) is the input at position t, target(b, t)
// the token to predict there, scored(b, t) whether that position counts for
// the loss and the accuracy.
struct Batch {
  Eigen::MatrixXi tokens;  // (batch, seq_len), row-major by meaning: one row per sequence
  Eigen::MatrixXi target;  // (batch, seq_len)
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> scored;  // (batch, seq_len)
  int size() const { return static_cast<int>(tokens.rows()); }
};

// Total vocabulary the model sees (content symbols plus task markers).
int model_vocab(const TaskSpec& task);
// Sequence length the model sees for this task.
int sequence_length(const TaskSpec& task);
// "copy", "reverse", "sort", "previous-token", "induction", "key-value".
std::string task_name(TaskKind kind);
// Inverse of task_name; throws std::invalid_argument naming the valid names.
TaskKind task_from_name(const std::string& name);
// One sentence: what a head must do to solve the task.
std::string task_rule(TaskKind kind);
// Display name of a token: content symbols are "A".."Z" then "t26", "t27"...;
// markers are named for what they do ("|" separator, "?" query, "." filler).
std::string token_name(const TaskSpec& task, int token);
// Parses space-separated token names (as token_name prints them); throws
// std::invalid_argument naming the first unknown word.
std::vector<int> parse_tokens(const TaskSpec& task, const std::string& text);

// The ranges validate_task allows: vocab 2 to kMaxTaskVocab, length 1 to
// kMaxTaskLength (readers of lesson files state them in their messages).
constexpr int kMaxTaskVocab = 64;
constexpr int kMaxTaskLength = 64;

// Checks vocab/length ranges; empty when valid, else one message naming the field.
std::string validate_task(const TaskSpec& task);

// `batch` fresh sequences drawn with rng.
Batch make_batch(const TaskSpec& task, int batch, std::mt19937_64& rng);
// The held-out set: drawn from a generator seeded apart from training
// (seed ^ a fixed constant), so it never overlaps the training stream's draws.
Batch held_out_batch(const TaskSpec& task, int count, std::uint64_t seed);

}  // namespace attn::train
