//go:build !purego

#include "textflag.h"

// Micro-kernels (see kernel in sgemm.go): C tile = alpha·Ap·Bp + beta·C tile, with the tile held in
// vector registers for all kc steps. Registers common to the kernels: SI walks the packed A panel,
// DI the rows of the B panel (R9 = ldb in bytes apart), DX the rows of C (R8 = ldc in bytes), CX and
// BX count steps; the k loop is unrolled by 4. beta = ±0 stores without reading C.

// One step of k for the 6×16 tile: load row p of the B panel (2 YMM), broadcast the 6 values of
// column p of the A panel two at a time, and accumulate the outer product into Y4..Y15
// (row i in Y(4+2i) for columns 0..7 and Y(5+2i) for columns 8..15). oa is the byte offset of
// column p in the A panel from SI; DI moves on to the next row of B.
#define STEP6x16(oa) \
	VMOVUPS      (DI), Y0            \
	VMOVUPS      32(DI), Y1          \
	VBROADCASTSS oa(SI), Y2          \
	VBROADCASTSS oa+4(SI), Y3        \
	VFMADD231PS  Y0, Y2, Y4          \
	VFMADD231PS  Y1, Y2, Y5          \
	VFMADD231PS  Y0, Y3, Y6          \
	VFMADD231PS  Y1, Y3, Y7          \
	VBROADCASTSS oa+8(SI), Y2        \
	VBROADCASTSS oa+12(SI), Y3       \
	VFMADD231PS  Y0, Y2, Y8          \
	VFMADD231PS  Y1, Y2, Y9          \
	VFMADD231PS  Y0, Y3, Y10         \
	VFMADD231PS  Y1, Y3, Y11         \
	VBROADCASTSS oa+16(SI), Y2       \
	VBROADCASTSS oa+20(SI), Y3       \
	VFMADD231PS  Y0, Y2, Y12         \
	VFMADD231PS  Y1, Y2, Y13         \
	VFMADD231PS  Y0, Y3, Y14         \
	VFMADD231PS  Y1, Y3, Y15         \
	ADDQ         R9, DI

// Row update of the epilogue: C row (at DX) = acc + beta·C, beta broadcast in Y1.
#define UPDATE2(lo, hi) \
	VFMADD231PS (DX), Y1, lo   \
	VFMADD231PS 32(DX), Y1, hi \
	VMOVUPS     lo, (DX)       \
	VMOVUPS     hi, 32(DX)     \
	ADDQ        R8, DX

#define STORE2(lo, hi) \
	VMOVUPS lo, (DX)   \
	VMOVUPS hi, 32(DX) \
	ADDQ    R8, DX

// func kernel6x16AVX2(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)
TEXT ·kernel6x16AVX2(SB), NOSPLIT, $0-104
	MOVQ kc+0(FP), CX
	MOVQ ap_base+8(FP), SI
	MOVQ bp_base+32(FP), DI
	MOVQ ldb+56(FP), R9
	SHLQ $2, R9                  // ldb in bytes
	MOVQ c_base+64(FP), DX
	MOVQ ldc+88(FP), R8
	SHLQ $2, R8                  // ldc in bytes

	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15

	MOVQ CX, BX
	SHRQ $2, BX                  // BX = kc/4 unrolled iterations
	ANDQ $3, CX                  // CX = kc%4 single steps
	TESTQ BX, BX
	JZ   tail

loop4:
	STEP6x16(0)
	STEP6x16(24)
	STEP6x16(48)
	STEP6x16(72)
	ADDQ $96, SI
	DECQ BX
	JNZ  loop4

tail:
	TESTQ CX, CX
	JZ    epilogue

loop1:
	STEP6x16(0)
	ADDQ $24, SI
	DECQ CX
	JNZ  loop1

