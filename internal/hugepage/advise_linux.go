package hugepage

import "syscall"

// advise asks for huge pages on b, a whole number of huge pages from an aligned start; a refusal (huge
// pages off) leaves it on small pages.
func advise(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
