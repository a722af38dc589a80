//go:build !purego

package nnue

import "golang.org/x/sys/cpu"

// The routines of simd_amd64.s. Each runs its SSE2 form, or its AVX2 form where useAVX2 is set;
// both give the same results.

// dotLanes is the output layer's dot product over the accumulator's halves a and b: the sum
// over their lanes v, in order, of clamp(v − 2^15, 0, QA) times the int16 weights w.
//
//go:noescape
func dotLanes(a, b []uint64, w []int16) int32

// addLanes adds row to acc lane by lane, modulo 2^16.
//
//go:noescape
func addLanes(acc, row []uint64)

// subLanes subtracts row from acc lane by lane, modulo 2^16.
//
//go:noescape
func subLanes(acc, row []uint64)

// addSubLanes adds add to acc and subtracts sub, lane by lane, modulo 2^16.
//
//go:noescape
func addSubLanes(acc, add, sub []uint64)

// haveSIMD: this build has the SIMD routines.
const haveSIMD = true

// useAVX2: the routines take their AVX2 forms (four words a step instead of two).
// cpu.X86.HasAVX2 is true only where the processor has AVX2 and the operating system keeps the
// YMM registers. A variable (read by the assembly) so that tests can check the SSE2 forms too.
var useAVX2 = cpu.X86.HasAVX2