epilogue:
	VBROADCASTSS alpha+96(FP), Y0
	VMULPS       Y0, Y4, Y4
	VMULPS       Y0, Y5, Y5
	VMULPS       Y0, Y6, Y6
	VMULPS       Y0, Y7, Y7
	VMULPS       Y0, Y8, Y8
	VMULPS       Y0, Y9, Y9
	VMULPS       Y0, Y10, Y10
	VMULPS       Y0, Y11, Y11
	VMULPS       Y0, Y12, Y12
	VMULPS       Y0, Y13, Y13
	VMULPS       Y0, Y14, Y14
	VMULPS       Y0, Y15, Y15

	// beta = ±0 overwrites C without reading it, so NaNs there do not propagate.
	MOVL beta+100(FP), AX
	ANDL $0x7fffffff, AX
	JZ   overwrite

	VBROADCASTSS beta+100(FP), Y1
	UPDATE2(Y4, Y5)
	UPDATE2(Y6, Y7)
	UPDATE2(Y8, Y9)
	UPDATE2(Y10, Y11)
	UPDATE2(Y12, Y13)
	UPDATE2(Y14, Y15)
	VZEROUPPER
	RET

overwrite:
	STORE2(Y4, Y5)
	STORE2(Y6, Y7)
	STORE2(Y8, Y9)
	STORE2(Y10, Y11)
	STORE2(Y12, Y13)
	STORE2(Y14, Y15)
	VZEROUPPER
	RET

// One step of k for the 8×48 tile: 3 ZMM of B, the 8 values of A broadcast two at a time, and 24
// accumulators Z8..Z31 (row i in Z(8+3i)..Z(10+3i)).
#define STEP8x48(oa) \
	VMOVUPS      (DI), Z0            \
	VMOVUPS      64(DI), Z1          \
	VMOVUPS      128(DI), Z2         \
	VBROADCASTSS oa(SI), Z3          \
	VBROADCASTSS oa+4(SI), Z4        \
	VFMADD231PS  Z0, Z3, Z8          \
	VFMADD231PS  Z1, Z3, Z9          \
	VFMADD231PS  Z2, Z3, Z10         \
	VFMADD231PS  Z0, Z4, Z11         \
	VFMADD231PS  Z1, Z4, Z12         \
	VFMADD231PS  Z2, Z4, Z13         \
	VBROADCASTSS oa+8(SI), Z5        \
	VBROADCASTSS oa+12(SI), Z6       \
	VFMADD231PS  Z0, Z5, Z14         \
	VFMADD231PS  Z1, Z5, Z15         \
	VFMADD231PS  Z2, Z5, Z16         \
	VFMADD231PS  Z0, Z6, Z17         \
	VFMADD231PS  Z1, Z6, Z18         \
	VFMADD231PS  Z2, Z6, Z19         \
	VBROADCASTSS oa+16(SI), Z3       \
	VBROADCASTSS oa+20(SI), Z4       \
	VFMADD231PS  Z0, Z3, Z20         \
	VFMADD231PS  Z1, Z3, Z21         \
	VFMADD231PS  Z2, Z3, Z22         \
	VFMADD231PS  Z0, Z4, Z23         \
	VFMADD231PS  Z1, Z4, Z24         \
	VFMADD231PS  Z2, Z4, Z25         \
	VBROADCASTSS oa+24(SI), Z5       \
	VBROADCASTSS oa+28(SI), Z6       \
	VFMADD231PS  Z0, Z5, Z26         \
	VFMADD231PS  Z1, Z5, Z27         \
	VFMADD231PS  Z2, Z5, Z28         \
	VFMADD231PS  Z0, Z6, Z29         \
	VFMADD231PS  Z1, Z6, Z30         \
	VFMADD231PS  Z2, Z6, Z31         \
	ADDQ         R9, DI

#define UPDATE3(r0, r1, r2) \
	VFMADD231PS (DX), Z1, r0    \
	VFMADD231PS 64(DX), Z1, r1  \
	VFMADD231PS 128(DX), Z1, r2 \
	VMOVUPS     r0, (DX)        \
	VMOVUPS     r1, 64(DX)      \
	VMOVUPS     r2, 128(DX)     \
	ADDQ        R8, DX

