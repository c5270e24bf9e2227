// `attn model tokens --raw` prints each id's string as the vocabulary stores
// it ("Ġdog"), for matching against tokenizer.json; without --raw the pieces
// are made readable (" dog").
#include <doctest/doctest.h>

#include <string>

#include "run_attn.hpp"
#include "test_files.hpp"

using attn::cli::test::run_attn;

TEST_CASE("attn model tokens --raw prints the vocabulary's own strings") {
  const std::string gpt2 = attn::cli::test::hf_model_dir("gpt2");
  const auto readable = run_attn({"model", "tokens", gpt2, "--text", "the dog"});
  const auto raw = run_attn({"model", "tokens", gpt2, "--text", "the dog", "--raw"});
  INFO(raw.err);
  REQUIRE(readable.status == 0);
  REQUIRE(raw.status == 0);
  CHECK(readable.out.find("\t dog\n") != std::string::npos);
  CHECK(raw.out.find("\tĠdog\n") != std::string::npos);
  CHECK(raw.out.find("\t dog\n") == std::string::npos);
}
