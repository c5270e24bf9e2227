// stb_image's implementation where no system libstb provides it.
#ifdef ATTNVIZ_STB_IMPLEMENTATION
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#endif
