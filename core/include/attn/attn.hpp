// Umbrella header for the attention core.
#pragma once

#include "attn/explain/explain.hpp"
#include "attn/base/matrix.hpp"
#include "attn/scenario/scenario.hpp"
#include "attn/compute/trace.hpp"
