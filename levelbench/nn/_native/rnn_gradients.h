// Weight gradients inside the backward loops of levelbench's native RNN kernels (gru_cpu.cc,
// lstm_cpu.cc), a block of steps at a time, on the vectors, buffers and tiles of rnn_cpu.h.
//
// dW = sum_t dG_t^T v_t (v: the step's input x_t or previous state h_{t-1}) was one large XLA GEMM
// over all T * B rows after the loop, reading back (T, B, gates * H) gradients the loop had
// written out. Instead each thread keeps the gate gradients of the last few steps (about
// kBlockRows rows, hot in its caches) and, every such block, adds dG_block^T v_block to its own
// rows of dW: no (T, B, gates * H) array leaves the kernel, and XLA maps no temporaries for it.
// Block boundaries depend only on B, so sums run in the same order whatever the thread count.

#pragma once

#include "rnn_cpu.h"

namespace {

constexpr int64_t kBlockRows = 128;

int64_t block_steps(int64_t T, int64_t B) {
  return std::max<int64_t>(1, std::min<int64_t>(T, kBlockRows / std::max<int64_t>(B, 1)));
}

// c (Rows x NV*8) = A x panel, A (Rows x k) with element (i, p) at a[p * lda + i]: rows of dW are
// columns of the kept gate gradients.
template <int Rows, int NV>
inline void tile_t(const float* a, int64_t lda, int64_t k, const float* panel, float* c) {
  vf acc[Rows][NV] = {};
  for (int64_t p = 0; p < k; ++p) {
    vf w[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) w[v] = load(panel + p * NV * kLanes + v * kLanes);
#pragma GCC unroll 4
    for (int i = 0; i < Rows; ++i) {
      vf ai = splat(a[p * lda + i]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[i][v] += ai * w[v];
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store(c + (i * NV + v) * kLanes, acc[i][v]);
}

#if defined(__AVX2__) && defined(__FMA__)
// As tile<4, 3>, and for the same reasons: named registers, not inlined.
template <>
__attribute__((noinline)) void tile_t<4, 3>(const float* a, int64_t lda, int64_t k, const float* panel, float* c) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c02 = c00, c10 = c00, c11 = c00, c12 = c00;
  __m256 c20 = c00, c21 = c00, c22 = c00, c30 = c00, c31 = c00, c32 = c00;
  for (int64_t p = 0; p < k; ++p, panel += 3 * kLanes, a += lda) {
    __m256 w0 = _mm256_load_ps(panel), w1 = _mm256_load_ps(panel + kLanes),
           w2 = _mm256_load_ps(panel + 2 * kLanes);
    asm("" : "+x"(w0), "+x"(w1), "+x"(w2));
    __m256 x = _mm256_broadcast_ss(a);
    c00 = _mm256_fmadd_ps(x, w0, c00); c01 = _mm256_fmadd_ps(x, w1, c01); c02 = _mm256_fmadd_ps(x, w2, c02);
    x = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(x, w0, c10); c11 = _mm256_fmadd_ps(x, w1, c11); c12 = _mm256_fmadd_ps(x, w2, c12);
    x = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(x, w0, c20); c21 = _mm256_fmadd_ps(x, w1, c21); c22 = _mm256_fmadd_ps(x, w2, c22);
    x = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(x, w0, c30); c31 = _mm256_fmadd_ps(x, w1, c31); c32 = _mm256_fmadd_ps(x, w2, c32);
  }
  _mm256_storeu_ps(c, c00); _mm256_storeu_ps(c + 8, c01); _mm256_storeu_ps(c + 16, c02);
  _mm256_storeu_ps(c + 24, c10); _mm256_storeu_ps(c + 32, c11); _mm256_storeu_ps(c + 40, c12);
  _mm256_storeu_ps(c + 48, c20); _mm256_storeu_ps(c + 56, c21); _mm256_storeu_ps(c + 64, c22);
  _mm256_storeu_ps(c + 72, c30); _mm256_storeu_ps(c + 80, c31); _mm256_storeu_ps(c + 88, c32);
}
#endif

template <int NV>
inline void tile_t_rows(int rows, const float* a, int64_t lda, int64_t k, const float* panel, float* c) {
  switch (rows) {
    case 4: tile_t<4, NV>(a, lda, k, panel, c); break;
    case 3: tile_t<3, NV>(a, lda, k, panel, c); break;
    case 2: tile_t<2, NV>(a, lda, k, panel, c); break;
    default: tile_t<1, NV>(a, lda, k, panel, c); break;
  }
}

inline void tile_t_any(int rows, int nv, const float* a, int64_t lda, int64_t k, const float* panel, float* c) {
  switch (nv) {
    case 3: tile_t_rows<3>(rows, a, lda, k, panel, c); break;
    case 2: tile_t_rows<2>(rows, a, lda, k, panel, c); break;
    default: tile_t_rows<1>(rows, a, lda, k, panel, c); break;
  }
}

// A block's rows of an (rows, n) operand, packed into panels of 24 columns (zero past n) for
// tile_t. row(k) points at row k; the rows of a block are not contiguous (one step's B rows each).
struct RowPanels {
  RowPanels(int64_t max_rows, int64_t n) : n(n), data(max_rows * blocks_of(n) * kLanes) {}

  template <typename Row>
  void pack(int64_t count, Row row) {
    rows = count;
    int64_t offset = 0;
    for (int64_t col = 0; col < n; col += 3 * kLanes) {
      const int64_t width = std::min<int64_t>(3 * kLanes, n - col), padded = blocks_of(width) * kLanes;
      for (int64_t k = 0; k < count; ++k) {
        const float* source = row(k) + col;
        float* out = data.data() + offset + k * padded;
        std::copy(source, source + width, out);
        std::fill(out + width, out + padded, 0.0f);
      }
      offset += count * padded;
    }
  }

  // d_w rows [u0, u1) (each n wide) += A^T v, A's element (k, u) at a[k * lda + u].
  void accumulate(const float* a, int64_t lda, int64_t u0, int64_t u1, float* d_w) const {
    alignas(64) float c[kRows * 3 * kLanes];
    int64_t offset = 0;
    for (int64_t col = 0; col < n; col += 3 * kLanes) {
      const int nv = static_cast<int>(blocks_of(std::min<int64_t>(3 * kLanes, n - col)));
      const float* panel = data.data() + offset;
      for (int64_t u = u0; u < u1; u += kRows) {
        const int count = static_cast<int>(std::min<int64_t>(kRows, u1 - u));
        tile_t_any(count, nv, a + u, lda, rows, panel, c);
        for (int i = 0; i < count; ++i)
          for (int v = 0; v < nv; ++v) {
            const int64_t j = col + v * kLanes;
            const int w = static_cast<int>(std::min<int64_t>(kLanes, n - j));
            float* out = d_w + (u + i) * n + j;
            store(out, load(out, w) + load(c + (i * nv + v) * kLanes), w);
          }
      }
      offset += rows * nv * kLanes;
    }
  }

  int64_t n, rows = 0;
  Floats data;
};

// d_b[u0, u1) += the column sums of A's rows, A's element (k, u) at a[k * lda + u].
inline void accumulate_sums(const float* a, int64_t lda, int64_t rows, int64_t u0, int64_t u1, float* d_b) {
  for (int64_t u = u0; u < u1; u += kLanes) {
    const int w = static_cast<int>(std::min<int64_t>(kLanes, u1 - u));
    vf sum = {};
    for (int64_t k = 0; k < rows; ++k) sum += load(a + k * lda + u, w);
    store(d_b + u, load(d_b + u, w) + sum, w);
  }
}

}  // namespace
