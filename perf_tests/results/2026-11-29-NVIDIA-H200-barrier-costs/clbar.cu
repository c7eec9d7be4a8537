// Barrier costs on this GPU: grid.sync() of a cooperative launch against cluster.sync() (Hopper thread-block
// clusters of 2-16 blocks, one block per SM), and a cluster step with one distributed-shared-memory read per thread.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void grid_sync_loop(int n, unsigned long long* out) {
  cg::grid_group g = cg::this_grid();
  unsigned long long t0 = clock64();
  for (int i = 0; i < n; ++i) g.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = clock64() - t0;
}
__global__ void cluster_sync_loop(int n, unsigned long long* out) {
  cg::cluster_group c = cg::this_cluster();
  unsigned long long t0 = clock64();
  for (int i = 0; i < n; ++i) c.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = clock64() - t0;
}
__global__ void cluster_dsmem_loop(int n, unsigned long long* out, double* sink) {
  extern __shared__ double sm[];
  cg::cluster_group c = cg::this_cluster();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) sm[i] = i;
  c.sync();
  const unsigned r = c.block_rank(), nb = c.num_blocks();
  double* nbr = c.map_shared_rank(sm, (r + 1) % nb);
  double acc = 0;
  unsigned long long t0 = clock64();
  for (int i = 0; i < n; ++i) {
    acc += nbr[(threadIdx.x + i) & 1023];
    sm[threadIdx.x & 1023] = acc;
    c.sync();
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = clock64() - t0;
  if (acc == -1) *sink = acc;
}
int main() {
  int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  unsigned long long* d; cudaMalloc(&d, 8); double* sink; cudaMalloc(&sink, 8);
  const int n = 20000, threads = 512;
  const size_t smem = 200 * 1024;  // one block per SM
  cudaFuncSetAttribute(grid_sync_loop, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  for (int blocks : {sms, 128, 64, 16}) {
    void* args[] = {(void*)&n, (void*)&d};
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a);
    cudaError_t e = cudaLaunchCooperativeKernel((void*)grid_sync_loop, blocks, threads, args, smem, 0);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    printf("RESULT grid.sync blocks %d: %.3f us per sync (%s)\n", blocks, ms * 1e3 / n, cudaGetErrorString(e));
  }
  for (auto kern : {(void*)cluster_sync_loop, (void*)cluster_dsmem_loop}) {
    cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int cs : {2, 4, 8, 16}) {
      cudaLaunchConfig_t cfg = {};
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = cs; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
      cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = smem; cfg.attrs = attr; cfg.numAttrs = 1;
      cfg.gridDim = dim3(cs);
      int clusters = 0;
      cudaError_t oe = cudaOccupancyMaxActiveClusters(&clusters, kern, &cfg);
      cfg.gridDim = dim3(clusters * cs);
      cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
      cudaEventRecord(a);
      cudaError_t e = kern == (void*)cluster_sync_loop ? cudaLaunchKernelEx(&cfg, cluster_sync_loop, n, d)
                                                        : cudaLaunchKernelEx(&cfg, cluster_dsmem_loop, n, d, sink);
      cudaEventRecord(b); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b);
      printf("RESULT %s size %d: %d clusters (%d blocks): %.3f us per step (%s / %s)\n",
             kern == (void*)cluster_sync_loop ? "cluster.sync" : "dsmem+cluster.sync", cs, clusters, clusters * cs,
             ms * 1e3 / n, cudaGetErrorString(oe), cudaGetErrorString(e));
    }
  }
  return 0;
}
