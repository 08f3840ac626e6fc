#include "textflag.h"

// func runningSumsAVX2(out, gaps *uint32, n int, t uint32) uint64
//
// n is a positive multiple of 8, at most 1<<16. Eight gaps at a time: add one
// to each and prefix-sum them inside each 128-bit lane (two shift-and-add
// steps), add the low lane's last sum to the high lane (a permute and a
// blend), then the running total, and store. The running total grows by the
// group's last local sum, which does not wait for the total: the chain
// between groups is one add. Few lane-crossing operations (they share one
// port): two shifts and two permutes a group. Y12 and Y13 sum the low and
// high 16 bits of the gaps (n/8 values a lane: no overflow below 2^16 groups);
// the exact sum, Y12 + Y13<<16, is returned for the caller's range checks.
TEXT ·runningSumsAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ gaps+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL t+24(FP), AX
	VMOVD AX, X9
	VPBROADCASTD X9, Y9          // running total
	MOVL $1, AX
	VMOVD AX, X7
	VPBROADCASTD X7, Y7          // ones
	MOVL $3, AX
	VMOVD AX, X8
	VPBROADCASTD X8, Y8          // permute: element 3 everywhere
	MOVL $7, AX
	VMOVD AX, X10
	VPBROADCASTD X10, Y10        // permute: element 7 everywhere
	MOVL $0xFFFF, AX
	VMOVD AX, X11
	VPBROADCASTD X11, Y11        // low 16 bits
	VPXOR Y12, Y12, Y12          // sums of the gaps' low halves
	VPXOR Y13, Y13, Y13          // and high halves
	VPXOR Y14, Y14, Y14          // zero

loop:
	VMOVDQU (SI), Y0
	VPAND   Y11, Y0, Y4
	VPADDD  Y4, Y12, Y12
	VPSRLD  $16, Y0, Y5
	VPADDD  Y5, Y13, Y13
	VPADDD  Y7, Y0, Y0           // gap + 1
	VPSLLDQ $4, Y0, Y1
	VPADDD  Y1, Y0, Y0
	VPSLLDQ $8, Y0, Y1
	VPADDD  Y1, Y0, Y0           // prefix sums inside each lane
	VPERMD  Y0, Y8, Y1           // the low lane's last sum, everywhere
	VPBLENDD $0x0F, Y14, Y1, Y1  // ... in the high lane only
	VPADDD  Y1, Y0, Y0           // the group's prefix sums
	VPERMD  Y0, Y10, Y3          // the group's total, everywhere
	VPADDD  Y9, Y0, Y0           // plus the running total
	VMOVDQU Y0, (DI)
	VPADDD  Y3, Y9, Y9
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ  loop

	// Y12 + Y13<<16 in 64-bit lanes, then summed across them.
	VEXTRACTI128 $1, Y12, X1
	VPMOVZXDQ X12, Y2
	VPMOVZXDQ X1, Y3
	VPADDQ Y3, Y2, Y2
	VEXTRACTI128 $1, Y13, X1
	VPMOVZXDQ X13, Y4
	VPMOVZXDQ X1, Y5
	VPADDQ Y5, Y4, Y4
	VPSLLQ $16, Y4, Y4
	VPADDQ Y4, Y2, Y2
	VEXTRACTI128 $1, Y2, X3
	VPADDQ X3, X2, X2
	VPSHUFD $0x4E, X2, X3
	VPADDQ X3, X2, X2
	VMOVQ X2, AX
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET
