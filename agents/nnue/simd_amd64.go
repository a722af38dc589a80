//go:build !purego

package nnue

// The SSE2 routines of simd_amd64.s.

//go:noescape
func dotSSE2(a, b []uint64, w []int16) int32

//go:noescape
func addLanes(acc, row []uint64)

//go:noescape
func subLanes(acc, row []uint64)

//go:noescape
func addSubLanes(acc, add, sub []uint64)

// haveSIMD: this build has the SSE2 routines.
const haveSIMD = true
