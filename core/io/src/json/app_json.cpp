// parse_app_json (see attn/io/text_file.hpp): the published formats' JSON
// reader, for the app's own small files.
#include "attn/io/text_file.hpp"

#include "files/file_kind.hpp"
#include "json/json_text.hpp"

namespace attn::io {

nlohmann::json parse_app_json(const std::string& text, const char* kind) {
  return detail::parse_json_text(text, detail::FileKind{kind});
}

}  // namespace attn::io
