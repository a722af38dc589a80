//go:build !unix

package gamefile

// oNoFollow is zero where the system has no O_NOFOLLOW: OpenNoFollow checks with Lstat only.
const oNoFollow = 0

func isLoop(error) bool { return false }
