// The recent-files list survives restarts: kept one path per line in
// $XDG_CONFIG_HOME/attnviz/recent.txt (or ~/.config/attnviz/recent.txt).
// Test and headless runs never read or write it.
#pragma once

#include <string>
#include <vector>

namespace viz {

std::string recent_files_path();  // empty when no home/config folder is known
std::vector<std::string> load_recent_files(const std::string& path);
void save_recent_files(const std::string& path, const std::vector<std::string>& files);

}  // namespace viz
