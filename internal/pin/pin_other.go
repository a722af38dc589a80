//go:build !linux

package pin

func pinThread(int) (func(), bool) { return nil, false }
