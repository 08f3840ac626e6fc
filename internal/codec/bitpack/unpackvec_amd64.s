#include "textflag.h"

// func unpackAVX2(src *byte, out *uint32, groups, w int, tab *unpackTab)
//
// groups > 0 groups of eight w-bit fields (w bytes each, 1 <= w <= 24); see
// unpackvec.go. tab: 32 shuffle bytes, then 8 shift counts.
TEXT ·unpackAVX2(SB), NOSPLIT, $0-40
	MOVQ src+0(FP), SI
	MOVQ out+8(FP), DI
	MOVQ groups+16(FP), DX
	MOVQ w+24(FP), CX
	MOVQ tab+32(FP), AX
	VMOVDQU (AX), Y5             // shuffle
	VMOVDQU 32(AX), Y6           // shifts
	MOVL $1, BX
	SHLL CX, BX
	DECL BX
	VMOVD BX, X7
	VPBROADCASTD X7, Y7          // mask: w low bits
	MOVQ CX, R8
	SHRQ $1, R8                  // the second lane's byte offset: 4w/8
	LEAQ (SI)(R8*1), R9

loop:
	VMOVDQU      (SI), X0
	VINSERTI128  $1, (R9), Y0, Y0
	VPSHUFB      Y5, Y0, Y0
	VPSRLVD      Y6, Y0, Y0
	VPAND        Y7, Y0, Y0
	VMOVDQU      Y0, (DI)
	ADDQ CX, SI
	ADDQ CX, R9
	ADDQ $32, DI
	DECQ DX
	JNZ  loop

	VZEROUPPER
	RET
