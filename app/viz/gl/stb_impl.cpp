// stb_image_write's implementation, compiled only where no system libstb
// provides it (the FetchContent fallback; Debian links -lstb).
#ifdef ATTNVIZ_STB_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#endif
