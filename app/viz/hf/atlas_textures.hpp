// The Model view's two atlases (every head before and after heads are
// switched off) as GL textures, uploaded once per result: the overview then
// draws each head as one textured quad.
#pragma once

#include <cstdint>

#include <imgui.h>

#include "gl/gl_objects.hpp"
#include "model_names.hpp"
#include "model/hf/model_session.hpp"

namespace viz {

class AtlasTextures {
 public:
  // Uploads what changed since the last call (ModelSession::atlas_generation).
  void sync(const ModelSession& session);
  ImTextureID before() const { return id(before_); }
  ImTextureID after() const { return id(after_); }

 private:
  static ImTextureID id(const gl::Texture& t) { return t ? (ImTextureID)(intptr_t)t.id() : nullptr; }
  static void upload(gl::Texture& texture, const HeadAtlas& atlas);
  gl::Texture before_, after_;
  std::uint64_t generation_ = ~std::uint64_t{0};
};

}  // namespace viz
