// The phrases messages use for each kind of file (see file_kind.hpp).
#include "files/file_kind.hpp"

namespace attn::io::detail {

std::string a_file_of(const FileKind& kind) {
  return *kind.noun ? std::string("a ") + kind.noun + " file" : std::string("a JSON file");
}

std::string json_of(const FileKind& kind) {
  return *kind.noun ? std::string("a JSON ") + kind.noun : std::string("JSON text");
}

}  // namespace attn::io::detail