#define STORE3(r0, r1, r2) \
	VMOVUPS r0, (DX)    \
	VMOVUPS r1, 64(DX)  \
	VMOVUPS r2, 128(DX) \
	ADDQ    R8, DX

// func kernel8x48AVX512(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)
TEXT ·kernel8x48AVX512(SB), NOSPLIT, $0-104
	MOVQ kc+0(FP), CX
	MOVQ ap_base+8(FP), SI
	MOVQ bp_base+32(FP), DI
	MOVQ ldb+56(FP), R9
	SHLQ $2, R9                  // ldb in bytes
	MOVQ c_base+64(FP), DX
	MOVQ ldc+88(FP), R8
	SHLQ $2, R8

	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z28, Z28, Z28
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	VPXORD Z31, Z31, Z31

	MOVQ  CX, BX
	SHRQ  $2, BX
	ANDQ  $3, CX
	TESTQ BX, BX
	JZ    tail512

loop512:
	STEP8x48(0)
	STEP8x48(32)
	STEP8x48(64)
	STEP8x48(96)
	ADDQ $128, SI
	DECQ BX
	JNZ  loop512

tail512:
	TESTQ CX, CX
	JZ    epilogue512

loop512one:
	STEP8x48(0)
	ADDQ $32, SI
	DECQ CX
	JNZ  loop512one

epilogue512:
	VBROADCASTSS alpha+96(FP), Z0
	VMULPS       Z0, Z8, Z8
	VMULPS       Z0, Z9, Z9
	VMULPS       Z0, Z10, Z10
	VMULPS       Z0, Z11, Z11
	VMULPS       Z0, Z12, Z12
	VMULPS       Z0, Z13, Z13
	VMULPS       Z0, Z14, Z14
	VMULPS       Z0, Z15, Z15
	VMULPS       Z0, Z16, Z16
	VMULPS       Z0, Z17, Z17
	VMULPS       Z0, Z18, Z18
	VMULPS       Z0, Z19, Z19
	VMULPS       Z0, Z20, Z20
	VMULPS       Z0, Z21, Z21
	VMULPS       Z0, Z22, Z22
	VMULPS       Z0, Z23, Z23
	VMULPS       Z0, Z24, Z24
	VMULPS       Z0, Z25, Z25
	VMULPS       Z0, Z26, Z26
	VMULPS       Z0, Z27, Z27
	VMULPS       Z0, Z28, Z28
	VMULPS       Z0, Z29, Z29
	VMULPS       Z0, Z30, Z30
	VMULPS       Z0, Z31, Z31

	MOVL beta+100(FP), AX
	ANDL $0x7fffffff, AX
	JZ   overwrite512

	VBROADCASTSS beta+100(FP), Z1
	UPDATE3(Z8, Z9, Z10)
	UPDATE3(Z11, Z12, Z13)
	UPDATE3(Z14, Z15, Z16)
	UPDATE3(Z17, Z18, Z19)
	UPDATE3(Z20, Z21, Z22)
	UPDATE3(Z23, Z24, Z25)
	UPDATE3(Z26, Z27, Z28)
	UPDATE3(Z29, Z30, Z31)
	VZEROUPPER
	RET

overwrite512:
	STORE3(Z8, Z9, Z10)
	STORE3(Z11, Z12, Z13)
	STORE3(Z14, Z15, Z16)
	STORE3(Z17, Z18, Z19)
	STORE3(Z20, Z21, Z22)
	STORE3(Z23, Z24, Z25)
	STORE3(Z26, Z27, Z28)
	STORE3(Z29, Z30, Z31)
	VZEROUPPER
	RET

