// Compiled only to produce the shared precompiled headers (build_speed.cmake).
