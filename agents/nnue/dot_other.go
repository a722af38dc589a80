//go:build !amd64 || purego

package nnue

func dotSSE2(a, b []uint64, w []int16) int32 { panic("nnue: no SIMD dot on this architecture") }

func simdDot(h int) bool { return false }

// haveSIMD: this build has dotSSE2.
const haveSIMD = false
