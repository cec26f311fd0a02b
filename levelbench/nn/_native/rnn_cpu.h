// What the native RNN kernels' loops (rnn_loops.h; the cells in gru_cpu.cc and lstm_cpu.cc) run
// on: vector math, the GEMM tiles, aligned buffers, the weight panels, the thread team that meets
// once per step and splits up under contention, operand checks and the FFI binding;
// rnn_gradients.h adds the weight-gradient sums of the backward loops. Everything is in an
// anonymous namespace, so each kernel's translation unit has its own copy and the one library
// links without duplicate symbols.
// Python side: ../_rnn_native.py (build, cache, registration), ../_gru_native.py and
// ../_lstm_native.py (the calls).

#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#endif

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

constexpr int kLanes = 8;   // floats per vector
constexpr int kRows = 4;    // rows of a GEMM tile
typedef float vf __attribute__((vector_size(kLanes * sizeof(float))));
typedef int32_t vi __attribute__((vector_size(kLanes * sizeof(int32_t))));
// Vectors of 16 floats: one AVX-512 register, where the tiles and the GRU's gate math use them.
typedef float vf16 __attribute__((vector_size(16 * sizeof(float))));
typedef int32_t vi16 __attribute__((vector_size(16 * sizeof(int32_t))));

// Floats in a V, and the integer vector of as many lanes.
template <typename V>
constexpr int lanes_of = static_cast<int>(sizeof(V) / sizeof(float));
template <typename V>
struct IntsOf { typedef vi type; };
template <>
struct IntsOf<vf16> { typedef vi16 type; };

// a in every lane of a V. Written as a scalar times a vector instead, GCC built the vector on the
// stack wherever V is wider than a register (SSE, NEON) and the tile ran 4x slower there.
template <typename V>
inline V splat_to(float a) {
  if constexpr (sizeof(V) == sizeof(vf16)) return vf16{a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a};
  else return vf{a, a, a, a, a, a, a, a};
}

inline vf splat(float a) { return splat_to<vf>(a); }

// Loads / stores n <= lanes floats. A whole vector (every block but a ragged last one) is one move;
// the ragged case is kept out of line, or GCC routes every load through the stack to merge the two.
template <typename V = vf>
__attribute__((noinline)) V load_part(const float* p, int n) {
  V v = {};
  for (int i = 0; i < n; ++i) v[i] = p[i];
  return v;
}

template <typename V>
__attribute__((noinline)) void store_part(float* p, V v, int n) {
  for (int i = 0; i < n; ++i) p[i] = v[i];
}

template <typename V = vf>
inline V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename V = vf>
inline V load(const float* p, int n) { return n == lanes_of<V> ? load<V>(p) : load_part<V>(p, n); }

template <typename V>
inline void store(float* p, V v) { std::memcpy(p, &v, sizeof v); }

template <typename V>
inline void store(float* p, V v, int n) {
  if (n == lanes_of<V>) store(p, v); else store_part(p, v, n);
}

// x clamped to [lo, hi], a NaN kept: one vminps and one vmaxps (with the bound as their first
// operand, they return x when either is NaN), where `x > hi ? hi : x` compiled to a compare and
// a masked move each.
template <typename V>
inline V clamp_(V x, float lo, float hi) {
#if defined(__AVX512F__)
  if constexpr (sizeof(V) == 64) {
    __m512 v;
    std::memcpy(&v, &x, sizeof v);
    v = _mm512_max_ps(_mm512_set1_ps(lo), _mm512_min_ps(_mm512_set1_ps(hi), v));
    std::memcpy(&x, &v, sizeof v);
    return x;
  }
#endif
#if defined(__AVX__)
  if constexpr (sizeof(V) == 32) {
    __m256 v;
    std::memcpy(&v, &x, sizeof v);
    v = _mm256_max_ps(_mm256_set1_ps(lo), _mm256_min_ps(_mm256_set1_ps(hi), v));
    std::memcpy(&x, &v, sizeof v);
    return x;
  }
#endif
  x = x > hi ? splat_to<V>(hi) : x;
  return x < lo ? splat_to<V>(lo) : x;
}

