// The window title's subject (window_title.hpp).
#include "model/document/window_title.hpp"

#include "model/hf/model_folder.hpp"

namespace model {

std::string window_where(const AppState& s) {
  if (s.hf.open && !s.hf.folder.empty()) {
    return "model " + model_folder_name(s.hf.folder);
  }
  if (s.hf.open) return "Model view";
  if (!s.path.empty()) return s.path;
  if (!s.doc_label.empty()) return s.doc_label;
  return "built-in lesson";
}

}  // namespace model
