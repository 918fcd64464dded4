package cfg

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestMix32 checks MIX32BIT of Algorithm 1 against values computed independently (Python, 32-bit
// wrapping arithmetic, from the paper's six lines).
func TestMix32(t *testing.T) {
	for _, c := range []struct{ in, want uint32 }{
		{0, 0},
		{1, 0x249ddfb0},
		{2, 0x493bb760},
		{12345, 0x7903bf00},
		{0xdeadbeef, 0x7c85f9f7},
		{0xffffffff, 0x9acc29e8},
	} {
		if got := Mix32(c.in); got != c.want {
			t.Errorf("Mix32(%#x) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

// TestMix32Avalanche: "a change of some bits results in all bits being changed" — flipping one input bit
// flips about half of the output bits on average, and of the lower 8 bits (the ones paths keep) too.
func TestMix32Avalanche(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4000
	var all, low float64
	for range n {
		x := rng.Uint32()
		d := Mix32(x) ^ Mix32(x^1<<rng.IntN(32))
		all += float64(bits.OnesCount32(d))
		low += float64(bits.OnesCount32(d & labelMask))
	}
	if all /= n; all < 14 || all > 18 {
		t.Errorf("one flipped input bit flips %.2f of 32 output bits on average, want about 16", all)
	}
	if low /= n; low < 3.3 || low > 4.7 {
		t.Errorf("one flipped input bit flips %.2f of the lower 8 bits on average, want about 4", low)
	}
}

// TestInitialLabels: the written-out constants are the ones their comment says were drawn, and their
// lower 8 bits differ, so even iteration 0 tells the three kinds of vertex apart in a path label.
func TestInitialLabels(t *testing.T) {
	r := rand.NewPCG(0x616a69, 0x636667)
	for _, c := range []uint32{LabelEmpty, LabelOwn, LabelOpp, Const4Libs} {
		if got := uint32(r.Uint64() >> 32); got != c {
			t.Errorf("constant %#08x, but the PCG draws %#08x", c, got)
		}
	}
	if LabelEmpty&labelMask == LabelOwn&labelMask || LabelEmpty&labelMask == LabelOpp&labelMask ||
		LabelOwn&labelMask == LabelOpp&labelMask {
		t.Error("initial labels share their lower 8 bits")
	}
}

func TestPathLabel(t *testing.T) {
	if got := PathLabel(0x12345678, 0xabcdef9a, 0x000000bc); got != 0x789abc {
		t.Errorf("PathLabel = %#x, want 0x789abc", got)
	}
	if got := FeatureString(0x789abc); got != "78-9a-bc" {
		t.Errorf("FeatureString = %q", got)
	}
	if got := PathLabel(^uint32(0), ^uint32(0), ^uint32(0)); got != NumPathFeatures-1 {
		t.Errorf("largest path label %#x, want %#x", got, NumPathFeatures-1)
	}
}