// exp(x) = 2^k exp(r) with k = round(x / ln 2) and |r| <= ln(2) / 2; exp(r) = 1 + r + r^2 P(r), P
// Cephes' degree-5 minimax fit (relative error ~1e-7, a float's rounding; docs/design/lstm.md has
// the measured error). k is rounded by adding and subtracting 1.5 * 2^23, whose sum keeps no
// fraction bits, and read off the sum's low bits. x is clamped to where 2^k is a normal float.
// Lane by lane the same operations for any width, so a unit's result does not depend on it.
template <typename V>
inline V exp_(V x) {
  typedef typename IntsOf<V>::type I;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
  x = clamp_(x, -87.0f, 88.0f);
  V shifted = x * 1.44269504088896341f + kRound;
  V kf = shifted - kRound;
  V r = x - kf * 0.693359375f;      // ln 2 in two parts: the first is exact in float
  r = r - kf * -2.12194440e-4f;
  V p = splat_to<V>(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  I bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  bits = (bits + 127) << 23;  // the low bits of 1.5 * 2^23 + k are k's (two's complement)
  V scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

// 1 / d for d >= 1: the ISA's reciprocal estimate (14 bits with AVX-512, 12 with AVX) and one
// Newton step, r + r (1 - d r), which squares its relative error, instead of a division (vdivps,
// the slowest instruction of the gate math: 5 per LSTM unit). The estimate's bits are fixed per
// ISA, the same at 8 and 16 lanes (VRCP14PS at both widths with AVX-512), so a unit's result does
// not depend on the width of the vector it fell in.
template <typename V>
inline V reciprocal_(V d) {
  V r;
#if defined(__AVX512F__) && defined(__AVX512VL__)
  if constexpr (sizeof(V) == 64) {
    __m512 e = _mm512_rcp14_ps(reinterpret_cast<__m512&>(d));
    std::memcpy(&r, &e, sizeof r);
  } else if constexpr (sizeof(V) == 32) {
    __m256 e = _mm256_rcp14_ps(reinterpret_cast<__m256&>(d));
    std::memcpy(&r, &e, sizeof r);
  } else {
    return 1.0f / d;
  }
#elif defined(__AVX__) && !defined(__AVX512F__)
  if constexpr (sizeof(V) == 32) {
    __m256 e = _mm256_rcp_ps(reinterpret_cast<__m256&>(d));
    std::memcpy(&r, &e, sizeof r);
  } else if constexpr (sizeof(V) == 64) {  // two halves, each as a vector of 8 would be
    __m256 half[2];
    std::memcpy(half, &d, sizeof half);
    half[0] = _mm256_rcp_ps(half[0]);
    half[1] = _mm256_rcp_ps(half[1]);
    std::memcpy(&r, half, sizeof r);
  } else {
    return 1.0f / d;
  }
#else
  return 1.0f / d;
#endif
  return r + r * (1.0f - d * r);
}

template <typename V>
inline V sigmoid_(V x) { return reciprocal_(1.0f + exp_(-x)); }

// tanh: an odd Taylor polynomial near 0 (where 1 - 2 / (e^2x + 1) would cancel), else from exp.
template <typename V>
inline V tanh_(V x) {
  typedef typename IntsOf<V>::type I;
  I sign_bits, x_bits;
  std::memcpy(&x_bits, &x, sizeof x);
  sign_bits = x_bits & static_cast<int32_t>(0x80000000u);
  I abs_bits = x_bits & 0x7fffffff;
  V a;
  std::memcpy(&a, &abs_bits, sizeof a);
  V e = exp_(-2.0f * a);
  V large = (1.0f - e) * reciprocal_(1.0f + e);
  V a2 = a * a;
  V small = splat_to<V>(62.0f / 2835);
  small = small * a2 - 17.0f / 315;
  small = small * a2 + 2.0f / 15;
  small = small * a2 - 1.0f / 3;
  small = a + a * a2 * small;
  V y = a < 0.25f ? small : large;
  I y_bits;
  std::memcpy(&y_bits, &y, sizeof y);
  y_bits |= sign_bits;
  std::memcpy(&y, &y_bits, sizeof y);
  return y;
}

// A operand of a tile, element (i, p) = row i of the tile, p along the sum: the rows of h_{t-1}
// or x_t in the forward's GEMMs, // and the kept gate gradients in the backward's dh_{t-1} and dx GEMMs (RowMajor); the columns of
// a packed block of inputs or states in the weight-gradient sums (Transposed: rows of dW^T are
// columns of the block).
struct RowMajor {
  const float* a;
  int64_t lda;
  float operator()(int i, int64_t p) const { return a[i * lda + p]; }
};

struct Transposed {
  const float* a;
  int64_t lda;
  float operator()(int i, int64_t p) const { return a[p * lda + i]; }
};

// Keeps v in a vector register from here on: without it GCC folds a reload of the weights into
// every FMA (16 loads per 12 FMAs instead of 7 in the GRU's 4 x 24 tile, which then ran at ~40
// instead of ~60 GFLOP/s). Where no register holds a V whole, there is nothing to pin.
template <typename V>
inline void keep_in_register(V& v) {
#if defined(__AVX512F__)
  asm("" : "+v"(v));
#elif defined(__AVX__)
  if constexpr (sizeof(V) <= 32) asm("" : "+x"(v));
#else
  (void)v;
#endif
}

// c (Rows x NV * lanes of V) = A (Rows x k) x panel (k x NV * lanes, packed, 64-byte aligned):
// Rows x NV accumulators and NV weight vectors, all in registers, so a tile must fit the
// register file (AVX2: 16 vector registers, AVX-512: 32). One FMA order for every shape, so
// results do not depend on the tile shape a caller picks.
// Not inlined: inside the step loop GCC ran out of registers and kept an accumulator on the stack.
template <typename V, int Rows, int NV, typename Operand>
__attribute__((noinline)) void tile(Operand a, int64_t k, const float* panel, float* c) {
  constexpr int lanes = sizeof(V) / sizeof(float);
  V acc[Rows][NV];
#pragma GCC unroll 16
  for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[i][v] = V{};
  for (int64_t p = 0; p < k; ++p, panel += NV * lanes) {
    V w[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) {
      std::memcpy(&w[v], panel + v * lanes, sizeof(V));
      keep_in_register(w[v]);
    }
#pragma GCC unroll 16
    for (int i = 0; i < Rows; ++i) {
      const V x = splat_to<V>(a(i, p));
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) acc[i][v] += x * w[v];
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < Rows; ++i)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) std::memcpy(c + (i * NV + v) * lanes, &acc[i][v], sizeof(V));
}

// The tile for 1 <= rows <= MaxRows: a full tile, or the ragged last rows of a batch.
template <typename V, int MaxRows, int NV, typename Operand>
inline void tile_rows(int rows, Operand a, int64_t k, const float* panel, float* c) {
  if constexpr (MaxRows > 1)
    if (rows < MaxRows) return tile_rows<V, MaxRows - 1, NV>(rows, a, k, panel, c);
  tile<V, MaxRows, NV>(a, k, panel, c);
}

// The register tiles this build runs, by the ISA it is compiled for (-march=native): Rows x
// Vectors of V, the accumulators and one k's weight vectors all in registers. Results do not
// depend on the shape (`tile` sums every output in one order), so the choice is speed alone.
template <typename V, int Rows, int Vectors>
struct TileShape {
  typedef V Vector;
  static constexpr int kRows = Rows, kVectors = Vectors;
  static constexpr int kLanes = static_cast<int>(sizeof(V) / sizeof(float));
  static constexpr int kColumns = Vectors * kLanes;
  // Columns rounded up to whole vectors: how wide a panel of `columns` columns is packed.
  static constexpr int64_t padded(int64_t columns) { return (columns + kLanes - 1) / kLanes * kLanes; }
};

// Up to Tile::kRows rows by nv = 1..Tile::kVectors vectors of columns: a full tile, or its ragged
// edges (the last rows of a batch, the last columns of a thread's units).
template <typename Tile, int NV = Tile::kVectors, typename Operand>
inline void tile_any(int rows, int nv, Operand a, int64_t k, const float* panel, float* c) {
  if constexpr (NV > 1)
    if (nv < NV) return tile_any<Tile, NV - 1>(rows, nv, a, k, panel, c);
  tile_rows<typename Tile::Vector, Tile::kRows, NV>(rows, a, k, panel, c);
}

// The LSTM's forward: the i, f, g and o columns of 8 units are 32. With AVX-512 a tile covers two
// blocks of units, 8 rows x 64 columns (4 vectors of 16), so that the gate math runs 16 units to a
// vector: 32 accumulators and 4 weight vectors are more than the 32 registers, and GCC keeps 5
// accumulators on the stack, whose load-FMA-store chains hide in a k's 32 FMAs; it measured
// 0.8-0.9x the time of 8x32 (2x16), 4x64, 6x64, 7x64 and 2x128 (docs/design/lstm.md). With AVX2's
// 16 registers, one block, 2 rows x 4 vectors of 8 (8 + 4).
// The GRU's forward: the r, z and n columns of 8 units are 24, not a whole number of 16-float
// vectors, so with AVX-512 a tile covers two blocks of units, 8 rows x 48 columns (24 accumulators
// and 3 weight vectors of 16 floats), and with AVX2 one, 4 rows x 24 (12 + 3 vectors of 8).
// The backward's dh_{t-1}, dx and weight-gradient GEMMs: the same shapes, 8 x 48 and 4 x 24.
// On AVX-512 on 512-bit datapaths (Sapphire Rapids), a vector of 8 floats does half the work of
// one of 16 for the same issue slot; on Zen 4's 256-bit datapaths they ran alike. 4 x 48, 6 x 48
// and 4 x 96 of 16 floats measured within the noise of 8 x 48 (docs/design/gru.md, point 8).
#if defined(__AVX512F__)
using LstmForwardTile = TileShape<vf16, 8, 4>;
using GruForwardTile = TileShape<vf16, 8, 3>;
using BackwardTile = TileShape<vf16, 8, 3>;
#else
using LstmForwardTile = TileShape<vf, 2, 4>;
using GruForwardTile = TileShape<vf, kRows, 3>;
using BackwardTile = TileShape<vf, kRows, 3>;
#endif

// Runs body(V{}, j, n) over units [0, units), a vector of n units at a time: the tiles' width
// (BackwardTile's vectors, 16 floats with AVX-512) while whole ones fit, then 8 floats, the last
// one ragged (n < 8). For the cells' elementwise gate math: it does the same operations lane by
// lane at either width, so a unit's result does not depend on which vector it fell in.
template <typename Body>
inline void for_each_vector(int64_t units, Body body) {
  typedef BackwardTile::Vector Wide;
  int64_t j = 0;
  if constexpr (lanes_of<Wide> > kLanes)
    for (; j + lanes_of<Wide> <= units; j += lanes_of<Wide>) body(Wide{}, j, lanes_of<Wide>);
  for (; j < units; j += kLanes) body(vf{}, j, static_cast<int>(std::min<int64_t>(kLanes, units - j)));
}

// The instruction set this build's vector code compiles to.
#if defined(__AVX512F__)
constexpr const char* kIsa = "AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
constexpr const char* kIsa = "AVX2+FMA";
#elif defined(__AVX__)
constexpr const char* kIsa = "AVX";
#elif defined(__ARM_NEON)
constexpr const char* kIsa = "NEON";
#elif defined(__SSE2__)
constexpr const char* kIsa = "SSE2";
#else
constexpr const char* kIsa = "generic";
#endif

// "rows x columns (vectors x floats)", e.g. "8x32 (2x16)".
template <typename Tile>
std::string describe_tile() {
  return std::to_string(Tile::kRows) + "x" + std::to_string(Tile::kColumns) + " (" +
         std::to_string(Tile::kVectors) + "x" + std::to_string(Tile::kLanes) + ")";
}

// A float buffer aligned to a cache line: with std::vector's 16-byte alignment, half of the
// tile's 32-byte weight loads straddled two lines and the tile ran ~35% slower.
class Floats {
 public:
  explicit Floats(int64_t n, float fill = 0.0f)
      : data_(static_cast<float*>(::operator new[](std::max<int64_t>(n, 1) * sizeof(float), std::align_val_t(64)))) {
    std::fill(data_, data_ + n, fill);
  }
  ~Floats() { ::operator delete[](data_, std::align_val_t(64)); }
  Floats(const Floats&) = delete;
  Floats& operator=(const Floats&) = delete;
  float* data() { return data_; }
  const float* data() const { return data_; }
  float& operator[](int64_t i) { return data_[i]; }

 private:
  float* data_;
};

inline void pause_() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Where a thread's time goes, phase by phase, when built with -DLEVELBENCH_RNN_TIMERS (a profiling
// build, docs/design/lstm.md): mark(p) adds the time since the previous mark to phase p, end_step
// closes a step, and the destructor prints each phase's ticks per step to stderr: the median over
// the steps that ran it times the share of steps that did, so that the steps in which the thread
// was preempted (the machines are shared) do not count. Without the flag it compiles to nothing.
// The line ends with the loop's whole time, every step's ticks from the timers' start to the last
// mark, preempted steps included, so that a call's time outside the loops can be told apart
// (benchmarks/rnn_phases.py).
// The TSC, not the clock: ~40 marks per ~20 us step must not skew it.
class Phases {
 public:
#if defined(LEVELBENCH_RNN_TIMERS) && (defined(__x86_64__) || defined(__i386__))
  Phases(const char* loop, int thread, std::initializer_list<const char*> names)
      : loop_(loop), thread_(thread), names_(names), step_(names.size(), 0), start_(__builtin_ia32_rdtsc()),
        last_(start_) {}
  void mark(int phase) {
    const uint64_t now = __builtin_ia32_rdtsc();
    step_[phase] += now - last_;
    last_ = now;
  }
  void end_step() {
    steps_.push_back(step_);
    std::fill(step_.begin(), step_.end(), 0);
  }
  ~Phases() {
    std::vector<uint64_t> per_step(names_.size(), 0);
    uint64_t total = 0;
    for (size_t i = 0; i < names_.size(); ++i) {
      std::vector<uint64_t> ran;
      for (const auto& step : steps_)
        if (step[i]) ran.push_back(step[i]);
      if (ran.empty()) continue;
      std::nth_element(ran.begin(), ran.begin() + ran.size() / 2, ran.end());
      per_step[i] = ran[ran.size() / 2] * ran.size() / steps_.size();
      total += per_step[i];
    }
    std::string line = std::string("levelbench timers: ") + loop_ + " thread " + std::to_string(thread_) + ", " +
                       std::to_string(steps_.size()) + " steps, " + std::to_string(total) + " ticks per step";
    for (size_t i = 0; i < names_.size(); ++i)
      line += std::string(", ") + names_[i] + " " + std::to_string(per_step[i]) + " (" +
              std::to_string(total ? 100 * per_step[i] / total : 0) + "%)";
    line += ", all steps " + std::to_string(last_ - start_) + " ticks";
    std::fprintf(stderr, "%s\n", line.c_str());
  }

 private:
  const char* loop_;
  int thread_;
  std::vector<const char*> names_;
  std::vector<uint64_t> step_;
  std::vector<std::vector<uint64_t>> steps_;
  uint64_t start_, last_;
#else
  Phases(const char*, int, std::initializer_list<const char*>) {}
  void mark(int) {}
  void end_step() {}
#endif
};

// The threads of one call: they meet at the end of every step, and they split up when meeting
// costs more than it saves. A step is ~20 us; if another process holds one of the cores, a
// thread waits at every step for its partner to be scheduled again, and two threads ran the
// seed's forward in 150 ms where one thread took 100 ms. So thread 0 watches how long the team
// waits, window by window, and when waiting exceeds half the window's thread time it goes on
// alone: the others stop after that step and thread 0 takes over their hidden units. Results do
// not depend on who computes a unit, so this changes no bit of them.
class Team {
 public:
  static constexpr int64_t kWindow = 100;  // steps between decisions
  static constexpr int kSpins = 4000;      // pauses (~30 ns each) before yielding the core

  // split_at >= 0 splits the team after that step whatever the waits (for tests).
  Team(int threads, int64_t split_at) : threads_(threads), split_at_(split_at), window_start_(now_ns()) {}

  // Ends step `step` for thread `index`: returns once every thread has ended it, false if this
  // thread is to stop (the team split up and it is not thread 0).
  bool end_step(int index, int64_t step) {
    if (threads_ == 1 || alone_) return true;
    const int64_t start = now_ns();
    if (index == 0 && (step + 1) % kWindow == 0) {
      // Published to the others by this thread's arrival below (a release), which they must
      // see (an acquire) before they leave.
      const int64_t waited = waited_ns_.exchange(0, std::memory_order_relaxed);
      if (2 * waited > (start - window_start_) * threads_) split_after_.store(step, std::memory_order_relaxed);
      window_start_ = start;
    }
    if (index == 0 && step == split_at_) split_after_.store(step, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_acq_rel);
    const int64_t arrivals = (step + 1) * threads_;
    for (int spins = 0; count_.load(std::memory_order_acquire) < arrivals; ++spins) {
      if (spins < kSpins) pause_(); else std::this_thread::yield();
    }
    waited_ns_.fetch_add(now_ns() - start, std::memory_order_relaxed);
    // The step after which the team splits, not a flag: a thread that reads late may already see
    // thread 0's decision about the next step, and must still do that step's work.
    if (split_after_.load(std::memory_order_relaxed) > step) return true;
    if (index != 0) return false;
    alone_ = true;  // written by thread 0 only: the others have stopped
    return true;
  }

  // Whether thread 0 now runs alone (only thread 0 asks, after end_step).
  bool alone() const { return alone_; }

 private:
  const int threads_;
  const int64_t split_at_;
  std::atomic<int64_t> count_{0};
  std::atomic<int64_t> waited_ns_{0};
  std::atomic<int64_t> split_after_{std::numeric_limits<int64_t>::max()};
  int64_t window_start_;  // thread 0's
  bool alone_ = false;    // thread 0's
};

// Pins each new thread to a CPU other than this thread's, among those the process may use.
// Left to the scheduler, a new thread sometimes started on the core this thread was busy on and
// waited there for milliseconds (a 50-step call took 3.7 ms or 20 ms); the pin lasts only as
// long as the thread, one call.
void place_apart(std::vector<std::thread>& pool) {
#if defined(__linux__)
  cpu_set_t allowed;
  if (pool.empty() || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  const int here = sched_getcpu();
  int cpu = here;
  for (auto& thread : pool) {
    for (int tries = 0; tries < CPU_SETSIZE; ++tries) {
      cpu = (cpu + 1) % CPU_SETSIZE;
      if (cpu != here && CPU_ISSET(cpu, &allowed)) break;
    }
    if (cpu == here || !CPU_ISSET(cpu, &allowed)) return;  // one CPU only: nothing to pin
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pthread_setaffinity_np(thread.native_handle(), sizeof one, &one);
  }
#else
  (void)pool;
#endif
}

// Runs body(index, count, team) for index = 0..count-1 on count threads, this one included:
// count is `threads`, or fewer if the system refuses to start more. Each started thread waits
// for the final count before it begins, so a refusal never leaves a thread waiting on another.
template <typename Body>
void parallel(int threads, int64_t split_at, Body body) {
  std::atomic<int> count{-1};
  Team* shared = nullptr;
  std::vector<std::thread> pool;
  auto worker = [&](int index) {
    int n;
    while ((n = count.load(std::memory_order_acquire)) < 0) std::this_thread::yield();
    if (index < n) body(index, n, *shared);
  };
  try {
    for (int i = 1; i < threads; ++i) pool.emplace_back(worker, i);
  } catch (const std::system_error&) {
    // fewer threads: the ones started take part
  }
  place_apart(pool);
  const int n = 1 + static_cast<int>(pool.size());
  Team team(n, split_at);
  shared = &team;
  count.store(n, std::memory_order_release);
  body(0, n, team);
  for (auto& thread : pool) thread.join();
}

// Asks the OS for transparent huge pages behind the 2 MB-aligned part of an output buffer the
// kernel is about to write. XLA:CPU allocates its large buffers afresh on every call, and glibc
// maps them anew, so every 4 KB page of them was faulted in again on every call (~20,000 faults
// per forward+backward call at the seed's batch 8, ~170,000 at batch 64); where THP is in
// `madvise` mode, this makes that one fault per 2 MB. A hint only: no effect where THP is off.
void advise_huge_pages(void* data, int64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + static_cast<uintptr_t>(bytes)) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

inline void advise_huge_pages(ffi::Result<ffi::AnyBuffer>& buffer) {
  advise_huge_pages(buffer->untyped_data(), static_cast<int64_t>(buffer->size_bytes()));
}

int64_t blocks_of(int64_t units) { return (units + kLanes - 1) / kLanes; }

// The columns of w (K, H) for unit blocks [first, last), in groups of up to BackwardTile's
// columns (3 or 6 blocks of 8 units): the panel of a group holds, for each of the K rows of w, its
// columns for the group's units, zero up to a whole number of vectors. The backward passes'
// dh_{t-1} = dg (B, K) x W_hh (K, H) runs on these, each thread on its units.
// Row m of the panels is row (m + rotate) % K of w: the GRU's dx = [d_a | d_r | d_z] x W_ih takes
// W_ih's rows n, r, z in that order.
struct ColumnPanels {
  struct Group {
    int64_t block;  // first unit block
    int blocks;     // unit blocks in the group
    int nv;         // the tile's vectors that cover them
    int64_t offset; // into `data`
  };
  static constexpr int kGroupBlocks = BackwardTile::kColumns / kLanes;

  ColumnPanels(const float* w, int64_t K, int64_t H, int64_t first, int64_t last, int64_t rotate = 0)
      : data(K * BackwardTile::padded((last - first) * kLanes + BackwardTile::kColumns)) {
    int64_t offset = 0;
    for (int64_t block = first; block < last; block += kGroupBlocks) {
      const int blocks = static_cast<int>(std::min<int64_t>(kGroupBlocks, last - block));
      const int64_t width = BackwardTile::padded(blocks * kLanes);
      groups.push_back({block, blocks, static_cast<int>(width / BackwardTile::kLanes), offset});
      for (int64_t m = 0; m < K; ++m)
        for (int64_t c = 0; c < width; ++c) {
          int64_t unit = block * kLanes + c;
          data[offset + m * width + c] =
              unit < H && c < blocks * kLanes ? w[((m + rotate) % K) * H + unit] : 0.0f;
        }
      offset += K * width;
    }
  }

  std::vector<Group> groups;
  Floats data;
};

// The packed weights of unit blocks [first, last) for the forward passes, in groups of
// Tile::kColumns / (Gates * 8) blocks (one tile's columns): for each k, a group's panel holds, gate
// by gate, the rows of the group's units (zero past H, and up to whole vectors in a short last
// group), so that one tile covers every gate of the group's units and each gate's columns of 16
// units are one vector for the gate math.
template <int Gates, typename Tile>
struct GatePanels {
  static constexpr int kGroupBlocks = Tile::kColumns / (Gates * kLanes);
  static_assert(kGroupBlocks >= 1 && Tile::kColumns == kGroupBlocks * Gates * kLanes,
                "a forward tile covers a whole number of unit blocks");

  GatePanels(const float* w_hh, const float* w_ih, int64_t H, int64_t I, int64_t first, int64_t last)
      : first(first), h_size(H * Tile::kColumns), x_size(I * Tile::kColumns),
        h(groups(first, last) * h_size), x(groups(first, last) * x_size) {
    for (int64_t block = first; block < last; block += kGroupBlocks) {
      const int blocks = static_cast<int>(std::min<int64_t>(kGroupBlocks, last - block));
      pack(w_hh, H, H, block, blocks, h.data() + (block - first) / kGroupBlocks * h_size);
      pack(w_ih, H, I, block, blocks, x.data() + (block - first) / kGroupBlocks * x_size);
    }
  }
  // The panels of the group that starts at unit block `block`.
  const float* h_panel(int64_t block) { return h.data() + (block - first) / kGroupBlocks * h_size; }
  const float* x_panel(int64_t block) { return x.data() + (block - first) / kGroupBlocks * x_size; }

  // The columns of a group of `blocks` unit blocks, whole vectors.
  static constexpr int64_t width(int blocks) { return Tile::padded(blocks * Gates * kLanes); }

  static int64_t groups(int64_t first, int64_t last) { return (last - first + kGroupBlocks - 1) / kGroupBlocks; }

  // The panel of the `blocks` unit blocks from `block` of w (Gates * H, K).
  static void pack(const float* w, int64_t H, int64_t K, int64_t block, int blocks, float* panel) {
    const int64_t columns = width(blocks);
    for (int64_t k = 0; k < K; ++k) {
      float* row = panel + k * columns;
      std::fill(row, row + columns, 0.0f);
      for (int b = 0; b < blocks; ++b)
        for (int g = 0; g < Gates; ++g)
          for (int u = 0; u < kLanes; ++u) {
            int64_t unit = (block + b) * kLanes + u;
            row[(g * blocks + b) * kLanes + u] = unit < H ? w[(g * H + unit) * K + k] : 0.0f;
          }
    }
  }

  int64_t first, h_size, x_size;
  Floats h, x;
};

// [first, last) of `count` items for thread `index` of `threads`.
std::pair<int64_t, int64_t> share(int64_t count, int index, int threads) {
  return {count * index / threads, count * (index + 1) / threads};
}

int thread_count(int64_t requested, int64_t blocks) {
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(requested, blocks)));
}