// func transpose8x8AVX(n int, src []float32, ld int, dst []float32, stride int)
//
// For q < n (a multiple of 8) and r < 8: dst[q*stride+r] = src[r*ld+q]. Each 8×8 block is loaded
// as 8 row vectors and transposed in three rounds of shuffles (unpack pairs of rows, then pairs of
// pairs, then swap 128-bit halves), the usual AVX pattern. The 8 source rows are far apart (a
// column block of a large B), too many short streams for the hardware prefetcher: each is
// prefetched 512 bytes ahead, which made transposed-B products about 8% faster.
TEXT ·transpose8x8AVX(SB), NOSPLIT, $0-72
	MOVQ n+0(FP), CX
	MOVQ src_base+8(FP), SI
	MOVQ ld+32(FP), R8
	MOVQ dst_base+40(FP), DI
	MOVQ stride+64(FP), R9
	SHLQ $2, R8                    // ld in bytes
	SHLQ $2, R9                    // stride in bytes
	LEAQ (R8)(R8*2), R10           // 3·ld
	LEAQ (R8)(R8*4), R11           // 5·ld
	LEAQ (R10)(R8*4), R12          // 7·ld
	LEAQ (R9)(R9*2), R13           // 3·stride
	LEAQ (R9)(R9*4), BX            // 5·stride
	LEAQ (R13)(R9*4), DX           // 7·stride
	MOVQ R9, AX
	SHLQ $3, AX                    // 8·stride
	SHRQ $3, CX
	JZ   tdone

tloop:
	PREFETCHT0 512(SI)
	PREFETCHT0 512(SI)(R8*1)
	PREFETCHT0 512(SI)(R8*2)
	PREFETCHT0 512(SI)(R10*1)
	PREFETCHT0 512(SI)(R8*4)
	PREFETCHT0 512(SI)(R11*1)
	PREFETCHT0 512(SI)(R10*2)
	PREFETCHT0 512(SI)(R12*1)
	VMOVUPS (SI), Y0
	VMOVUPS (SI)(R8*1), Y1
	VMOVUPS (SI)(R8*2), Y2
	VMOVUPS (SI)(R10*1), Y3
	VMOVUPS (SI)(R8*4), Y4
	VMOVUPS (SI)(R11*1), Y5
	VMOVUPS (SI)(R10*2), Y6
	VMOVUPS (SI)(R12*1), Y7

	VUNPCKLPS Y1, Y0, Y8           // a0 b0 a1 b1 | a4 b4 a5 b5
	VUNPCKHPS Y1, Y0, Y9           // a2 b2 a3 b3 | a6 b6 a7 b7
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	VSHUFPS $0x44, Y10, Y8, Y0     // a0 b0 c0 d0 | a4 b4 c4 d4
	VSHUFPS $0xEE, Y10, Y8, Y1     // column 1 | column 5
	VSHUFPS $0x44, Y11, Y9, Y2     // column 2 | column 6
	VSHUFPS $0xEE, Y11, Y9, Y3     // column 3 | column 7
	VSHUFPS $0x44, Y14, Y12, Y4    // the same for rows 4..7
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7

	VPERM2F128 $0x20, Y4, Y0, Y8   // column 0: rows 0..3 | rows 4..7
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12  // column 4
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	VMOVUPS Y8, (DI)
	VMOVUPS Y9, (DI)(R9*1)
	VMOVUPS Y10, (DI)(R9*2)
	VMOVUPS Y11, (DI)(R13*1)
	VMOVUPS Y12, (DI)(R9*4)
	VMOVUPS Y13, (DI)(BX*1)
	VMOVUPS Y14, (DI)(R13*2)
	VMOVUPS Y15, (DI)(DX*1)

	ADDQ $32, SI
	ADDQ AX, DI
	DECQ CX
	JNZ  tloop

tdone:
	VZEROUPPER
	RET

