// Move-only RAII owners for the GL objects the app creates (textures, buffers,
// vertex arrays, shader programs). Each deletes its object exactly once, so
// members declared after the window/context die first and nothing leaks.
#pragma once

#include <string>
#include <utility>

#include "gl/gl.hpp"

namespace viz::gl {

// One GL name plus the function that deletes it.
template <void (*Delete)(GLuint)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(GLuint id) : id_(id) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  ~Handle() { reset(); }

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_ != 0) Delete(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

namespace detail {
inline void delete_texture(GLuint id) { glDeleteTextures(1, &id); }
inline void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
inline void delete_vertex_array(GLuint id) { glDeleteVertexArrays(1, &id); }
inline void delete_program(GLuint id) { glDeleteProgram(id); }
inline void delete_shader(GLuint id) { glDeleteShader(id); }
}  // namespace detail

using Texture = Handle<detail::delete_texture>;
using Buffer = Handle<detail::delete_buffer>;
using VertexArray = Handle<detail::delete_vertex_array>;
using Program = Handle<detail::delete_program>;
using Shader = Handle<detail::delete_shader>;

inline Texture make_texture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return Texture(id);
}
inline Buffer make_buffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return Buffer(id);
}
inline VertexArray make_vertex_array() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}

// Compiles and links a program; throws std::runtime_error with the GL log.
Program make_program(const std::string& vertex_source, const std::string& fragment_source);

}  // namespace viz::gl
