//go:build !purego

package agents

import "unsafe"

// prefetch asks the processor to load the cache line at addr ahead of its use (prefetch_amd64.s).
//
//go:noescape
func prefetch(addr unsafe.Pointer)