// func gemvAVX2(k int, x, b []float32, ldb int, y []float32)
//
// y[j] += Σ_{p<k} x[p]·b[p*ldb+j] for j < len(y)/8*8 (the caller does the rest). Columns go 64 at a
// time in 8 YMM accumulators, enough independent chains to cover the FMA latency, down the k rows
// of b; then 8 at a time.
TEXT ·gemvAVX2(SB), NOSPLIT, $0-88
	MOVQ k+0(FP), CX
	MOVQ x_base+8(FP), SI
	MOVQ b_base+32(FP), DI
	MOVQ ldb+56(FP), R8
	MOVQ y_base+64(FP), DX
	MOVQ y_len+72(FP), R9
	SHLQ $2, R8                    // ldb in bytes
	SHRQ $3, R9                    // blocks of 8 columns
	TESTQ CX, CX
	JZ   gdone

g64:
	CMPQ R9, $8
	JLT  g8
	VMOVUPS (DX), Y0
	VMOVUPS 32(DX), Y1
	VMOVUPS 64(DX), Y2
	VMOVUPS 96(DX), Y3
	VMOVUPS 128(DX), Y4
	VMOVUPS 160(DX), Y5
	VMOVUPS 192(DX), Y6
	VMOVUPS 224(DX), Y7
	MOVQ DI, R10                   // row p of this block of b
	XORQ R11, R11                  // p
g64row:
	VBROADCASTSS (SI)(R11*4), Y8
	VFMADD231PS  (R10), Y8, Y0
	VFMADD231PS  32(R10), Y8, Y1
	VFMADD231PS  64(R10), Y8, Y2
	VFMADD231PS  96(R10), Y8, Y3
	VFMADD231PS  128(R10), Y8, Y4
	VFMADD231PS  160(R10), Y8, Y5
	VFMADD231PS  192(R10), Y8, Y6
	VFMADD231PS  224(R10), Y8, Y7
	ADDQ R8, R10
	INCQ R11
	CMPQ R11, CX
	JLT  g64row
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)
	VMOVUPS Y6, 192(DX)
	VMOVUPS Y7, 224(DX)
	ADDQ $256, DX
	ADDQ $256, DI
	SUBQ $8, R9
	JMP  g64

g8:
	TESTQ R9, R9
	JZ    gdone
	VMOVUPS (DX), Y0
	MOVQ DI, R10
	XORQ R11, R11
g8row:
	VBROADCASTSS (SI)(R11*4), Y8
	VFMADD231PS  (R10), Y8, Y0
	ADDQ R8, R10
	INCQ R11
	CMPQ R11, CX
	JLT  g8row
	VMOVUPS Y0, (DX)
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ R9
	JMP  g8

gdone:
	VZEROUPPER
	RET

// The 8×32 tile, for the last panel of B when it is 32 columns or fewer wide (n = 361 = 7·48 + 25):
// 16 accumulators Z16..Z31 (row i in Z(16+2i), Z(17+2i)).
#define STEP8x32(oa) \
	VMOVUPS      (DI), Z0            \
	VMOVUPS      64(DI), Z1          \
	VBROADCASTSS oa(SI), Z2          \
	VBROADCASTSS oa+4(SI), Z3        \
	VFMADD231PS  Z0, Z2, Z16         \
	VFMADD231PS  Z1, Z2, Z17         \
	VFMADD231PS  Z0, Z3, Z18         \
	VFMADD231PS  Z1, Z3, Z19         \
	VBROADCASTSS oa+8(SI), Z4        \
	VBROADCASTSS oa+12(SI), Z5       \
	VFMADD231PS  Z0, Z4, Z20         \
	VFMADD231PS  Z1, Z4, Z21         \
	VFMADD231PS  Z0, Z5, Z22         \
	VFMADD231PS  Z1, Z5, Z23         \
	VBROADCASTSS oa+16(SI), Z2       \
	VBROADCASTSS oa+20(SI), Z3       \
	VFMADD231PS  Z0, Z2, Z24         \
	VFMADD231PS  Z1, Z2, Z25         \
	VFMADD231PS  Z0, Z3, Z26         \
	VFMADD231PS  Z1, Z3, Z27         \
	VBROADCASTSS oa+24(SI), Z4       \
	VBROADCASTSS oa+28(SI), Z5       \
	VFMADD231PS  Z0, Z4, Z28         \
	VFMADD231PS  Z1, Z4, Z29         \
	VFMADD231PS  Z0, Z5, Z30         \
	VFMADD231PS  Z1, Z5, Z31         \
	ADDQ         R9, DI

