package hugepage

import (
	"runtime"
	"syscall"
	"unsafe"
)

// mapHuge maps a private anonymous region with room to align it to Size, asks for huge pages on the
// aligned part, and unmaps the region when owner is collected. It returns nil if the mapping fails.
func mapHuge[T any, O any](owner *O, n int, bytes uintptr) []T {
	region, err := syscall.Mmap(-1, 0, int(bytes)+Size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(region)))
	skip := (Size - start%Size) % Size
	aligned := region[skip : skip+bytes]
	// Without huge pages (madvise refused, or transparent huge pages off) the mapping is still good
	// memory, on small pages.
	_ = syscall.Madvise(aligned, syscall.MADV_HUGEPAGE)
	runtime.AddCleanup(owner, func(r []byte) { _ = syscall.Munmap(r) }, region)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(aligned))), n)
}
