// What this build of the native RNN kernels runs: the instruction set its vector code compiles
// to and each register tile's shape, asked by ../_rnn_native.py (`Status.kernel`) so that a
// benchmark reports what ran rather than guessing it from the CPU's flags; and the time-stamp
// counter the phase timers read (rnn_cpu.h's Phases), so that benchmarks/rnn_phases.py can measure
// its rate against the clock instead of assuming one.

#include "rnn_cpu.h"

extern "C" const char* levelbench_rnn_kernel_info() {
  static const std::string info = std::string("isa=") + kIsa +
                                  ";lstm_forward=" + describe_tile<LstmForwardTile>() +
                                  ";gru_forward=" + describe_tile<GruForwardTile>() +
                                  ";backward=" + describe_tile<BackwardTile>();
  return info.c_str();
}

// The time-stamp counter, as Phases reads it; 0 where there is none (not x86).
extern "C" uint64_t levelbench_rnn_ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc();
#else
  return 0;
#endif
}
