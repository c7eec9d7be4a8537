#include <ebisu_kokkos/impl/performance_model.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace EbisuKokkos {
namespace Impl {

DeviceModel reference_h200_model() {
  DeviceModel d;
  d.name = "NVIDIA H200 (reference figures)";
  d.sm_count = 132;
  d.clock_ghz = 1.98;
  d.smem_per_block_bytes = 227 * 1024;
  d.smem_per_sm_bytes = 228 * 1024;
  d.regs_per_sm = 65536;
  d.dram_bandwidth_gbs = 4108;  // measured device-to-device copy, read + write
  d.smem_bandwidth_gbs = d.sm_count * 128.0 * d.clock_ghz;
  d.fp64_gflops = d.sm_count * 64 * 2 * d.clock_ghz;
  d.fp32_gflops = d.sm_count * 128 * 2 * d.clock_ghz;
  d.grid_sync_us = 2.5;
  return d;
}

namespace {
// Host-side cost of one Kokkos dispatch (MDRange on Cuda, Kokkos 3.4), and the
// gap the GPU sees between back-to-back kernels of a dispatch-per-step loop.
constexpr double kGenericDispatchS = 4.0e-6;
constexpr double kGenericKernelGapS = 0.8e-6;
// A graph-replayed step over its memory time (H200 sweep, graph-replayed plain
// MDRange: 256^2 1.82 us, 512^2 2.77 us, 32^3 2.05-2.45 us per step).
constexpr double kGraphStepOverheadS2D = 1.5e-6;
constexpr double kGraphStepOverheadS3D = 2.2e-6;
}  // namespace

double generic_step_seconds(double memory_seconds, int rank, bool graph_replayed) {
  if (graph_replayed) return memory_seconds + (rank >= 3 ? kGraphStepOverheadS3D : kGraphStepOverheadS2D);
  return std::max(kGenericDispatchS, memory_seconds + kGenericKernelGapS);
}

double predict_generic_seconds_2d(const DeviceModel& d, const StencilModel& s, long n_slow, long n_fast, int steps,
                                  bool copy_back_free) {
  // One read and one write per cell-step at ~76% of the copy bandwidth for the
  // 5-point star, less as the stencil grows (192, 175, 192, 113 GCells/s for
  // j2d5pt, j2d9pt, j2d9pt-gol, j2d25pt at 2048^2 on an H200).
  const int r = s.radius;
  const double interior = static_cast<double>(n_slow - 2 * r) * (n_fast - 2 * r);
  const double gcells = 0.76 * d.dram_bandwidth_gbs / (2.0 * s.scalar_bytes) *
                        std::pow(5.0 / std::max(s.points, 5), 0.33);
  double t = steps * generic_step_seconds(interior / (gcells * 1e9), 2, steps >= kGenericGraphMinSteps);
  // An odd step count ends in the scratch buffer: one copy back.
  if (steps % 2 == 1 && !copy_back_free) t += 2.0 * n_slow * n_fast * s.scalar_bytes / (d.dram_bandwidth_gbs * 1e9);
  return t;
}

double StencilModel::smem_accesses_per_cell() const {
  // One store of the new value plus the loads of every offset that is not in
  // the thread's own column (those come from registers). For a star stencil
  // that is the 2r in-row neighbours (2-D) or the 4r in-plane ones (3-D); a
  // box-like stencil reads every non-centre-column offset.
  const int centre_column = 2 * radius + 1;
  const int off_column = box_like ? points - centre_column : 2 * radius * (rank - 1);
  return 1.0 + off_column;
}

LaunchSplit split_launches(int steps, int main_depth, unsigned usable_depths,
                           const std::function<double(int)>& seconds_of, double odd_count_seconds) {
  constexpr int kMaxTail = 4;
  constexpr int kMaxDepth = 31;
  LaunchSplit best;
  if (steps <= 0 || main_depth < 1) return best;
  std::vector<double> seconds(kMaxDepth + 1, 0.0);
  const auto usable = [&](int d) { return d >= 1 && d <= kMaxDepth && ((usable_depths >> d) & 1u) != 0; };
  const auto launch_seconds = [&](int d) {
    if (seconds[d] == 0.0) seconds[d] = seconds_of(d);
    return seconds[d];
  };
  const int full = steps / main_depth;
  const int rem = steps % main_depth;
  bool found = false;
  std::vector<int> tail;
  // Tails of non-increasing depths, so every multiset is seen once, deepest first.
  std::function<void(int, int, int, double)> extend = [&](int left, int largest, int kept, double secs) {
    if (left == 0) {
      const int launches = kept + static_cast<int>(tail.size());
      const double total = secs + (launches % 2 == 1 ? odd_count_seconds : 0.0);
      // Strictly better by a margin: among equal splits the first seen (fewest main launches given
      // back, deepest tail) stays, so the usual greedy split wins every tie.
      if (!found || total < best.seconds * (1 - 1e-9)) {
        found = true;
        best.main_launches = kept;
        best.tail = tail;
        best.seconds = total;
      }
      return;
    }
    if (static_cast<int>(tail.size()) == kMaxTail) return;
    for (int d = std::min(left, largest); d >= 1; --d) {
      if (!usable(d)) continue;
      tail.push_back(d);
      extend(left - d, d, kept, secs + launch_seconds(d));
      tail.pop_back();
    }
  };
  for (int back = 0; back <= std::min(2, full); ++back) {
    const int kept = full - back;
    extend(rem + back * main_depth, kMaxDepth, kept, kept * launch_seconds(main_depth));
  }
  if (!found) {  // no tail of at most kMaxTail usable launches: the deepest usable first, as far as it goes
    best.main_launches = full;
    best.seconds = full * launch_seconds(main_depth);
    for (int left = rem; left > 0;) {
      int d = left;
      while (d > 1 && !usable(d)) --d;
      best.tail.push_back(d);
      best.seconds += launch_seconds(d);
      left -= d;
    }
    if (best.launches() % 2 == 1) best.seconds += odd_count_seconds;
  }
  return best;
}

std::vector<int> greedy_launch_depths(int steps, int depth, unsigned usable_depths) {
  std::vector<int> depths;
  for (int done = 0; done < steps;) {
    int d = std::max(1, std::min(depth, steps - done));
    while (d > 1 && (d >= 32 || ((usable_depths >> d) & 1u) == 0)) --d;
    depths.push_back(d);
    done += d;
  }
  return depths;
}

}  // namespace Impl
}  // namespace EbisuKokkos
