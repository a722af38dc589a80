//go:build !purego

#include "textflag.h"

// func prefetch(addr unsafe.Pointer)
//
// Asks the processor to bring the cache line at addr into its caches (PREFETCHT0): a hint,
// which neither faults nor waits.
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	PREFETCHT0 (AX)
	RET
