//go:build !linux

package agents

// hugeSlim is hugemem_linux.go's huge-page table where Linux gives one; elsewhere the table
// is allocated on the heap.
func hugeSlim(t *table, n int) bool { return false }