#define UPDATE2Z(r0, r1) \
	VFMADD231PS (DX), Z1, r0   \
	VFMADD231PS 64(DX), Z1, r1 \
	VMOVUPS     r0, (DX)       \
	VMOVUPS     r1, 64(DX)     \
	ADDQ        R8, DX

#define STORE2Z(r0, r1) \
	VMOVUPS r0, (DX)   \
	VMOVUPS r1, 64(DX) \
	ADDQ    R8, DX

// func kernel8x32AVX512(kc int, ap, bp []float32, ldb int, c []float32, ldc int, alpha, beta float32)
TEXT ·kernel8x32AVX512(SB), NOSPLIT, $0-104
	MOVQ kc+0(FP), CX
	MOVQ ap_base+8(FP), SI
	MOVQ bp_base+32(FP), DI
	MOVQ ldb+56(FP), R9
	SHLQ $2, R9
	MOVQ c_base+64(FP), DX
	MOVQ ldc+88(FP), R8
	SHLQ $2, R8

	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z28, Z28, Z28
	VPXORD Z29, Z29, Z29
	VPXORD Z30, Z30, Z30
	VPXORD Z31, Z31, Z31

	MOVQ  CX, BX
	SHRQ  $2, BX
	ANDQ  $3, CX
	TESTQ BX, BX
	JZ    tail32

loop32:
	STEP8x32(0)
	STEP8x32(32)
	STEP8x32(64)
	STEP8x32(96)
	ADDQ $128, SI
	DECQ BX
	JNZ  loop32

tail32:
	TESTQ CX, CX
	JZ    epilogue32

loop32one:
	STEP8x32(0)
	ADDQ $32, SI
	DECQ CX
	JNZ  loop32one

epilogue32:
	VBROADCASTSS alpha+96(FP), Z0
	VMULPS       Z0, Z16, Z16
	VMULPS       Z0, Z17, Z17
	VMULPS       Z0, Z18, Z18
	VMULPS       Z0, Z19, Z19
	VMULPS       Z0, Z20, Z20
	VMULPS       Z0, Z21, Z21
	VMULPS       Z0, Z22, Z22
	VMULPS       Z0, Z23, Z23
	VMULPS       Z0, Z24, Z24
	VMULPS       Z0, Z25, Z25
	VMULPS       Z0, Z26, Z26
	VMULPS       Z0, Z27, Z27
	VMULPS       Z0, Z28, Z28
	VMULPS       Z0, Z29, Z29
	VMULPS       Z0, Z30, Z30
	VMULPS       Z0, Z31, Z31

	MOVL beta+100(FP), AX
	ANDL $0x7fffffff, AX
	JZ   overwrite32

	VBROADCASTSS beta+100(FP), Z1
	UPDATE2Z(Z16, Z17)
	UPDATE2Z(Z18, Z19)
	UPDATE2Z(Z20, Z21)
	UPDATE2Z(Z22, Z23)
	UPDATE2Z(Z24, Z25)
	UPDATE2Z(Z26, Z27)
	UPDATE2Z(Z28, Z29)
	UPDATE2Z(Z30, Z31)
	VZEROUPPER
	RET

overwrite32:
	STORE2Z(Z16, Z17)
	STORE2Z(Z18, Z19)
	STORE2Z(Z20, Z21)
	STORE2Z(Z22, Z23)
	STORE2Z(Z24, Z25)
	STORE2Z(Z26, Z27)
	STORE2Z(Z28, Z29)
	STORE2Z(Z30, Z31)
	VZEROUPPER
	RET
