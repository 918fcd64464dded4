package pattern

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestBloomNoFalseNegatives: Count is never below the number of adds, with plain and minimal-increase
// adds from concurrent goroutines (run with -race).
func TestBloomNoFalseNegatives(t *testing.T) {
	for _, conservative := range []bool{false, true} {
		f := NewBloom(1 << 12) // small: many keys share counters
		r := rand.New(rand.NewPCG(1, 1))
		keys := make([]uint64, 3000)
		truth := make([]int, len(keys))
		var adds []int
		for i := range keys {
			keys[i] = r.Uint64()
			n := 1 + r.IntN(5)
			if i%100 == 0 {
				n = 300 // saturates
			}
			truth[i] = n
			for range n {
				adds = append(adds, i)
			}
		}
		r.Shuffle(len(adds), func(i, j int) { adds[i], adds[j] = adds[j], adds[i] })
		add := f.Add
		if conservative {
			add = f.AddMin
		}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for j := w; j < len(adds); j += 4 {
					add(keys[adds[j]])
				}
			})
		}
		wg.Wait()
		for i, k := range keys {
			if got := f.Count(k); got < min(truth[i], 255) {
				t.Fatalf("conservative=%v: Count = %d after %d adds", conservative, got, truth[i])
			}
		}
	}
}

// TestBloomFalsePositives: with a filter loaded as the harvest loads it, the rate at which keys added
// once pass a threshold of 3 is small, close to the Poisson estimate for 4 counters per key, and minimal
// increase lowers it.
func TestBloomFalsePositives(t *testing.T) {
	if raceEnabled {
		t.Skip("a statistical, single-goroutine test: nothing for the race detector")
	}
	const bytes, keys = 1 << 20, 1 << 18 // one key per 4 counters: Stern's 600M keys in 2^32 counters is 0.14 per counter
	rate := func(add func(*Bloom, uint64)) float64 {
		f := NewBloom(bytes)
		r := rand.New(rand.NewPCG(2, 2))
		for range keys {
			add(f, r.Uint64())
		}
		fp := 0
		r = rand.New(rand.NewPCG(2, 2))
		for range keys {
			if f.Count(r.Uint64()) >= 3 {
				fp++
			}
		}
		return float64(fp) / keys
	}
	plain, minimal := rate((*Bloom).Add), rate((*Bloom).AddMin)
	// A counter of a key gets Poisson(4·keys/counters) = Poisson(1) adds from the others; a false positive
	// needs two on all four.
	lambda := 4.0 * keys / bytes
	p2 := 1 - math.Exp(-lambda)*(1+lambda)
	want := math.Pow(p2, 4)
	t.Logf("threshold 3 passed by keys added once: %.4f plain, %.4f minimal increase (Poisson estimate %.4f)", plain, minimal, want)
	if plain > 3*want || minimal > plain {
		t.Errorf("false-positive rates %.4f (plain) and %.4f (minimal increase), estimate %.4f", plain, minimal, want)
	}
}

func TestBloomSize(t *testing.T) {
	if got := NewBloom(1000).Bytes(); got != 960 {
		t.Errorf("Bytes() = %d, want 960 (whole 64-byte blocks)", got)
	}
	if got := NewBloom(1).Bytes(); got != 64 {
		t.Errorf("Bytes() = %d, want one block", got)
	}
	f := NewBloom(64)
	f.Add(42)
	if f.Load() <= 0 || f.Load() > 4.0/63 {
		t.Errorf("Load() = %v after one add", f.Load())
	}
}

// newTouchedBloom returns a filter whose pages are all mapped, so that benchmarks measure cache and TLB
// misses, not the kernel's first-touch page faults.
func newTouchedBloom(bytes int) *Bloom {
	f := NewBloom(bytes)
	for i := 0; i < len(f.words); i += 512 {
		f.words[i].Store(0)
	}
	return f
}

func BenchmarkBloomAdd(b *testing.B) {
	f := newTouchedBloom(1 << 26)
	k := uint64(1)
	for b.Loop() {
		k = k*6364136223846793005 + 1442695040888963407
		f.Add(k)
	}
}

func BenchmarkBloomAddMin(b *testing.B) {
	f := newTouchedBloom(1 << 26)
	k := uint64(1)
	for b.Loop() {
		k = k*6364136223846793005 + 1442695040888963407
		f.AddMin(k)
	}
}

// BenchmarkBloomAddMin10 adds ten keys per iteration one by one, BenchmarkBloomAddMinAll in a batch.
func BenchmarkBloomAddMin10(b *testing.B) {
	f := newTouchedBloom(1 << 28)
	var keys [10]uint64
	k := uint64(1)
	for b.Loop() {
		for i := range keys {
			k = k*6364136223846793005 + 1442695040888963407
			keys[i] = k
		}
		for _, k := range keys {
			f.AddMin(k)
		}
	}
}

func BenchmarkBloomAddMinAll(b *testing.B) {
	f := newTouchedBloom(1 << 28)
	var keys [10]uint64
	k := uint64(1)
	for b.Loop() {
		for i := range keys {
			k = k*6364136223846793005 + 1442695040888963407
			keys[i] = k
		}
		f.AddMinAll(keys[:])
	}
}

func BenchmarkBloomCount(b *testing.B) {
	f := newTouchedBloom(1 << 26)
	k := uint64(1)
	n := 0
	for b.Loop() {
		k = k*6364136223846793005 + 1442695040888963407
		n += f.Count(k)
	}
	_ = n
}
