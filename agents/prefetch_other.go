//go:build !amd64 || purego

package agents

import "unsafe"

// prefetch does nothing where no assembly gives the hint.
func prefetch(addr unsafe.Pointer) {}
