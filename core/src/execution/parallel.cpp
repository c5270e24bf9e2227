// attn::parallel_for: the head pool's item loop, opened to the app.
#include "attn/execution/parallel.hpp"

#include <algorithm>

#include "execution/head_pool.hpp"

namespace attn {

void parallel_for(int items, int max_threads, double work_per_item, const std::function<void(int)>& f) {
  if (items <= 0) return;
  const int threads = detail::thread_count(work_per_item, items, std::max(1, max_threads));
  detail::for_each_item(items, threads, work_per_item, f);
}

}  // namespace attn