struct Shape {
  int64_t T, B, H;
};

std::string dims_of(const ffi::AnyBuffer& buffer) {
  std::string text = "(";
  for (int64_t d : buffer.dimensions()) text += (text.size() > 1 ? ", " : "") + std::to_string(d);
  return text + (buffer.dimensions().size() == 1 ? ",)" : ")");
}

// The Python side always passes consistent operands; this guards the C++ against a caller that
// does not, naming what was expected and what came.
ffi::Error check(bool ok, const std::string& expected, const ffi::AnyBuffer& got) {
  if (ok) return ffi::Error::Success();
  return ffi::Error::InvalidArgument("levelbench.nn kernel: expected " + expected + ", got " +
                                     dims_of(got) + " (a bug in levelbench.nn: please report it)");
}

// Every sequence operand (T, B, H) like s; w_hh (gates * H, H).
ffi::Error check_shapes(const Shape& s, std::initializer_list<const ffi::AnyBuffer*> sequences,
                        const ffi::AnyBuffer& w_hh, int gates = 3) {
  for (const ffi::AnyBuffer* b : sequences) {
    auto d = b->dimensions();
    bool ok = d.size() == 3 && d[0] == s.T && d[1] == s.B && d[2] == s.H;
    if (auto e = check(ok, "every sequence operand of shape (T, B, H) like d_hs", *b); e.failure()) return e;
  }
  auto w = w_hh.dimensions();
  return check(w.size() == 2 && w[0] == gates * s.H && w[1] == s.H,
               "w_hh of shape (" + std::to_string(gates) + "H, H)", w_hh);
}

Shape shape_of(const ffi::AnyBuffer& sequence) {
  auto d = sequence.dimensions();
  return {d.size() == 3 ? d[0] : 0, d.size() == 3 ? d[1] : 0, d.size() == 3 ? d[2] : 0};
}

}  // namespace

namespace {

// The binding of a handler taking `Args` buffers and returning `Rets` buffers, then the
// attributes every handler here takes (the Python side passes them in _rnn_native.call).
template <int Args, int Rets, typename Binding>
auto bind_buffers(Binding binding) {
  if constexpr (Args > 0) {
    return bind_buffers<Args - 1, Rets>(std::move(binding).template Arg<ffi::AnyBuffer>());
  } else if constexpr (Rets > 0) {
    return bind_buffers<0, Rets - 1>(std::move(binding).template Ret<ffi::AnyBuffer>());
  } else {
    return std::move(binding)
        .template Attr<int64_t>("reverse")
        .template Attr<int64_t>("threads")
        .template Attr<int64_t>("split_at");
  }
}

template <int Args, int Rets>
auto binding() {
  return bind_buffers<Args, Rets>(ffi::Ffi::Bind());
}

}  // namespace
