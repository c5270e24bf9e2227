// Atlas upload (atlas_textures.hpp): nearest filtering, so a thumbnail's
// blocks stay sharp when the overview draws it larger than its pixels.
#include "hf/atlas_textures.hpp"

namespace viz {

void AtlasTextures::upload(gl::Texture& texture, const HeadAtlas& atlas) {
  if (atlas.width == 0 || atlas.height == 0) {
    texture.reset();
    return;
  }
  if (!texture) texture = gl::make_texture();
  glBindTexture(GL_TEXTURE_2D, texture.id());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, atlas.width, atlas.height, 0, GL_RGBA, GL_UNSIGNED_BYTE, atlas.rgba.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

void AtlasTextures::sync(const ModelSession& session) {
  if (session.atlas_generation() == generation_) return;
  generation_ = session.atlas_generation();
  upload(before_, session.atlas());
  upload(after_, session.atlas_after());
}

}  // namespace viz
