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

// A block's rows of an (rows, n) operand, packed into panels of 24 columns (zero past n) for
// tile_any. row(k) points at row k; the rows of a block are not contiguous (one step's B rows each).
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
        tile_any(count, nv, Transposed{a + u, lda}, rows, panel, c);
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
