#include "textflag.h"

// func decodeShortAVX2(src *byte, srcLen int, out *uint32, outLen int, tab *shortTab) (n, used int)
//
// See varintvec.go. An entry is 48 bytes: shuffle (16), two-byte lanes (16),
// n (byte 32), used (byte 33).
TEXT ·decodeShortAVX2(SB), NOSPLIT, $0-56
	MOVQ src+0(FP), SI
	MOVQ srcLen+8(FP), R8
	MOVQ out+16(FP), DI
	MOVQ outLen+24(FP), R9
	MOVQ tab+32(FP), R10
	XORQ AX, AX                  // values decoded
	XORQ BX, BX                  // bytes used
	MOVL $0x7f, CX
	VMOVD CX, X7
	VPBROADCASTW X7, X7          // 0x007f in every 16-bit lane
	VPXOR X6, X6, X6

loop:
	LEAQ 16(BX), CX
	CMPQ CX, R8
	JGT  done
	LEAQ 8(AX), CX
	CMPQ CX, R9
	JGT  done
	VMOVDQU   (SI)(BX*1), X0
	VPMOVMSKB X0, DX
	ANDQ $0xff, DX
	MOVQ DX, CX
	SHLQ $4, CX
	LEAQ (CX)(CX*2), CX          // the entry: 48 * key
	MOVBQZX 32(R10)(CX*1), R11   // values held whole
	TESTQ R11, R11
	JZ   done
	VPSHUFB (R10)(CX*1), X0, X1  // each value's bytes in a 16-bit lane
	VPSRLW  $8, X1, X2           // second bytes
	VPCMPEQW X6, X2, X3
	VPAND   16(R10)(CX*1), X3, X3
	VPTEST  X3, X3
	JNZ  done                    // a two-byte value ending in 0: not canonical
	VPAND   X7, X1, X1
	VPSLLW  $7, X2, X2
	VPOR    X2, X1, X1
	VPMOVZXWD X1, Y1
	VMOVDQU Y1, (DI)(AX*4)
	ADDQ R11, AX
	MOVBQZX 33(R10)(CX*1), R11
	ADDQ R11, BX
	JMP  loop

done:
	VZEROUPPER
	MOVQ AX, n+40(FP)
	MOVQ BX, used+48(FP)
	RET
