// Small helpers to find and read the test data files (scenarios, fixtures)
// from the directories CMake passes in, never from the working directory.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ref_matrix.hpp"

namespace ref {

std::string read_text(const std::string& path);
// Every "*.json" file directly in dir, sorted by name.
std::vector<std::string> json_files_in(const std::string& dir);
// "dir/name.json" -> "name"
std::string stem_of(const std::string& path);
// A fixture's matrix, a JSON array of rows of numbers.
RMat matrix_of(const nlohmann::json& rows);

}  // namespace ref
