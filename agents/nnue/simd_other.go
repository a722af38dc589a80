//go:build !amd64 || purego

package nnue

// Without assembly the evaluator keeps the packed rows and the packed dot (haveSIMD and
// useLanes are false, Net.w2s is nil), so none of these is called.

func dotSSE2(a, b []uint64, w []int16) int32 { panic("nnue: no SSE2") }
func addLanes(acc, row []uint64)             { panic("nnue: no SSE2") }
func subLanes(acc, row []uint64)             { panic("nnue: no SSE2") }
func addSubLanes(acc, add, sub []uint64)     { panic("nnue: no SSE2") }

// haveSIMD: this build has the SSE2 routines.
const haveSIMD = false
