// Umbrella header for the attention core.
#pragma once

#include "attn/explain.hpp"
#include "attn/matrix.hpp"
#include "attn/scenario.hpp"
#include "attn/trace.hpp"
