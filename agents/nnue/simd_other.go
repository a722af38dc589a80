//go:build !amd64 || purego

package nnue

// Without assembly the evaluator keeps the packed rows and the packed dot (haveSIMD and
// useLanes are false, Net.w2s is nil), so none of these is called.

func dotLanes(a, b []uint64, w []int16) int32 { panic("nnue: no SIMD") }
func addLanes(acc, row []uint64)              { panic("nnue: no SIMD") }
func subLanes(acc, row []uint64)              { panic("nnue: no SIMD") }
func addSubLanes(acc, add, sub []uint64)      { panic("nnue: no SIMD") }

// haveSIMD: this build has the SIMD routines.
const haveSIMD = false

// useAVX2: never, without assembly.
var useAVX2 = false
