//go:build !purego

#include "textflag.h"

// func dotSSE2(a, b []uint64, w []int16) int32
//
// The sum over the lanes v of a then b (packed accumulator halves, each lane biased by 2^15)
// of clamp(v − 2^15, 0, QA)·w, w the 2H output weights in order. len(a) = len(b) is even and
// at least 2: each step takes two words (eight lanes, one XMM register). SSE2 only, which every
// amd64 processor has.
TEXT ·dotSSE2(SB), NOSPLIT, $0-76
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	MOVQ w_base+48(FP), DX
	MOVL $0x80008000, AX
	MOVQ AX, X7
	PSHUFD $0, X7, X7 // the lanes' bias
	MOVL $0x007F007F, AX // QA = 127 in each lane (dot_test.go checks QA)
	MOVQ AX, X6
	PSHUFD $0, X6, X6
	PXOR X5, X5 // zero
	PXOR X0, X0 // the sum, four int32
	MOVQ CX, BX
loopa:
	MOVOU (SI), X1
	PXOR X7, X1
	PMAXSW X5, X1
	PMINSW X6, X1
	MOVOU (DX), X2
	PMADDWL X2, X1
	PADDL X1, X0
	ADDQ $16, SI
	ADDQ $16, DX
	SUBQ $2, BX
	JNZ loopa
loopb:
	MOVOU (DI), X1
	PXOR X7, X1
	PMAXSW X5, X1
	PMINSW X6, X1
	MOVOU (DX), X2
	PMADDWL X2, X1
	PADDL X1, X0
	ADDQ $16, DI
	ADDQ $16, DX
	SUBQ $2, CX
	JNZ loopb
	PSHUFD $0x4E, X0, X1
	PADDL X1, X0
	PSHUFD $0xB1, X0, X1
	PADDL X1, X0
	MOVQ X0, AX
	MOVL AX, ret+72(FP)
	RET
