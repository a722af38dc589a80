//go:build !purego

package nnue

// dotSSE2 is in dot_amd64.s.
//
//go:noescape
func dotSSE2(a, b []uint64, w []int16) int32

// simdDot reports whether outDot may use dotSSE2 for a network of width h: two accumulator
// words a step.
func simdDot(h int) bool { return h%8 == 0 }

// haveSIMD: this build has dotSSE2.
const haveSIMD = true
