//go:build !linux

package durable

import "os"

// dropBehind does nothing where sync_file_range is not available (dropbehind_linux.go).
type dropBehind struct{}

func newDropBehind(*os.File, int64) *dropBehind { return nil }
func (d *dropBehind) reserved(int64)            {}
func (d *dropBehind) stop()                     {}
