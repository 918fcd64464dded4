// Package hugepage allocates large tables that are read at random, such as the pattern dictionaries, so
// that the system can back them with 2 MB pages (Linux's transparent huge pages, asked for with
// madvise): a lookup then costs a cache miss but no TLB miss and page walk. Stockfish does the same
// for its transposition table. It is best effort: where huge pages are off or not offered, or memory
// the heap reuses is already on small pages, the table is ordinary memory.
package hugepage

import "unsafe"

// Size is the huge page size asked for.
const Size = 2 << 20

// Slice returns a zeroed slice of n elements of T. When it spans at least one huge page, its start is
// aligned to Size (as nearly as T's size allows) and the whole huge pages inside it are marked for the
// system to back with huge pages; aligning it costs up to one huge page more. It is ordinary
// garbage-collected memory.
func Slice[T any](n int) []T {
	var zero T
	elem := unsafe.Sizeof(zero)
	if elem == 0 || uintptr(n)*elem < Size {
		return make([]T, n)
	}
	buf := make([]T, n+int(Size/elem)+1) // room to align the start
	start := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	skip := (roundUp(start) - start + elem - 1) / elem
	s := buf[skip : int(skip)+n : int(skip)+n]
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	from, to := roundUp(lo), (lo+uintptr(n)*elem)/Size*Size
	if to > from {
		advise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), from-lo)), to-from))
	}
	return s
}

func roundUp(a uintptr) uintptr { return (a + Size - 1) / Size * Size }
