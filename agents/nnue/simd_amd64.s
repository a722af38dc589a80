//go:build !purego

#include "textflag.h"

// SSE2 only, which every amd64 processor has. Each loop step takes two words (eight 16-bit
// lanes, one XMM register), so every slice's length must be even and at least 2; nothing here
// checks it. The callers pass Acc.both and cr's rows (H/2 words, H a multiple of 4) and, to
// dotSSE2, the accumulator's halves (H/4 words) only where H is a multiple of 8.

// DOTSTEP adds to X0 the clipped lanes of the two words at R times the eight int16 weights at
// DX, and advances both pointers (X5 zero, X6 QA, X7 the lanes' bias).
#define DOTSTEP(R) \
	MOVOU (R), X1 ; \
	PXOR X7, X1 ; \
	PMAXSW X5, X1 ; \
	PMINSW X6, X1 ; \
	MOVOU (DX), X2 ; \
	PMADDWL X2, X1 ; \
	PADDL X1, X0 ; \
	ADDQ $16, R ; \
	ADDQ $16, DX

// func dotSSE2(a, b []uint64, w []int16) int32
//
// The sum over the lanes v of a then b (packed accumulator halves, each lane biased by 2^15)
// of clamp(v − 2^15, 0, QA)·w, w the 2H output weights in order.
TEXT ·dotSSE2(SB), NOSPLIT, $0-76
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	MOVQ w_base+48(FP), DX
	MOVL $0x80008000, AX
	MOVQ AX, X7
	PSHUFD $0, X7, X7
	MOVL $0x007F007F, AX // QA = 127 in each lane (TestForwardExact fails with another)
	MOVQ AX, X6
	PSHUFD $0, X6, X6
	PXOR X5, X5
	PXOR X0, X0 // the sum, four int32
	MOVQ CX, BX
loopa:
	DOTSTEP(SI)
	SUBQ $2, BX
	JNZ loopa
loopb:
	DOTSTEP(DI)
	SUBQ $2, CX
	JNZ loopb
	PSHUFD $0x4E, X0, X1
	PADDL X1, X0
	PSHUFD $0xB1, X0, X1
	PADDL X1, X0
	MOVQ X0, AX
	MOVL AX, ret+72(FP)
	RET

// func addLanes(acc, row []uint64)
//
// Adds row to acc lane by lane, modulo 2^16 (row in the lane layout, Evaluator.lanes).
TEXT ·addLanes(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ row_base+24(FP), SI
addloop:
	MOVOU (DI), X0
	MOVOU (SI), X1
	PADDW X1, X0
	MOVOU X0, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	SUBQ $2, CX
	JNZ addloop
	RET

// func subLanes(acc, row []uint64)
//
// Subtracts row from acc lane by lane, modulo 2^16.
TEXT ·subLanes(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ row_base+24(FP), SI
subloop:
	MOVOU (DI), X0
	MOVOU (SI), X1
	PSUBW X1, X0
	MOVOU X0, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	SUBQ $2, CX
	JNZ subloop
	RET

// func addSubLanes(acc, add, sub []uint64)
//
// Adds add to acc and subtracts sub, lane by lane, modulo 2^16.
TEXT ·addSubLanes(SB), NOSPLIT, $0-72
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ add_base+24(FP), SI
	MOVQ sub_base+48(FP), DX
addsubloop:
	MOVOU (DI), X0
	MOVOU (SI), X1
	MOVOU (DX), X2
	PADDW X1, X0
	PSUBW X2, X0
	MOVOU X0, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	ADDQ $16, DX
	SUBQ $2, CX
	JNZ addsubloop
	RET
