package hugepage

import (
	"testing"
	"unsafe"
)

// TestSlice: small and large slices have the length asked for and are zero and writable throughout;
// a large one starts on a huge page boundary.
func TestSlice(t *testing.T) {
	type slot struct {
		key uint64
		id  int32
	}
	for _, n := range []int{0, 1, 1000, Size / 16, 3*Size/16 + 5} {
		s := Slice[slot](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("n = %d: len %d, cap %d", n, len(s), cap(s))
		}
		for i := range s {
			if s[i] != (slot{}) {
				t.Fatalf("n = %d: element %d is %v, want zero", n, i, s[i])
			}
			s[i] = slot{uint64(i), int32(i)}
		}
		for i := range s {
			if s[i].key != uint64(i) {
				t.Fatalf("n = %d: element %d reads %v after writing", n, i, s[i])
			}
		}
		if n*16 >= Size {
			if a := uintptr(unsafe.Pointer(&s[0])); a%Size != 0 {
				t.Errorf("n = %d: starts at %#x, not on a %d-byte boundary", n, a, Size)
			}
		}
	}
}
