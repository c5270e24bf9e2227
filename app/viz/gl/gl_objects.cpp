// Shader compilation and linking for the RAII program wrapper; errors carry
// the driver's log so a broken shader says why instead of drawing nothing.
#include "gl/gl_objects.hpp"

#include <stdexcept>
#include <vector>

namespace viz::gl {
namespace {

Shader compile(GLenum type, const std::string& source) {
  Shader shader(glCreateShader(type));
  const char* text = source.c_str();
  glShaderSource(shader.id(), 1, &text, nullptr);
  glCompileShader(shader.id());
  GLint ok = 0;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetShaderiv(shader.id(), GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1));
    glGetShaderInfoLog(shader.id(), length, nullptr, log.data());
    throw std::runtime_error(std::string(type == GL_VERTEX_SHADER ? "vertex" : "fragment") +
                             " shader: " + log.data());
  }
  return shader;
}

}  // namespace

Program make_program(const std::string& vertex_source, const std::string& fragment_source) {
  Shader vs = compile(GL_VERTEX_SHADER, vertex_source);
  Shader fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  Program program(glCreateProgram());
  glAttachShader(program.id(), vs.id());
  glAttachShader(program.id(), fs.id());
  glLinkProgram(program.id());
  GLint ok = 0;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 1 ? length : 1));
    glGetProgramInfoLog(program.id(), length, nullptr, log.data());
    throw std::runtime_error(std::string("shader link: ") + log.data());
  }
  glDetachShader(program.id(), vs.id());
  glDetachShader(program.id(), fs.id());
  return program;
}

}  // namespace viz::gl
