//go:build !purego

#include "textflag.h"

// Each routine has two forms: SSE2, which every amd64 processor has, and AVX2, taken where
// useAVX2 is set (the processor and the operating system support it). An SSE2 loop step takes
// two words (eight 16-bit lanes, one XMM register), an AVX2 step four (sixteen lanes, one YMM
// register) and, where two words are left (a length of 2 mod 4), a last step of two in an XMM
// register. Every slice's length must be even and at least 2; nothing here checks it. The
// callers pass Acc.both and cr's rows (H/2 words, H a multiple of 4) and, to dotLanes, the
// accumulator's halves (H/4 words) only where H is a multiple of 8.

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

// func dotLanes(a, b []uint64, w []int16) int32
//
// The sum over the lanes v of a then b (packed accumulator halves, each lane biased by 2^15)
// of clamp(v − 2^15, 0, QA)·w, w the 2H output weights in order.
TEXT ·dotLanes(SB), NOSPLIT, $0-76
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	MOVQ w_base+48(FP), DX
	MOVL $0x80008000, AX
	MOVQ AX, X7
	MOVL $0x007F007F, AX // QA = 127 in each lane (TestForwardExact fails with another)
	MOVQ AX, X6
	MOVQ CX, BX
	CMPB ·useAVX2(SB), $0
	JNE avx2
	PSHUFD $0, X7, X7
	PSHUFD $0, X6, X6
	PXOR X5, X5
	PXOR X0, X0 // the sum, four int32
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
avx2:
	VPBROADCASTD X7, Y7
	VPBROADCASTD X6, Y6
	VPXOR Y5, Y5, Y5
	VPXOR Y0, Y0, Y0 // the sum, eight int32
	SUBQ $4, CX
	JB atail
aloop:
	VPXOR (SI), Y7, Y1
	VPMAXSW Y5, Y1, Y1
	VPMINSW Y6, Y1, Y1
	VPMADDWD (DX), Y1, Y1
	VPADDD Y1, Y0, Y0
	ADDQ $32, SI
	ADDQ $32, DX
	SUBQ $4, CX
	JAE aloop
atail:
	ADDQ $4, CX
	JZ adone
	VPXOR (SI), X7, X1 // VEX-encoded: Y1's upper half is zeroed
	VPMAXSW X5, X1, X1
	VPMINSW X6, X1, X1
	VPMADDWD (DX), X1, X1
	VPADDD Y1, Y0, Y0
	ADDQ $16, DX
adone:
	MOVQ BX, CX
	SUBQ $4, CX
	JB btail
bloop:
	VPXOR (DI), Y7, Y1
	VPMAXSW Y5, Y1, Y1
	VPMINSW Y6, Y1, Y1
	VPMADDWD (DX), Y1, Y1
	VPADDD Y1, Y0, Y0
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $4, CX
	JAE bloop
btail:
	ADDQ $4, CX
	JZ bdone
	VPXOR (DI), X7, X1 // VEX-encoded: Y1's upper half is zeroed
	VPMAXSW X5, X1, X1
	VPMINSW X6, X1, X1
	VPMADDWD (DX), X1, X1
	VPADDD Y1, Y0, Y0
	ADDQ $16, DX
bdone:
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	VZEROUPPER
	MOVL AX, ret+72(FP)
	RET

// func addLanes(acc, row []uint64)
//
// Adds row to acc lane by lane, modulo 2^16 (row in the lane layout, Evaluator.lanes).
TEXT ·addLanes(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ row_base+24(FP), SI
	CMPB ·useAVX2(SB), $0
	JNE avx2
loop:
	MOVOU (DI), X0
	MOVOU (SI), X1
	PADDW X1, X0
	MOVOU X0, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	SUBQ $2, CX
	JNZ loop
	RET
avx2:
	XORQ BX, BX
	SUBQ $4, CX
	JB avx2tail
avx2loop:
	VMOVDQU (DI)(BX*1), Y0
	VPADDW (SI)(BX*1), Y0, Y0
	VMOVDQU Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $4, CX
	JAE avx2loop
avx2tail:
	ADDQ $4, CX
	JZ done
	VMOVDQU (DI)(BX*1), X0
	VPADDW (SI)(BX*1), X0, X0
	VMOVDQU X0, (DI)(BX*1)
done:
	VZEROUPPER
	RET

// func subLanes(acc, row []uint64)
//
// Subtracts row from acc lane by lane, modulo 2^16.
TEXT ·subLanes(SB), NOSPLIT, $0-48
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ row_base+24(FP), SI
	CMPB ·useAVX2(SB), $0
	JNE avx2
loop:
	MOVOU (DI), X0
	MOVOU (SI), X1
	PSUBW X1, X0
	MOVOU X0, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	SUBQ $2, CX
	JNZ loop
	RET
avx2:
	XORQ BX, BX
	SUBQ $4, CX
	JB avx2tail
avx2loop:
	VMOVDQU (DI)(BX*1), Y0
	VPSUBW (SI)(BX*1), Y0, Y0
	VMOVDQU Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $4, CX
	JAE avx2loop
avx2tail:
	ADDQ $4, CX
	JZ done
	VMOVDQU (DI)(BX*1), X0
	VPSUBW (SI)(BX*1), X0, X0
	VMOVDQU X0, (DI)(BX*1)
done:
	VZEROUPPER
	RET

// func addSubLanes(acc, add, sub []uint64)
//
// Adds add to acc and subtracts sub, lane by lane, modulo 2^16.
TEXT ·addSubLanes(SB), NOSPLIT, $0-72
	MOVQ acc_base+0(FP), DI
	MOVQ acc_len+8(FP), CX
	MOVQ add_base+24(FP), SI
	MOVQ sub_base+48(FP), DX
	CMPB ·useAVX2(SB), $0
	JNE avx2
loop:
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
	JNZ loop
	RET
avx2:
	XORQ BX, BX
	SUBQ $4, CX
	JB avx2tail
avx2loop:
	VMOVDQU (DI)(BX*1), Y0
	VPADDW (SI)(BX*1), Y0, Y0
	VPSUBW (DX)(BX*1), Y0, Y0
	VMOVDQU Y0, (DI)(BX*1)
	ADDQ $32, BX
	SUBQ $4, CX
	JAE avx2loop
avx2tail:
	ADDQ $4, CX
	JZ done
	VMOVDQU (DI)(BX*1), X0
	VPADDW (SI)(BX*1), X0, X0
	VPSUBW (DX)(BX*1), X0, X0
	VMOVDQU X0, (DI)(BX*1)
done:
	VZEROUPPER
	RET
