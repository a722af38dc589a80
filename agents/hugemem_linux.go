package agents

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugeSlim makes a slim table's n buckets in anonymous memory aligned to 2 MiB, where the
// kernel is asked for huge pages (madvise MADV_HUGEPAGE; the default "madvise" setting of
// transparent huge pages grants them only so): a table of several MiB probed at random then
// needs a few TLB entries, not thousands, and a Katarenga node costs about 9% less time
// (docs/search.md, "The table's layout and size"). The memory is unmapped when t becomes
// unreachable: the methods that read t.slim keep t alive to their end (runtime.KeepAlive),
// since a pointer into this memory does not. It returns false where the table is under 2 MiB or the kernel refuses (the
// caller allocates on the heap then).
func hugeSlim(t *table, n int) bool {
	const huge = 2 << 20
	size := n * int(unsafe.Sizeof(slimBucket{}))
	if size < huge {
		return false
	}
	m, err := syscall.Mmap(-1, 0, size+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return false
	}
	off := (huge - int(uintptr(unsafe.Pointer(&m[0]))%huge)) % huge
	if err := syscall.Madvise(m[off:off+size], syscall.MADV_HUGEPAGE); err != nil {
		syscall.Munmap(m)
		return false
	}
	t.slim = unsafe.Slice((*slimBucket)(unsafe.Pointer(&m[off])), n)
	runtime.AddCleanup(t, func(m []byte) { syscall.Munmap(m) }, m)
	return true
}
